// Streaming reader of comma-separated memory files (docs/API.md promises `.csv` imports): the TSV rules —
// `source,target` a row, plain text, an optional first row naming the memory's languages (column-header.ts),
// empty sides skipped and counted — in CSV's syntax (RFC 4180), where a cell holding a comma, a quote or a
// line break is quoted and its quotes doubled.
import type { TmxReader, TmxReadOptions } from '../tmx/tmx-reader.ts';
import { type Dialect, readDelimitedPairs } from './tsv-pairs.ts';

const CSV: Dialect = {
  name: 'CSV',
  delimiter: ',',
  quote: '"',
  separator: 'a comma',
  separators: 'commas',
};

export function readCsvPairs(input: AsyncIterable<Uint8Array>, options: TmxReadOptions): TmxReader {
  return readDelimitedPairs(input, options, CSV);
}
