// Tagged text as people read it: the words, with each inline tag as a numbered chip (its code on hover), and
// optional highlighted ranges (concordance hits).
import { Fragment, type ReactNode } from 'react';
import { placedTags, tagLabels } from './tag-parts.ts';

export function TagChip({ text, title, role }: { text: string; title: string; role: string }) {
  return (
    <span className={`tag-chip ${role}`} title={title} role="img" aria-label={`tag ${text}`}>
      {text}
    </span>
  );
}

/** Text between tags, with the parts inside `marks` (offsets into the tagged string) highlighted. */
function marked(text: string, offset: number, marks: readonly [number, number][]): ReactNode {
  const inside = marks.filter(([s, e]) => e > offset && s < offset + text.length);
  if (inside.length === 0) return text;
  const out: ReactNode[] = [];
  let at = 0;
  for (const [s, e] of inside) {
    const from = Math.max(0, s - offset);
    const to = Math.min(text.length, e - offset);
    if (from > at) out.push(text.slice(at, from));
    out.push(<mark key={from}>{text.slice(from, to)}</mark>);
    at = to;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

export function TaggedText({ text, marks = [] }: { text: string; marks?: readonly [number, number][] }) {
  const tags = placedTags(text);
  if (tags.length === 0) return <>{marked(text, 0, marks)}</>;
  const labels = tagLabels(tags.map((t) => t.part));
  const out: ReactNode[] = [];
  let at = 0;
  tags.forEach((tag, i) => {
    if (tag.from > at)
      out.push(<Fragment key={`t${at}`}>{marked(text.slice(at, tag.from), at, marks)}</Fragment>);
    out.push(<TagChip key={`g${tag.from}`} {...labels[i]} />);
    at = tag.to;
  });
  if (at < text.length) out.push(<Fragment key={`t${at}`}>{marked(text.slice(at), at, marks)}</Fragment>);
  return <>{out}</>;
}
