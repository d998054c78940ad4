// The saved match index: a memory's MemoryIndex written to one file, stamped with the memory's version,
// checked by CRC-32 when read back. A file of another format or failing its checksum is refused, never used.
import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { nextTurn } from '../pacing.ts';
import { MemoryIndex } from './memory-index.ts';
import type { StoreParts } from './store-parts.ts';

/**
 * Bump whenever the file layout (here and store-parts.ts), the index's structures, or the tokens an entry
 * yields (tokenize.ts, the inline tag parser) change: a file of another format is rebuilt from the store.
 * Each bump records the tokens' digest under the new number in tokenize.golden.test.ts.
 */
export const INDEX_FORMAT = 11;
const MAGIC = Buffer.from('TSRIDX\r\n', 'latin1');
// magic, header length (u32), CRC-32 of header and body (u32).
const PREAMBLE = MAGIC.length + 8;
const CHUNK_CHARS = 2 ** 26;

interface Section {
  name: string;
  /**
   * Typed arrays as their bytes (the entries' texts among them, as the store's byte pool); strings (the
   * vocabulary) joined and written as UTF-8, or as UTF-16 when one holds a lone surrogate.
   */
  type: 'i32' | 'f64' | 'u8' | 'utf8' | 'utf16';
  /** Byte offset in the body and byte length. */
  at: number;
  bytes: number;
}

interface Header {
  format: number;
  memoryVersion: number;
  numbers: StoreParts['numbers'];
  sections: Section[];
}

export type LoadResult =
  | { ok: true; index: MemoryIndex; memoryVersion: number }
  | { ok: false; reason: 'absent' | 'format' | 'checksum' | 'damaged'; detail?: string };

/** Bytes checksummed between two turns of the event loop (some 10 ms at zlib's crc32 speed). */
const CRC_SLICE = 16 * 2 ** 20;

/** Writes the index to `path` (atomically: a temporary file renamed over it). */
export async function saveIndexFile(
  path: string,
  index: MemoryIndex,
  memoryVersion: number,
  options: {
    /** Characters per chunk of strings (tests make it small). */
    chunkChars?: number;
    /**
     * Called once the index's state is copied (in slices, with turns of the event loop between them):
     * until then the index must not change; after, the file is written from the copy.
     */
    onSnapshot?: () => void;
  } = {},
): Promise<void> {
  const chunkChars = options.chunkChars ?? CHUNK_CHARS;
  const steps = index.toPartsInSlices();
  let parts: StoreParts;
  for (;;) {
    const step = steps.next();
    if (step.done) {
      parts = step.value;
      break;
    }
    await nextTurn();
  }
  options.onSnapshot?.();
  const body: Buffer[] = [];
  const sections: Section[] = [];
  let at = 0;
  const put = (name: string, type: Section['type'], data: Buffer) => {
    sections.push({ name, type, at, bytes: data.length });
    body.push(data);
    at += data.length;
    // Keep every section 8-byte aligned, so that it can be viewed as doubles.
    const pad = (8 - (data.length % 8)) % 8;
    if (pad) {
      body.push(Buffer.alloc(pad));
      at += pad;
    }
  };
  const view = (a: Int32Array | Float64Array | Uint8Array) =>
    Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const typeOf = (a: Int32Array | Float64Array | Uint8Array) =>
    a instanceof Float64Array ? 'f64' : a instanceof Uint8Array ? 'u8' : 'i32';
  for (const [name, a] of Object.entries(parts.arrays)) put(name, typeOf(a), view(a));
  for (const [name, list] of Object.entries(parts.strings))
    put(`${name}.lengths`, 'i32', view(Int32Array.from(list, (x) => x.length)));
  // Strings in chunks of whole strings, far below the longest string V8 makes (2^29 characters).
  for (const [name, list] of Object.entries(parts.strings)) {
    for (let from = 0; from < list.length; ) {
      let to = from;
      let chars = 0;
      while (to < list.length && (to === from || chars + list[to].length <= chunkChars))
        chars += list[to++].length;
      const text = list.slice(from, to).join('');
      if ((text as unknown as { isWellFormed(): boolean }).isWellFormed())
        put(`${name}.text`, 'utf8', Buffer.from(text, 'utf8'));
      else put(`${name}.text`, 'utf16', Buffer.from(text, 'utf16le'));
      from = to;
    }
  }
  const header: Header = { format: INDEX_FORMAT, memoryVersion, numbers: parts.numbers, sections };
  // Padded with spaces so that the body starts 8-byte aligned in the file.
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((PREAMBLE + Buffer.byteLength(json)) % 8)) % 8);
  const headerBytes = Buffer.from(json);
  // The checksum a slice at a time, with a turn of the event loop between: over the 1.8 GB of ten million
  // entries in one call it would hold a server for a second or more (the import bench saw 1.7 s).
  let crc = crc32(headerBytes);
  for (const b of body)
    for (let from = 0; from < b.length; from += CRC_SLICE) {
      crc = crcOn(b.subarray(from, from + CRC_SLICE), crc);
      if (b.length > CRC_SLICE) await nextTurn();
    }
  const preamble = Buffer.alloc(PREAMBLE);
  MAGIC.copy(preamble);
  preamble.writeUInt32LE(headerBytes.length, MAGIC.length);
  preamble.writeUInt32LE(crc >>> 0, MAGIC.length + 4);
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  const file = await open(temp, 'w');
  try {
    let position = 0;
    for (const b of [preamble, headerBytes, ...body]) {
      // A write may be partial (one call writes at most about 2 GiB on Linux).
      for (let done = 0; done < b.length; ) {
        const { bytesWritten } = await file.write(b, done, b.length - done, position);
        done += bytesWritten;
        position += bytesWritten;
      }
    }
    await file.sync();
  } catch (err) {
    await file.close();
    await rm(temp, { force: true });
    throw err;
  }
  await file.close();
  await rename(temp, path);
}

