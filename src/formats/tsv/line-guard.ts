// The bytes of a TSV or CSV file checked line by line before csv-parse sees them. csv-parse bounds a row by
// the characters of its cells (max_record_size), not by how many cells it holds: a gigabyte of tabs (a
// megabyte gzipped) is one row of a billion empty cells, and V8 ends the whole process when the row's array
// outgrows it (a fatal "invalid size error": nothing to catch). Here a line may hold MAX_SEPARATORS
// separators, and no more bytes than its characters could take under MAX_TSV_LINE.
import { FileLimitError } from '../../errors.ts';

/** Separators one line may hold: two cells are read; a spreadsheet's languages side by side stay far below. */
export const MAX_SEPARATORS = 10_000;

export interface LineLimits {
  /** Named in messages: TSV, CSV. */
  name: string;
  /** The separator, one ASCII character (never part of a UTF-8 sequence). */
  delimiter: string;
  /** Its name in messages, plural: tabs, commas. */
  delimiters: string;
  /** The longest line in characters; a line of more than 3 bytes a character is longer than it. */
  maxLineChars: number;
}

const LF = 0x0a;
const CR = 0x0d;

/** Passes the chunks on as they are; throws FileLimitError naming the line once one passes a limit. */
export async function* guardLines(
  input: AsyncIterable<Uint8Array>,
  limits: LineLimits,
): AsyncGenerator<Uint8Array> {
  const separator = limits.delimiter.charCodeAt(0);
  // A UTF-16 code unit takes at most 3 bytes of UTF-8 (a 4-byte sequence is two units).
  const maxBytes = 3 * limits.maxLineChars;
  let line = 1;
  let bytes = 0;
  let separators = 0;
  let afterCr = false;
  for await (const chunk of input) {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // The next of each byte looked for, each searched again only once passed.
    let lf = buf.indexOf(LF);
    let cr = buf.indexOf(CR);
    let sep = buf.indexOf(separator);
    let pos = 0;
    for (;;) {
      let next = -1;
      for (const at of [lf, cr, sep]) if (at >= 0 && (next < 0 || at < next)) next = at;
      bytes += (next < 0 ? buf.length : next) - pos;
      if (bytes > maxBytes) {
        throw new FileLimitError(
          `${limits.name}: line ${line} is longer than ${limits.maxLineChars} characters (one pair a line is expected)`,
        );
      }
      if (next < 0) break;
      const byte = buf[next];
      if (byte === separator) {
        if (++separators > MAX_SEPARATORS) {
          throw new FileLimitError(
            `${limits.name}: line ${line} holds more than ${MAX_SEPARATORS} ${limits.delimiters} (one pair a line is expected)`,
          );
        }
        sep = buf.indexOf(separator, next + 1);
      } else {
        // CR, LF and CRLF each end a line.
        if (byte === CR || !(next === 0 ? afterCr : buf[next - 1] === CR)) line++;
        bytes = 0;
        separators = 0;
        if (byte === CR) cr = buf.indexOf(CR, next + 1);
        else lf = buf.indexOf(LF, next + 1);
      }
      pos = next + 1;
    }
    if (buf.length > 0) afterCr = buf[buf.length - 1] === CR;
    yield chunk;
  }
}
