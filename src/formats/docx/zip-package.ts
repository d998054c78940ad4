// Reading a zip package into memory under limits (zip bombs, unsafe names) and writing one back.

import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { FormatError } from '../../errors.ts';

/** Total bytes all entries may inflate to; far above any real document, far below what hurts a server. */
const MAX_UNCOMPRESSED_BYTES = 200 * 1024 * 1024;
/** Inflated/compressed ratio above which an entry is a bomb; real XML parts compress 5–30:1. */
export const MAX_COMPRESSION_RATIO = 100;
/** Entries smaller than this are not held to the ratio: tiny, very regular parts compress well. */
const RATIO_EXEMPT_BYTES = 1024 * 1024;
const MAX_ENTRIES = 10_000;

export interface ZipEntry {
  name: string;
  /** Inflated content; empty for a directory. */
  data: Buffer;
  directory: boolean;
  /** Whether the entry was deflated (written back the same way). */
  compressed: boolean;
  mtime: Date;
}

/** Reads every entry. Bombs, encrypted entries, names with `..` or absolute paths → FormatError. */
export async function readZip(bytes: Buffer, what: string): Promise<ZipEntry[]> {
  let zip: yauzl.ZipFile;
  try {
    // decodeStrings: false lets the names reach our own check (yauzl's would be an unexplained error).
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromBuffer(
        bytes,
        { lazyEntries: true, validateEntrySizes: true, decodeStrings: false },
        (err, z) => (err ? reject(err) : resolve(z)),
      ),
    );
  } catch (err) {
    throw new FormatError(`${what}: not a zip package (${(err as Error).message})`);
  }
  if (zip.entryCount > MAX_ENTRIES) throw new FormatError(`${what}: more than ${MAX_ENTRIES} zip entries`);
  const entries: ZipEntry[] = [];
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = (entry.fileName as unknown as Buffer).toString('utf8');
        const directory = name.endsWith('/');
        try {
          checkName(name, what);
          if (entry.isEncrypted()) throw new FormatError(`${what}: entry "${name}" is encrypted`);
          total += entry.uncompressedSize;
          const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
          if (
            total > MAX_UNCOMPRESSED_BYTES ||
            (entry.uncompressedSize > RATIO_EXEMPT_BYTES && ratio > MAX_COMPRESSION_RATIO)
          ) {
            throw new FormatError(
              `${what}: zip bomb refused: "${name}" inflates to ${entry.uncompressedSize} bytes ` +
                `(limits: ${MAX_UNCOMPRESSED_BYTES} bytes in all, ${MAX_COMPRESSION_RATIO}:1 per entry)`,
            );
          }
        } catch (err) {
          reject(err);
          return;
        }
        const base = {
          name,
          directory,
          compressed: entry.compressionMethod === 8,
          mtime: entry.getLastModDate(),
        };
        if (directory) {
          entries.push({ ...base, data: Buffer.alloc(0) });
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          // validateEntrySizes stops a stream that inflates past its declared size, so the limits hold.
          const chunks: Buffer[] = [];
          const sink = new Writable({
            write(chunk: Buffer, _enc, done) {
              chunks.push(chunk);
              done();
            },
          });
          pipeline(stream, sink).then(() => {
            entries.push({ ...base, data: Buffer.concat(chunks) });
            zip.readEntry();
          }, reject);
        });
      });
      zip.readEntry();
    });
  } catch (err) {
    if (err instanceof FormatError) throw err;
    throw new FormatError(`${what}: damaged zip package (${(err as Error).message})`);
  } finally {
    zip.close();
  }
  return entries;
}

function checkName(name: string, what: string): void {
  const segments = name.split('/');
  if (name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name) || segments.includes('..')) {
    throw new FormatError(`${what}: unsafe zip entry name "${name}"`);
  }
}

/** Writes the entries in order, each compressed as it was. */
export async function writeZip(entries: readonly ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if (e.directory) zip.addEmptyDirectory(e.name, { mtime: e.mtime });
    else zip.addBuffer(e.data, e.name, { mtime: e.mtime, compress: e.compressed });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
