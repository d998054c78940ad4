// Lilt's termbase CSV: one row a pair of terms, the source term in the first column and the target term in the
// second, an optional header row (`source text,target text,status,created date,updated date` is Lilt's own),
// RFC 4180 quoting. Rows missing either term are skipped and counted, as Lilt skips them. Tessera writes the
// same first five columns and adds what a concept and its terms carry beyond them, each named in the header;
// reading, a header's known names place the columns, so a file Tessera wrote reads back whole.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { FileLimitError, FormatError } from '../../errors.ts';
import { gunzipIfCompressed } from '../../xml/gzip.ts';
import { guardLines } from '../tsv/line-guard.ts';
import { MAX_TSV_LINE } from '../tsv/tsv-pairs.ts';
import { type ConceptRecord, statusFromFile, type TermRecord } from './termbase.ts';

/** The header Tessera writes: Lilt's five columns, then its own. */
export const TERM_CSV_COLUMNS = [
  'source text',
  'target text',
  'status',
  'created date',
  'updated date',
  'source status',
  'part of speech',
  'definition',
  'context',
  'note',
  'domain',
  'case sensitive',
] as const;
type Column = (typeof TERM_CSV_COLUMNS)[number];

const HEADER_ALIASES: Record<string, Column> = {
  source: 'source text',
  target: 'target text',
  'source term': 'source text',
  'target term': 'target text',
};

export interface TermCsvOptions {
  srclang: string;
  trglang: string;
  /** Lilt's has_header_row; when absent, a first row naming the source and target columns is the header. */
  hasHeaderRow?: boolean;
  maxDecompressedBytes?: number;
}

export interface TermCsvStats {
  concepts: number;
  skipped: number;
}

export type TermCsvReader = AsyncGenerator<ConceptRecord, void> & { readonly stats: TermCsvStats };

export function readTermCsv(input: AsyncIterable<Uint8Array>, options: TermCsvOptions): TermCsvReader {
  const stats: TermCsvStats = { concepts: 0, skipped: 0 };
  return Object.assign(readRows(input, options, stats), { stats });
}

async function* readRows(
  input: AsyncIterable<Uint8Array>,
  options: TermCsvOptions,
  stats: TermCsvStats,
): AsyncGenerator<ConceptRecord, void> {
  const parser = parse({
    bom: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
    max_record_size: MAX_TSV_LINE,
  });
  const lines = guardLines(gunzipIfCompressed(input, options.maxDecompressedBytes), {
    name: 'CSV',
    delimiter: ',',
    delimiters: 'commas',
    maxLineChars: MAX_TSV_LINE,
  });
  const bytes = Readable.from(lines);
  bytes.on('error', (err) => parser.destroy(err));
  bytes.pipe(parser);
  // Lilt's positions until a header says otherwise.
  let columns: Map<Column, number> = new Map(TERM_CSV_COLUMNS.slice(0, 3).map((c, i) => [c, i]));
  let first = true;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      if (first) {
        first = false;
        const header = headerColumns(record);
        if (options.hasHeaderRow || header) {
          if (header) columns = header;
          continue;
        }
      }
      const cell = (column: Column) => {
        const at = columns.get(column);
        const value = at === undefined ? undefined : record[at]?.trim();
        return value === '' ? undefined : value;
      };
      if (record.length < 2) {
        throw new FormatError(
          `CSV: line ${info.lines}: expected the source term and the target term separated by a comma`,
        );
      }
      const source = cell('source text');
      const target = cell('target text');
      if (!source || !target) {
        stats.skipped++;
        continue;
      }
      const caseSensitive = /^(true|yes|1)$/i.test(cell('case sensitive') ?? '');
      const shared = { caseSensitive, partOfSpeech: cell('part of speech'), definition: cell('definition') };
      const sourceTerm: TermRecord = {
        lang: options.srclang,
        text: source,
        status: statusFromFile(cell('source status') ?? '') ?? 'preferred',
        ...shared,
      };
      const targetTerm: TermRecord = {
        lang: options.trglang,
        text: target,
        // Lilt writes a number here (its review state); only a status word is a status.
        status: statusFromFile(cell('status') ?? '') ?? 'preferred',
        ...shared,
        context: cell('context'),
        note: cell('note'),
      };
      stats.concepts++;
      yield {
        domain: cell('domain'),
        terms: [dropUndefined(sourceTerm), dropUndefined(targetTerm)],
        line: info.lines,
      };
    }
  } catch (err) {
    if (err instanceof FormatError) throw err;
    const csv = err as Error & { code?: string; lines?: number };
    if (csv.code === 'CSV_MAX_RECORD_SIZE') {
      throw new FileLimitError(`CSV: line ${csv.lines ?? '?'} is longer than ${MAX_TSV_LINE} characters`);
    }
    throw new FormatError(`CSV: ${(err as Error).message}`);
  } finally {
    bytes.destroy();
    parser.destroy();
  }
}

/** The columns a header row names, or undefined when the row is not a header (it names no source and target). */
function headerColumns(record: readonly string[]): Map<Column, number> | undefined {
  const columns = new Map<Column, number>();
  record.forEach((cell, i) => {
    const name = cell.trim().toLowerCase();
    const column = HEADER_ALIASES[name] ?? (TERM_CSV_COLUMNS as readonly string[]).find((c) => c === name);
    if (column && !columns.has(column as Column)) columns.set(column as Column, i);
  });
  return columns.has('source text') && columns.has('target text') ? columns : undefined;
}

function dropUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

export interface CsvConcept extends ConceptRecord {
  createdAt: number;
  updatedAt: number;
}

/**
 * Writes the termbase as rows of term pairs: each target-language term beside the concept's first source-language
 * term that is not forbidden (a forbidden source term pairs when it is the only one). Concepts without a term on
 * either side have no row: Lilt's CSV holds pairs.
 */
export async function* writeTermCsv(
  concepts: AsyncIterable<CsvConcept> | Iterable<CsvConcept>,
  languages: { srclang: string; trglang: string },
): AsyncGenerator<string, void> {
  const primary = (lang: string) => lang.toLowerCase().split(/[-_]/)[0];
  const src = primary(languages.srclang);
  const trg = primary(languages.trglang);
  let out = `${TERM_CSV_COLUMNS.join(',')}\r\n`;
  for await (const concept of concepts) {
    const sources = concept.terms.filter((t) => primary(t.lang) === src);
    const source = sources.find((t) => t.status !== 'forbidden') ?? sources[0];
    if (!source) continue;
    for (const target of concept.terms.filter((t) => primary(t.lang) === trg)) {
      const row = [
        source.text,
        target.text,
        target.status,
        csvDate(concept.createdAt),
        csvDate(concept.updatedAt),
        source.status,
        target.partOfSpeech ?? source.partOfSpeech ?? '',
        target.definition ?? source.definition ?? '',
        target.context ?? '',
        target.note ?? '',
        concept.domain ?? '',
        target.caseSensitive || source.caseSensitive ? 'true' : 'false',
      ];
      out += `${row.map(csvCell).join(',')}\r\n`;
    }
    if (out.length > 64 * 1024) {
      yield out;
      out = '';
    }
  }
  yield out;
}

/** Lilt's date cells: `2021-04-09 15:25`, UTC. */
function csvDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
