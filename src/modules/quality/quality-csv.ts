// The quality report as CSV (GET /v2/quality/report.csv): first a table of the annotations in document order,
// one error a row, which a spreadsheet sorts and filters; then, after an empty line, the errors by category and
// the score with its verdict. RFC 4180: cells holding a comma, a quote or a line break are quoted with their
// quotes doubled; a text a spreadsheet would run as a formula (=, +, -, @ first) is written as text.
import type { Static } from 'typebox';
import { MQM_CATEGORY_LABELS } from '../../text/qa/mqm.ts';
import type { QualityReport } from './schemas.ts';

function cell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const SEVERITY_NAMES = { minor: 'Minor', major: 'Major', critical: 'Critical' } as const;

export function qualityCsv(report: Static<typeof QualityReport>): string {
  const rows: (string | number)[][] = [
    [
      'Segment',
      'Category',
      'Severity',
      'Penalty points',
      'Source',
      'Target as annotated',
      'Note',
      'Reviewer',
      'Annotated at (UTC)',
    ],
  ];
  for (const a of report.annotations) {
    rows.push([
      a.segment_number,
      MQM_CATEGORY_LABELS[a.category],
      SEVERITY_NAMES[a.severity],
      a.penalty_points,
      a.source,
      a.target ?? '',
      a.note,
      a.user ?? '',
      new Date(a.created_at * 1000).toISOString().replace('.000Z', 'Z'),
    ]);
  }
  rows.push([]);
  rows.push(['Category', 'Minor', 'Major', 'Critical', 'Penalty points']);
  for (const c of report.categories) rows.push([c.label, c.minor, c.major, c.critical, c.penalty_points]);
  rows.push([
    'All categories',
    report.errors.minor,
    report.errors.major,
    report.errors.critical,
    report.penalty_points,
  ]);
  rows.push([]);
  rows.push(['Document', report.document_name]);
  rows.push(['Language pair', `${report.srclang} → ${report.trglang}`]);
  rows.push(['Source words', report.words]);
  rows.push(['Penalty points', report.penalty_points]);
  rows.push([
    'Penalty per severity',
    `minor ${report.penalties.minor}, major ${report.penalties.major}, critical ${report.penalties.critical}`,
  ]);
  rows.push(['Points per 1,000 words', report.points_per_1000_words]);
  rows.push(['Pass threshold (points per 1,000 words)', report.threshold]);
  rows.push(['Result', report.pass ? 'Pass' : 'Fail']);
  return `${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}
