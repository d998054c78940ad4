// XLIFF 1.x as a memory file: every trans-unit with a target gives a pair (segmented units a pair per
// <mrk mtype="seg">, matched by mid), in tagged text as the XLIFF filter reads it. The <file> languages, when
// given, must be the memory's (by primary subtag): an en→fr file is refused rather than stored as German.
// Each pair carries its context: the unit's resname, and the sources of the segments before and after it.
//
// The file streams: the XML reader checks it as it comes, and each trans-unit's own text — inside copies of
// the start tags around it (xliff, file, group: their namespaces and attributes) — is read with the filter's
// trans-unit reader as soon as it closes. Memory holds one unit (bounded: MAX_XLIFF_UNIT), not the file,
// which gzip can make a thousand times larger than the upload.
import { FileLimitError, FormatError } from '../../errors.ts';
import { primaryLanguage as primary } from '../../text/language-tags.ts';
import { gunzipIfCompressed } from '../../xml/gzip.ts';
import { readXml, type XmlContext, type XmlHandlers } from '../../xml/xml-reader.ts';
import type { TmxReader, TmxReadOptions, TmxReadStats, TmxUnit } from '../tmx/tmx-reader.ts';
import { readTransUnits } from './xliff-trans-units.ts';

/** The largest trans-unit read, in characters of its markup. */
export const MAX_XLIFF_UNIT = 8 * 1024 * 1024;
/** Characters of trans-units read at once. */
const BATCH_CHARS = 256 * 1024;
/** Elements open around a trans-unit (xliff, file, body, groups): more is no translation file. */
const MAX_DEPTH = 64;

interface Piece {
  source: string;
  target: string | undefined;
  key: string | null;
}

export function readXliffPairs(input: AsyncIterable<Uint8Array>, options: TmxReadOptions): TmxReader {
  const stats: TmxReadStats = { units: 0, skipped: 0 };
  return Object.assign(readPairs(input, options, stats), { stats });
}

async function* readPairs(
  input: AsyncIterable<Uint8Array>,
  options: TmxReadOptions,
  stats: TmxReadStats,
): AsyncGenerator<TmxUnit, TmxReadStats> {
  // Every source segment in file order, translated or not, is the context of its neighbours: a pair is
  // given out once the piece after it is known.
  let before: string | null = null;
  let waiting: { piece: Piece; prev: string | null } | undefined;
  const pairOf = (w: { piece: Piece; prev: string | null }, next: string | null): TmxUnit => ({
    source: w.piece.source,
    target: w.piece.target!,
    context: { key: w.piece.key, prev: w.prev, next },
  });
  const add = (piece: Piece, emit: (unit: TmxUnit) => void) => {
    if (waiting) emit(pairOf(waiting, piece.source));
    waiting = undefined;
    if (piece.target !== undefined) {
      if (piece.source.trim() === '' || piece.target.trim() === '') stats.skipped++;
      else {
        stats.units++;
        waiting = { piece, prev: before };
      }
    }
    before = piece.source;
  };
  const text = gunzipIfCompressed(input, options.maxDecompressedBytes);
  yield* readXml<TmxUnit>(text, (ctx) => unitHandlers(ctx, options, stats, add));
  if (waiting) yield pairOf(waiting, null);
  return stats;
}

