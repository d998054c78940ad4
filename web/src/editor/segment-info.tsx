// What the side panel says about the segment being edited: its number and context, how pre-translation filled
// it (score, placeables repaired from the match), and the source's tags its target still lacks.

import { contextLabel } from '@server/text/context-labels.ts';
import { tagLabels } from '@server/text/tag-labels.ts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { documentKey } from '../api/keys/documents.ts';
import type { DocumentSegment } from '../api/types.ts';
import { keysText } from '../keyboard/shortcut-label.ts';
import { STATUS_NAMES } from '../ui/format.ts';
import { type ActiveText, useActiveText } from './active-text.ts';
import { filledFromContext, shownScore } from './matches/context-match.ts';
import { tagState } from './tags/missing-tags.ts';
import { placedTags } from './tags/tag-parts.ts';
import { TagChip, TaggedText } from './tags/tagged-text.tsx';

/**
 * The target's tags against the source's: missing ones, empty pairs, pairs out of order — or all placed. A code
 * element standing for one placeholder (`<ph>{{count}}</ph>`, as the JSON and YAML filters protect them) is named
 * a placeholder, as its chip reads: a translator looks for `{{count}}` among the placeholders, not the tags.
 */
function TagStatus({ source, text }: { source: string; text: ActiveText }) {
  const current = useActiveText(text);
  const all = placedTags(source).map((t) => t.part);
  if (all.length === 0) return null;
  const labels = tagLabels(all);
  const { missing, empty, disordered } = tagState(source, current);
  if (missing.length === 0 && empty.length === 0 && !disordered) {
    const placeholders = labels.filter((l) => l.placeholder).length;
    const what =
      placeholders === 0 ? 'tags' : placeholders === labels.length ? 'placeholders' : 'tags and placeholders';
    return <p className="tags-ok">All {what} placed.</p>;
  }
  const missingTags = missing.filter((tag) => !labels[tag.index].placeholder);
  const missingPlaceholders = missing.filter((tag) => labels[tag.index].placeholder);
  const hint = <span className="muted">{keysText('insertNextTag')} inserts the next</span>;
  return (
    <div className="tags-missing">
      {missingTags.length > 0 && (
        <p>
          Missing tags:{' '}
          {missingTags.map((tag) => (
            <TagChip key={tag.index} label={labels[tag.index]} focusable />
          ))}{' '}
          {hint}
        </p>
      )}
      {missingPlaceholders.length > 0 && (
        <p>
          Missing placeholders:{' '}
          {missingPlaceholders.map((tag) => (
            <TagChip key={tag.index} label={labels[tag.index]} focusable />
          ))}{' '}
          {missingTags.length === 0 && hint}
        </p>
      )}
      {empty.map((open) => (
        <p key={open}>
          Nothing between <TagChip label={labels[open]} focusable /> and its closing tag: the source encloses
          text there.
        </p>
      ))}
      {disordered && (
        <p>Tags out of order: a closing tag comes before its opening one, or two pairs cross.</p>
      )}
    </div>
  );
}

/** A tag of `raw` as its chip reads in `text` (a closing tag takes its opening partner's number there). */
function ChipIn({ text, raw }: { text: string; raw: string }) {
  const tags = placedTags(text).map((t) => t.part);
  const at = tags.findIndex((t) => t.raw === raw);
  return at < 0 ? <TaggedText text={raw} /> : <TagChip label={tagLabels(tags)[at]} />;
}

/** The segment's context in words (its format's raw value on hover): "Paragraph", "Plural form 1 (msgstr[0])". */
function ContextLine({ segment }: { segment: DocumentSegment }) {
  // The document is read already by the editor: its format, from the cache.
  const doc = useQuery({
    queryKey: documentKey(segment.document_id),
    queryFn: () => api.document(segment.document_id),
  });
  const shown = contextLabel(segment.context, doc.data?.format);
  if (!shown || !segment.context) return null;
  return (
    <p className="context" title={`Context: ${segment.context}`}>
      {shown.label}
      {shown.detail && (
        <>
          {' '}
          <code className="mono">{shown.detail}</code>
        </>
      )}
    </p>
  );
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
        <p className="muted small">
          Pre-translated from a {shownScore(segment.match_score, filledFromContext(segment))}%{' '}
          {filledFromContext(segment) ? 'context match' : 'match'}.
        </p>
      )}
      {segment.repetition && (
        <p className="muted small">
          {segment.repetition.first ? 'The first of' : 'One of'} {segment.repetition.count} segments with this
          source in the project.
        </p>
      )}
      <ContextLine segment={segment} />
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
      <TagStatus source={segment.source} text={text} />
    </section>
  );
}
