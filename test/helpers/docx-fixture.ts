// A minimal valid Word package for tests, built from the XML parts in src/formats/docx/fixtures/report with yazl.

import { readFileSync } from 'node:fs';
import yazl from 'yazl';

const FIXTURE = new URL('../../src/formats/docx/fixtures/report/', import.meta.url);
const PART_NAMES = [
  '[Content_Types].xml',
  '_rels/.rels',
  'word/document.xml',
  'word/_rels/document.xml.rels',
  'word/styles.xml',
  'word/header1.xml',
  'word/footnotes.xml',
];
const IMAGE = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

/** The fixture part's text. */
export function fixturePart(name: string): string {
  return readFileSync(new URL(name, FIXTURE), 'utf8');
}

/** The package, with parts replaced by `replace` and whatever `extra` adds; the image is stored uncompressed. */
export async function buildDocx(
  replace: Record<string, string> = {},
  extra: (zip: yazl.ZipFile) => void = () => {},
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const name of PART_NAMES) zip.addBuffer(Buffer.from(replace[name] ?? fixturePart(name)), name);
  zip.addBuffer(IMAGE, 'word/media/image1.png', { compress: false });
  extra(zip);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
