// Tagged text as people read it: the words with their formatting marks (line breaks, tabs, no-break and doubled
// spaces), each inline tag as a chip (its number, or its full markup in full-tag mode; its code on hover and on
// keyboard focus), each placeholder as its own text, and optional highlighted ranges (concordance hits).

import { type TagLabel, tagLabels } from '@server/text/tag-labels.ts';
import { Fragment, type ReactNode } from 'react';
import { type FormattingMark, formattingMarks } from '../marks/formatting-marks.ts';
import { MarkedRun } from '../marks/marked-text.tsx';
import { useFullTags } from './tag-display.ts';
import { placedTags, protectedUnits } from './tag-parts.ts';

export function TagChip({ label, focusable = false }: { label: TagLabel; focusable?: boolean }) {
  const full = useFullTags();
  if (label.placeholder) return <Placeholder text={label.text} focusable={focusable} />;
  const text = full ? label.full : label.text;
  return (
    <span
      className={`tag-chip ${label.role}${full ? ' full' : ''}`}
      title={label.title}
      data-code={full ? undefined : label.title}
      role="img"
      aria-label={`tag ${label.text}`}
      aria-description={label.title}
      tabIndex={focusable ? 0 : undefined}
    >
      {text}
    </span>
  );
}

/** A placeholder (`%s`, `{count}`): its own text, set apart so that `%s` against `%d` can be seen. */
export function Placeholder({ text, focusable = false }: { text: string; focusable?: boolean }) {
  return (
    <span
      className="placeholder"
      title="placeholder"
      role="img"
      aria-label={`placeholder ${text}`}
      tabIndex={focusable ? 0 : undefined}
    >
      {text}
    </span>
  );
}

/** A range of tagged text to highlight: a concordance hit, or a recognized term with what it says. */
export interface Highlight {
  start: number;
  end: number;
  /** A recognized term: underlined, and described (its translations) on hover and to screen readers. */
  description?: string;
}

/** Text between tags, with the parts inside `highlights` (offsets into the tagged string) highlighted. */
function run(
  text: string,
  from: number,
  to: number,
  marks: readonly FormattingMark[],
  highlights: readonly Highlight[],
): ReactNode {
  const inside = highlights.filter((h) => h.end > from && h.start < to);
  if (inside.length === 0) return <MarkedRun text={text} from={from} to={to} marks={marks} />;
  const out: ReactNode[] = [];
  let at = from;
  for (const h of inside) {
    const start = Math.max(from, h.start, at);
    const end = Math.min(to, h.end);
    if (end <= start) continue;
    if (start > at) out.push(<MarkedRun key={`t${at}`} text={text} from={at} to={start} marks={marks} />);
    out.push(
      h.description === undefined ? (
        <mark key={start}>
          <MarkedRun text={text} from={start} to={end} marks={marks} />
        </mark>
      ) : (
        <mark key={start} className="term" title={h.description} aria-description={h.description}>
          <MarkedRun text={text} from={start} to={end} marks={marks} />
        </mark>
      ),
    );
    at = end;
  }
  if (at < to) out.push(<MarkedRun key={`t${at}`} text={text} from={at} to={to} marks={marks} />);
  return out;
}

/** The pieces of tagged text in order: its units (tags, placeholders written as text) and the text between. */
function textPieces(text: string): { kind: 'tag' | 'placeholder' | 'text'; from: number; to: number }[] {
  const pieces: ReturnType<typeof textPieces> = [];
  let at = 0;
  for (const u of protectedUnits(text)) {
    if (u.from > at) pieces.push({ kind: 'text', from: at, to: u.from });
    pieces.push(u);
    at = u.to;
  }
  if (at < text.length) pieces.push({ kind: 'text', from: at, to: text.length });
  return pieces;
}

export function TaggedText({
  text,
  marks = [],
  terms = [],
  focusable = false,
  locatable = false,
}: {
  text: string;
  /** Ranges to highlight. */
  marks?: readonly [number, number][];
  /** Recognized terms to underline, each described. */
  terms?: readonly Highlight[];
  /** Chips take the keyboard focus (and show their code then): where a person reads this text closely. */
  focusable?: boolean;
  /** Each run of text says where it starts in the tagged string (`data-from`): a click there is a cursor. */
  locatable?: boolean;
}) {
  const formatting = formattingMarks(text);
  const tags = placedTags(text);
  const labels = tagLabels(tags.map((t) => t.part));
  const labelAt = new Map(tags.map((t, i) => [t.from, labels[i]]));
  const highlights: Highlight[] = [...marks.map(([start, end]) => ({ start, end })), ...terms].sort(
    (a, b) => a.start - b.start,
  );
  return (
    <span className="tagged">
      {textPieces(text).map((p) =>
        p.kind === 'tag' ? (
          <TagChip key={`g${p.from}`} label={labelAt.get(p.from)!} focusable={focusable} />
        ) : p.kind === 'placeholder' ? (
          <Placeholder key={`p${p.from}`} text={text.slice(p.from, p.to)} focusable={focusable} />
        ) : locatable ? (
          <span key={`t${p.from}`} data-from={p.from}>
            {run(text, p.from, p.to, formatting, highlights)}
          </span>
        ) : (
          <Fragment key={`t${p.from}`}>{run(text, p.from, p.to, formatting, highlights)}</Fragment>
        ),
      )}
    </span>
  );
}
