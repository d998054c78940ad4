// Decoding and re-encoding of text files: UTF-8 with or without a BOM, UTF-16 with a BOM.
//
// The BOM is not part of the decoded text, so offsets into the text never count it, and encodeText()
// writes it back, so a merged file keeps the encoding and BOM of its original.

import { FormatError } from '../errors.ts';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  bom: boolean;
}

/** Decodes a text file; bytes that are not valid in its encoding are a FormatError at their position. */
export function decodeText(bytes: Buffer, what: string): DecodedText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decodeStrict(bytes, 'utf-16le', 2, what);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decodeStrict(bytes, 'utf-16be', 2, what);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return decodeStrict(bytes, 'utf-8', bom ? 3 : 0, what);
}

export function encodeText(text: string, like: Omit<DecodedText, 'text'>): Buffer {
  if (like.encoding === 'utf-8') {
    const body = Buffer.from(text, 'utf8');
    return like.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
  }
  const body = Buffer.from(`\ufeff${text}`, 'utf16le');
  if (like.encoding === 'utf-16be') body.swap16();
  return body;
}

function decodeStrict(bytes: Buffer, encoding: TextEncodingName, skip: number, what: string): DecodedText {
  const body = bytes.subarray(skip);
  try {
    const text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
    return { text, encoding, bom: skip > 0 };
  } catch {
    const valid = validPrefixLength(body, encoding);
    const before = new TextDecoder(encoding).decode(body.subarray(0, valid), { stream: true });
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    throw new FormatError(`${what}: invalid ${encoding.toUpperCase()} byte sequence`, line, column);
  }
}

/** Length of the longest prefix that decodes without error (a cut multi-byte sequence is not an error). */
function validPrefixLength(body: Buffer, encoding: TextEncodingName): number {
  let lo = 0;
  let hi = body.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    try {
      new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body.subarray(0, mid), {
        stream: true,
      });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}