/**
 * Reads an index saved by saveIndexFile; says why not when the file is absent, of another format or
 * corrupt. Each array is used in place, as a view of the buffer its section was read into (the entries'
 * texts too, decoded only when read); the vocabulary's strings are decoded and their buffers let go.
 */
export async function loadIndexFile(path: string): Promise<LoadResult> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, reason: 'absent' };
    throw err;
  }
  let head: Buffer;
  let header: Header;
  const read: Buffer[] = [];
  let expected: number;
  try {
    const size = (await file.stat()).size;
    const preamble = await readAt(file, 0, Math.min(size, PREAMBLE));
    if (preamble.length < PREAMBLE || !preamble.subarray(0, MAGIC.length).equals(MAGIC))
      return { ok: false, reason: 'damaged', detail: 'not an index file' };
    const headerLength = preamble.readUInt32LE(MAGIC.length);
    expected = preamble.readUInt32LE(MAGIC.length + 4);
    if (PREAMBLE + headerLength > size) return { ok: false, reason: 'damaged', detail: 'truncated' };
    head = await readAt(file, PREAMBLE, headerLength);
    try {
      header = JSON.parse(head.toString('utf8')) as Header;
    } catch {
      return { ok: false, reason: 'damaged', detail: 'header' };
    }
    const base = PREAMBLE + headerLength;
    if (!Array.isArray(header.sections)) return { ok: false, reason: 'damaged', detail: 'header' };
    // Each section (with the padding after it) read into a buffer of its own, checked as it comes.
    let crc = crcOn(head, 0);
    const bodySize = size - base;
    for (let i = 0; i < header.sections.length; i++) {
      const sec = header.sections[i];
      const end = i + 1 < header.sections.length ? header.sections[i + 1].at : bodySize;
      if (!(sec.at >= 0 && sec.bytes >= 0 && sec.at + sec.bytes <= end && end <= bodySize))
        return { ok: false, reason: 'damaged', detail: 'truncated' };
      const bytes = await readAt(file, base + sec.at, end - sec.at);
      crc = crcOn(bytes, crc);
      read.push(bytes.subarray(0, sec.bytes));
    }
    if (crc >>> 0 !== expected) return { ok: false, reason: 'checksum' };
  } finally {
    await file.close();
  }
  if (header.format !== INDEX_FORMAT)
    return {
      ok: false,
      reason: 'format',
      detail: `format ${header.format}, this engine reads ${INDEX_FORMAT}`,
    };
  const arrays: StoreParts['arrays'] = {};
  const chunks: Record<string, string[]> = {};
  for (const [i, sec] of header.sections.entries()) {
    const bytes = read[i];
    if (sec.type === 'utf8' || sec.type === 'utf16')
      (chunks[sec.name] ??= []).push(bytes.toString(sec.type === 'utf8' ? 'utf8' : 'utf16le'));
    else if (sec.type === 'f64')
      arrays[sec.name] = new Float64Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, sec.bytes / 8);
    else if (sec.type === 'u8')
      arrays[sec.name] = new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, sec.bytes);
    else arrays[sec.name] = new Int32Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, sec.bytes / 4);
  }
  const split = (name: string): string[] => {
    const lengths = arrays[`${name}.lengths`];
    const texts = chunks[`${name}.text`] ?? [];
    const out = new Array<string>(lengths.length);
    let chunk = 0;
    let p = 0;
    for (let i = 0; i < lengths.length; i++) {
      while (chunk < texts.length && p >= texts[chunk].length && lengths[i] > 0) {
        chunk++;
        p = 0;
      }
      const text = texts[chunk] ?? '';
      out[i] = text.slice(p, p + lengths[i]);
      p += lengths[i];
    }
    return out;
  };
  const parts: StoreParts = {
    numbers: header.numbers,
    strings: { tokens: split('tokens') },
    arrays,
  };
  return { ok: true, index: MemoryIndex.fromParts(parts), memoryVersion: header.memoryVersion };
}

/** `length` bytes of the file from `position`, in a buffer of their own (8-byte aligned, so viewable as doubles). */
async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.from(new ArrayBuffer(length));
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buffer : buffer.subarray(0, done);
}

/** The CRC-32 continued over `data` (zlib.crc32 of an empty view of an empty ArrayBuffer drops the running value). */
function crcOn(data: Buffer, crc: number): number {
  return data.length > 0 ? crc32(data, crc) : crc;
}