/** The reader's handlers: they cut each trans-unit's text out of the stream and read its pieces. */
function unitHandlers(
  ctx: XmlContext<TmxUnit>,
  options: TmxReadOptions,
  stats: TmxReadStats,
  add: (piece: Piece, emit: (unit: TmxUnit) => void) => void,
): XmlHandlers {
  // The decoded text from offset `kept` on: from the open trans-unit's start, else from the last "<" (a
  // start tag may be under way; "<" cannot occur inside one).
  let buffer = '';
  let kept = 0;
  let tagStart = 0;
  /** Where the last start or end tag the parser reported ends. */
  let lastEnd = 0;
  /** The start tags around the current position, outside trans-units. */
  const around: { name: string; tag: string }[] = [];
  let unit: { start: number; depth: number; line: number; column: number } | undefined;
  let depth = 0;
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  const slice = (from: number, to: number) => buffer.slice(from - kept, to - kept);

  // Units are read a batch at a time, all inside the same start tags: one reader's set-up for many small
  // units. 100,000 units read one by one took about twice as long as the whole file read at once; in
  // batches, 1.2 times as long.
  let batch: string[] = [];
  let batched = 0;
  let batchAt: { line: number; column: number } | undefined;
  const flush = () => {
    if (batch.length === 0) return;
    const markup = batch.join('');
    batch = [];
    batched = 0;
    readUnits(markup, batchAt!);
    batchAt = undefined;
  };

  function readUnits(markup: string, at: { line: number; column: number }) {
    const opened = around.map((a) => a.tag).join('');
    const closed = around
      .map((a) => `</${a.name}>`)
      .reverse()
      .join('');
    let units: ReturnType<typeof readTransUnits>;
    try {
      units = readTransUnits(`${opened}${markup}${closed}`);
    } catch (err) {
      // The reader saw these units alone: the position given is that of the first in the file.
      if (err instanceof FormatError) {
        const detail = err.message.replace(/ at line \d+, column \d+$/, '').replace(/^XLIFF: /, '');
        throw new FormatError(`XLIFF: ${detail}`, at.line, at.column);
      }
      throw err;
    }
    for (const tu of units) {
      const source = tu.segSource ?? tu.source;
      const target = tu.target;
      const key = tu.resname || null;
      if (!source || !target) stats.skipped++;
      if (!source) continue;
      if (source.segments && (!target || target.segments)) {
        const targets = new Map(target?.segments?.map((s) => [s.mid, s.tagged]));
        for (const s of source.segments) {
          add({ source: s.tagged, target: target ? (targets.get(s.mid) ?? '') : undefined, key }, ctx.emit);
        }
      } else {
        add({ source: source.tagged, target: target?.tagged, key }, ctx.emit);
      }
    }
  }

  return {
    chunk(text) {
      if (unit) {
        if (kept + buffer.length + text.length - unit.start > MAX_XLIFF_UNIT) {
          throw new FileLimitError(
            `XLIFF: a trans-unit longer than ${MAX_XLIFF_UNIT} characters`,
            unit.line,
            unit.column,
          );
        }
      } else {
        // Only a "<" after the last tag reported may begin one still under way.
        const lt = buffer.lastIndexOf('<');
        const from = lt >= 0 && kept + lt >= lastEnd ? lt : buffer.length;
        kept += from;
        buffer = buffer.slice(from);
      }
      buffer += text;
    },
    openTagStart(tag) {
      const at = ctx.position();
      tagStart = kept + buffer.lastIndexOf(`<${tag.name}`, at.offset - kept);
    },
    openTag(tag) {
      depth++;
      lastEnd = ctx.position().offset;
      if (unit) return;
      const name = local(tag.name);
      const markup = slice(tagStart, ctx.position().offset);
      if (depth === 1) {
        // The root is checked as the trans-unit reader checks it (XLIFF 1.x, not 2).
        try {
          readTransUnits(`${markup}</${tag.name}>`);
        } catch (err) {
          if (err instanceof FormatError) {
            const at = ctx.position();
            throw new FormatError(err.message.replace(/ at line \d+, column \d+$/, ''), at.line, at.column);
          }
          throw err;
        }
      }
      if (name === 'trans-unit') {
        const at = ctx.position();
        unit = { start: tagStart, depth, line: at.line, column: at.column };
        return;
      }
      if (name === 'file') checkLanguages(tag.attributes, options);
      if (around.length >= MAX_DEPTH) ctx.fail('Malformed XLIFF', `elements nested deeper than ${MAX_DEPTH}`);
      // Self-closing: closeTag follows at once and takes it off again.
      flush();
      around.push({ name: tag.name, tag: markup });
    },
    // Text is read from the unit's markup; the handler is there so that saxes reports (and so bounds, see
    // MAX_XML_RUN) every run of text, a gigabyte of whitespace between units included, rather than skim
    // it for as long as it lasts.
    text() {},
    closeTag() {
      lastEnd = ctx.position().offset;
      if (unit && depth === unit.depth) {
        const markup = slice(unit.start, ctx.position().offset);
        batch.push(markup);
        batched += markup.length;
        batchAt ??= { line: unit.line, column: unit.column };
        unit = undefined;
        if (batched >= BATCH_CHARS) flush();
      } else if (!unit) {
        flush();
        around.pop();
      }
      depth--;
    },
  };
}

/** The <file> languages, when given, must be the memory's. */
function checkLanguages(attributes: Record<string, string>, options: TmxReadOptions): void {
  for (const [attr, want] of [
    ['source-language', options.srclang],
    ['target-language', options.trglang],
  ] as const) {
    const given = attributes[attr];
    if (given && primary(given) !== primary(want)) {
      throw new FormatError(`XLIFF: the file's ${attr} is ${given}, the memory's is ${want}`);
    }
  }
}
