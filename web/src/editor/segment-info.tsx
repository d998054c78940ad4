// What the side panel says about the segment being edited: its number and context, how pre-translation filled
// it (score, placeables repaired from the match), and the source's tags its target still lacks.
import type { DocumentSegment } from '../api/types.ts';
import { keysText } from '../keyboard/shortcut-label.ts';
import { STATUS_NAMES } from '../ui/format.ts';
import { type ActiveText, useActiveText } from './active-text.ts';
import { missingTags } from './tags/missing-tags.ts';
import { placedTags, tagLabels } from './tags/tag-parts.ts';
import { TagChip, TaggedText } from './tags/tagged-text.tsx';

function MissingTags({ source, text }: { source: string; text: ActiveText }) {
  const current = useActiveText(text);
  const missing = missingTags(source, current);
  if (placedTags(source).length === 0) return null;
  if (missing.length === 0) return <p className="tags-ok">All tags placed.</p>;
  const all = placedTags(source).map((t) => t.part);
  const labels = tagLabels(all);
  return (
    <p className="tags-missing">
      Missing tags:{' '}
      {missing.map((tag) => (
        <TagChip key={tag.raw} {...labels[all.findIndex((t) => t.raw === tag.raw)]} />
      ))}{' '}
      <span className="muted">{keysText('insertNextTag')} inserts the next</span>
    </p>
  );
}

/** A tag of `raw` as its chip reads in `text` (a closing tag takes its opening partner's number there). */
function ChipIn({ text, raw }: { text: string; raw: string }) {
  const tags = placedTags(text).map((t) => t.part);
  const at = tags.findIndex((t) => t.raw === raw);
  return at < 0 ? <TaggedText text={raw} /> : <TagChip {...tagLabels(tags)[at]} />;
}

export function SegmentInfo({ segment, text }: { segment: DocumentSegment | undefined; text: ActiveText }) {
  if (!segment) return null;
  return (
    <section className="panel segment-info" aria-label="Segment">
      <h2 className="panel-title">
        Segment {segment.position + 1}
        <span className={`status-badge ${segment.status}`}>{STATUS_NAMES[segment.status]}</span>
      </h2>
      {segment.match_score !== null && (
        <p className="muted small">Pre-translated from a {segment.match_score}% match.</p>
      )}
      {segment.context && <p className="context mono">{segment.context}</p>}
      {segment.repairs && segment.repairs.length > 0 && (
        <div className="repairs">
          <span className="muted">Placeables adapted from the match:</span>
          <ul>
            {segment.repairs.map((r) => (
              <li key={`${r.from}>${r.to}`}>
                <del>
                  <TaggedText text={r.from} />
                </del>{' '}
                →{' '}
                <ins>
                  {r.kind === 'tag' ? (
                    <ChipIn text={segment.source} raw={r.to} />
                  ) : (
                    <TaggedText text={r.to} />
                  )}
                </ins>{' '}
                <span className="muted">({r.kind})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <MissingTags source={segment.source} text={text} />
    </section>
  );
}
