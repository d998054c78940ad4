// Text with its formatting marks drawn: each line break, tab, no-break space, doubled or edge space keeps its
// character (copied as it is, line breaks still break) and shows its sign over or after it (CSS, not copied).
// Screen readers hear what it is ("line break", "2 spaces").
import type { ReactNode } from 'react';
import type { FormattingMark } from './formatting-marks.ts';

/** Marks in a row of the same kind and label: one run, named once. */
function runs(marks: readonly FormattingMark[]): FormattingMark[][] {
  const out: FormattingMark[][] = [];
  for (const m of marks) {
    const last = out[out.length - 1]?.at(-1);
    if (last && last.end === m.start && last.label === m.label && m.kind !== 'newline') out.at(-1)!.push(m);
    else out.push([m]);
  }
  return out;
}

function plural(label: string, n: number): string {
  if (n === 1) return label;
  return `${n} ${label.endsWith('space') ? `${label}s` : `× ${label}`}`;
}

/** text[from, to) with the marks that fall in it (offsets into `text`). */
export function MarkedRun({
  text,
  from = 0,
  to = text.length,
  marks,
}: {
  text: string;
  from?: number;
  to?: number;
  marks: readonly FormattingMark[];
}): ReactNode {
  const inside = marks.filter((m) => m.start >= from && m.end <= to);
  if (inside.length === 0) return text.slice(from, to);
  const out: ReactNode[] = [];
  let at = from;
  for (const run of runs(inside)) {
    const start = run[0].start;
    if (start > at) out.push(text.slice(at, start));
    out.push(
      <span key={start} className="ws-run" role="img" aria-label={plural(run[0].label, run.length)}>
        {run.map((m) => (
          <span key={m.start} className={`ws ws-${m.kind}`} data-sign={m.sign}>
            {text.slice(m.start, m.end)}
          </span>
        ))}
      </span>,
    );
    at = run[run.length - 1].end;
  }
  if (at < to) out.push(text.slice(at, to));
  return out;
}
