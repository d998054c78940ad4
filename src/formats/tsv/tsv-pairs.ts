// Streaming reader of tab-separated memory files: one pair a line, `source<TAB>target`, plain text (no
// markup: `<b>` in a TSV is the four characters, kept literal through literalToTagged). An optional first line
// names the columns' languages (`en<TAB>de`, `en-US<TAB>de-DE`); when it names them the other way round the
// columns are swapped; a first line that does not name the memory's languages is data (column-header.ts). Lines whose source or target is empty are skipped and counted; a line without a tab is
// a FormatError naming it. csv-parse does the splitting, with quoting off: TSV from spreadsheets and CAT tools
// rarely quotes, and a quote inside a segment is text.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { FileLimitError, FormatError } from '../../errors.ts';
import { gunzipIfCompressed } from '../../xml/gzip.ts';
import { literalToTagged } from '../tagged-literal.ts';
import type { TmxReader, TmxReadOptions, TmxReadStats, TmxUnit } from '../tmx/tmx-reader.ts';
import { firstRowKind } from './column-header.ts';
import { guardLines } from './line-guard.ts';

/**
 * The longest line read, in characters: csv-parse gathers a line whole before it yields it, so a gigabyte
 * without a line break would be held whole. No pair of segments comes near it.
 */
export const MAX_TSV_LINE = 4 * 1024 * 1024;

/** How a file of pairs separates and quotes its cells: TSV here, CSV in csv-pairs.ts. */
export interface Dialect {
  /** Named in messages. */
  name: 'TSV' | 'CSV';
  delimiter: string;
  /** The quote character, or false for none. */
  quote: string | false;
  /** Named in the message for a row with one cell. */
  separator: string;
  /** Named in the message for a line of too many cells. */
  separators: string;
}

const TSV: Dialect = { name: 'TSV', delimiter: '\t', quote: false, separator: 'a tab', separators: 'tabs' };

export function readTsvPairs(input: AsyncIterable<Uint8Array>, options: TmxReadOptions): TmxReader {
  return readDelimitedPairs(input, options, TSV);
}

/** A reader of `source<delimiter>target` rows in the dialect's syntax, with the rules above. */
export function readDelimitedPairs(
  input: AsyncIterable<Uint8Array>,
  options: TmxReadOptions,
  dialect: Dialect,
): TmxReader {
  const stats: TmxReadStats = { units: 0, skipped: 0 };
  return Object.assign(readPairs(input, options, stats, dialect), { stats });
}

async function* readPairs(
  input: AsyncIterable<Uint8Array>,
  options: TmxReadOptions,
  stats: TmxReadStats,
  dialect: Dialect,
): AsyncGenerator<TmxUnit, TmxReadStats> {
  const parser = parse({
    delimiter: dialect.delimiter,
    quote: dialect.quote,
    bom: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
    max_record_size: MAX_TSV_LINE,
  });
  // The file streams through the parser (pipe keeps the backpressure); records are read as they are parsed.
  // Lines of too many cells or bytes are refused before the parser holds them (line-guard.ts).
  const lines = guardLines(gunzipIfCompressed(input, options.maxDecompressedBytes), {
    name: dialect.name,
    delimiter: dialect.delimiter,
    delimiters: dialect.separators,
    maxLineChars: MAX_TSV_LINE,
  });
  const bytes = Readable.from(lines);
  bytes.on('error', (err) => parser.destroy(err));
  bytes.pipe(parser);
  let swapped = false;
  let first = true;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      if (first) {
        first = false;
        const kind = firstRowKind(record, options, info.lines);
        swapped = kind === 'swapped-header';
        if (kind !== 'data') continue;
      }
      if (record.length < 2) {
        throw new FormatError(
          `line ${info.lines}: expected the source and the target separated by ${dialect.separator}`,
        );
      }
      const [source, target] = swapped ? [record[1], record[0]] : [record[0], record[1]];
      if (source.trim() === '' || target.trim() === '') {
        stats.skipped++;
        continue;
      }
      stats.units++;
      yield { source: literalToTagged(source), target: literalToTagged(target) };
    }
  } catch (err) {
    if (err instanceof FormatError) throw err;
    const csv = err as Error & { code?: string; lines?: number };
    if (csv.code === 'CSV_MAX_RECORD_SIZE') {
      throw new FileLimitError(
        `${dialect.name}: line ${csv.lines ?? '?'} is longer than ${MAX_TSV_LINE} characters (one pair a line is expected)`,
      );
    }
    // csv-parse's own errors (an invalid byte sequence, a record too large) name their line in the message.
    throw new FormatError(`${dialect.name}: ${(err as Error).message}`);
  } finally {
    bytes.destroy();
    parser.destroy();
  }
  return stats;
}
