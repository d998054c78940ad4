// A word diff drawn (wordDiff): the match's words struck out, this text's inserted, tags as the chips they are in
// their own text, placeholders as their own text (`%s` against `%d`), and the whitespace between words as it is
// written, with its formatting marks. Used by the matches, the replace preview, the history and the conflicts.
import { tagLabels } from '@server/text/tag-labels.ts';
import type { ReactNode } from 'react';
import { formattingMarks } from '../marks/formatting-marks.ts';
import { MarkedRun } from '../marks/marked-text.tsx';
import { placedTags } from '../tags/tag-parts.ts';
import { Placeholder, TagChip } from '../tags/tagged-text.tsx';
import { type DiffPart, placeholderText, wordDiff } from './word-diff.ts';

/** The chip of the tag at `start` of a text, or undefined when no tag of the model starts there. */
function chipsOf(text: string) {
  const tags = placedTags(text);
  const labels = tagLabels(tags.map((t) => t.part));
  return (start: number) => {
    const i = tags.findIndex((t) => t.from === start);
    return i < 0 ? undefined : labels[i];
  };
}

function Whitespace({ text, edge }: { text: string; edge: boolean }) {
  return text ? <MarkedRun text={text} marks={formattingMarks(text, { edges: edge })} /> : null;
}

export function DiffText({
  before,
  after,
  names = { before: 'the match', after: 'this segment' },
}: {
  before: string;
  after: string;
  /** What the two texts are, for the tooltips of what changed (tracked changes name the translator's version). */
  names?: { before: string; after: string };
}) {
  const parts = wordDiff(before, after);
  const chipInBefore = chipsOf(before.normalize('NFC'));
  const chipInAfter = chipsOf(after.normalize('NFC'));
  const body = (text: string, start: number, inAfter: boolean): ReactNode => {
    const placeholder = placeholderText(text);
    if (placeholder !== undefined) return <Placeholder text={placeholder} />;
    const label = (inAfter ? chipInAfter : chipInBefore)(start);
    return label ? <TagChip label={label} /> : text;
  };
  const last = parts.length - 1;
  const render = (p: DiffPart, i: number) => {
    const gap = <Whitespace text={p.gap} edge={i === 0} />;
    const trail = i === last && p.trail ? <Whitespace text={p.trail} edge /> : null;
    const key = `${i}${p.kind}`;
    const own = body(p.text, p.start, p.kind === 'added');
    if (p.kind === 'equal')
      return (
        <span key={key}>
          {gap}
          {own}
          {trail}
        </span>
      );
    if (p.kind === 'changed' && p.type === 'tag')
      return (
        <span key={key} className="tag-changed" title="another tag in this segment">
          {gap}
          {own}
          {trail}
        </span>
      );
    if (p.kind === 'changed')
      return (
        <span key={key}>
          {gap}
          <del title={`in ${names.before}`}>{own}</del>
          <ins title={`in ${names.after}`}>{body(p.now!, p.nowStart!, true)}</ins>
          {trail}
        </span>
      );
    return (
      <span key={key}>
        {gap}
        {p.kind === 'removed' ? (
          <del title={`only in ${names.before}`}>{own}</del>
        ) : (
          <ins title={`only in ${names.after}`}>{own}</ins>
        )}
        {trail}
      </span>
    );
  };
  return <span className="diff">{parts.map(render)}</span>;
}
