// The leverage analysis as CSV (GET /v2/jobs/{jobId}/stats.csv): a row per file of each language pair, the
// pair's total, the job's total and the weights, the last column the new words the pair's MT engine can
// draft — what a project manager pastes into a quote or a spreadsheet. RFC 4180: cells holding a comma, a
// quote or a line break are quoted with their quotes doubled; a file name that a spreadsheet would run as a
// formula (=, +, -, @ first) is written as text.
import type { Static } from 'typebox';
import { ANALYSIS_BANDS } from '../../matching/score-bands.ts';
import { type JobLeverageStats, LEVERAGE_BANDS, type LeverageBand } from './schemas.ts';

type Stats = Static<typeof JobLeverageStats>;

/**
 * The bands' column titles, best first, as the web application's table names them; the context and MT bands
 * say what they are, which the table tells in its headings' tooltips.
 */
const SPELLED_OUT: Partial<Record<LeverageBand, string>> = { context: 'context', mt: 'machine translation' };
export const BAND_LABELS = Object.fromEntries(
  ANALYSIS_BANDS.map((b) => [b.band, SPELLED_OUT[b.band] ? `${b.label} (${SPELLED_OUT[b.band]})` : b.label]),
) as Record<LeverageBand, string>;

function cell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function analysisCsv(stats: Stats): string {
  const head = [
    'Source language',
    'Target language',
    'File',
    'Segments',
    'Words',
    ...LEVERAGE_BANDS.map((b) => `${BAND_LABELS[b]} words`),
    'Weighted words',
    'New words MT can draft',
  ];
  const rows: (string | number)[][] = [head];
  const line = (
    src: string,
    trg: string,
    file: string,
    t: Pick<Static<typeof JobLeverageStats>, 'segments' | 'bands' | 'weightedWords' | 'mtAvailableWords'> & {
      words: number;
    },
  ) => [
    src,
    trg,
    file,
    t.segments,
    t.words,
    ...LEVERAGE_BANDS.map((b) => t.bands[b]),
    t.weightedWords,
    t.mtAvailableWords,
  ];
  for (const p of stats.projects) {
    for (const f of p.files) rows.push(line(p.srcLang, p.trgLang, f.name, { ...f, words: f.sourceWords }));
    rows.push(line(p.srcLang, p.trgLang, 'All files', { ...p, words: p.sourceWords }));
  }
  rows.push(line('', '', 'All language pairs', { ...stats, words: stats.sourceWords }));
  rows.push([
    '',
    '',
    'Weights (% of a new word)',
    '',
    '',
    ...LEVERAGE_BANDS.map((b) => stats.weights[b]),
    '',
    '',
  ]);
  return `${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}
