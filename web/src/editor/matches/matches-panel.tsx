// The memory's matches for the segment being translated: score, target, the word diff of the match's source
// against this source, and the chips that explain every point below 100. Alt+N (or a click) inserts match N.
import { MIN_SCORE } from '@server/matching/score-bands.ts';
import { useEffect, useRef } from 'react';
import type { MemoryMatch } from '../../api/types.ts';
import { ariaKeys, tooltip } from '../../keyboard/shortcut-label.ts';
import { formatDate } from '../../ui/format.ts';
import { placedTags, tagLabels } from '../tags/tag-parts.ts';
import { TagChip, TaggedText } from '../tags/tagged-text.tsx';
import { explainScore } from './score-explanation.ts';
import { useMatches } from './use-matches.ts';
import { wordDiff } from './word-diff.ts';

export function DiffSource({ matchSource, source }: { matchSource: string; source: string }) {
  const parts = wordDiff(matchSource, source);
  // Chips in the diff carry the labels they have in their own text.
  const labelOf = (text: string, raw: string) => {
    const tags = placedTags(text);
    const labels = tagLabels(tags.map((t) => t.part));
    return labels[tags.findIndex((t) => t.part.raw === raw)] ?? { text: '?', title: raw, role: 'alone' };
  };
  return (
    <span className="diff">
      {parts.map((p, i) => {
        const own = p.kind === 'added' ? source : matchSource;
        const body = p.type === 'tag' ? <TagChip key="tag" {...labelOf(own, p.text)} /> : p.text;
        const space = p.spaced ? ' ' : '';
        const key = `${i}${p.kind}`;
        if (p.kind === 'equal')
          return (
            <span key={key}>
              {space}
              {body}
            </span>
          );
        if (p.kind === 'changed' && p.type === 'tag') {
          return (
            <span key={key} className="tag-changed" title="another tag in this segment">
              {space}
              {body}
            </span>
          );
        }
        if (p.kind === 'changed') {
          return (
            <span key={key}>
              {space}
              <del title="in the match">{p.text}</del>
              <ins title="in this segment">{p.now}</ins>
            </span>
          );
        }
        return p.kind === 'removed' ? (
          <span key={key}>
            {space}
            <del title="only in the match">{body}</del>
          </span>
        ) : (
          <span key={key}>
            {space}
            <ins title="only in this segment">{body}</ins>
          </span>
        );
      })}
    </span>
  );
}

function MatchItem({
  match,
  n,
  source,
  onInsert,
}: {
  match: MemoryMatch;
  n: number;
  source: string;
  onInsert?: () => void;
}) {
  const chips = explainScore(source, match);
  const band = match.score === 100 ? 'exact' : match.score >= 90 ? 'high' : match.score >= 80 ? 'mid' : 'low';
  const meta = match.metadata;
  return (
    <li className="match">
      {onInsert ? (
        <button
          type="button"
          className="match-insert"
          onClick={onInsert}
          title={tooltip('insertMatch', n)}
          aria-keyshortcuts={ariaKeys('insertMatch', n)}
        >
          <span className="visually-hidden">Insert match </span>
          <span className="match-n">{n}</span>
          <span className="visually-hidden">, </span>
          <span className={`score ${band}`}>{match.score}%</span>
        </button>
      ) : (
        <span className="match-insert">
          <span className="match-n">{n}</span>
          <span className={`score ${band}`}>{match.score}%</span>
        </span>
      )}
      <div className="match-body">
        <div className="match-target">
          <TaggedText text={match.target} />
        </div>
        <div className="match-source">
          {match.score === 100 ? (
            <TaggedText text={match.source} />
          ) : (
            <DiffSource matchSource={match.source} source={source} />
          )}
        </div>
        <div className="match-meta">
          {chips.length > 0 && (
            <ul className="penalties" aria-label="Points off">
              {chips.map((c) => (
                <li key={c.kind} className={`penalty ${c.kind}`} title={c.title}>
                  {c.kind} −{c.points}
                </li>
              ))}
            </ul>
          )}
          <span className="muted">
            {meta.created_by ?? meta.resource_name ?? 'memory'} · {formatDate(meta.updated_at)}
          </span>
        </div>
      </div>
    </li>
  );
}

export function MatchesPanel({
  memoryId,
  source,
  segmentNumber,
  onInsert,
}: {
  memoryId: number | undefined;
  source: string | undefined;
  segmentNumber: number | undefined;
  /** Without it (the memory page's "try a query"), the matches are shown, not inserted. */
  onInsert?: (match: MemoryMatch) => void;
}) {
  const matches = useMatches(memoryId, source);
  // A lookup that failed (a prefetch, an earlier visit) is tried again once while its segment is shown —
  // also when the failure arrives after the segment came up (a prefetch still under way at the move).
  const { isError, isFetching, refetch } = matches;
  const retriedFor = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!isError || isFetching || retriedFor.current === source) return;
    retriedFor.current = source;
    refetch();
  }, [source, isError, isFetching, refetch]);

  // Whether the list was in the cache when this segment came up: the bench tells the two cases apart.
  const cachedAtStart = useRef<{ source?: string; cached: boolean }>({ cached: false });
  if (cachedAtStart.current.source !== source) cachedAtStart.current = { source, cached: matches.isSuccess };

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new list shown is a paint to mark
  useEffect(() => {
    if (!matches.isSuccess || segmentNumber === undefined) return;
    const { cached } = cachedAtStart.current;
    // After the frame that shows them.
    const frame = requestAnimationFrame(() =>
      setTimeout(() =>
        performance.mark('tessera:matches-painted', { detail: { segment: segmentNumber, cached } }),
      ),
    );
    return () => cancelAnimationFrame(frame);
  }, [matches.isSuccess, matches.data, segmentNumber]);

  return (
    <section className="panel matches" aria-label="Matches" aria-busy={matches.isFetching}>
      <h2 className="panel-title">
        Matches
        {matches.data && <span className="panel-count">{matches.data.length}</span>}
      </h2>
      <p className="visually-hidden" role="status">
        {matches.data
          ? `${matches.data.length} matches${matches.data.length ? `, best ${matches.data[0].score}%` : ''}`
          : ''}
      </p>
      {source === undefined ? (
        <p className="muted">{onInsert ? 'Select a segment.' : 'Type a source sentence.'}</p>
      ) : matches.isPending && matches.fetchStatus !== 'idle' ? (
        <p className="muted">Looking up the memory…</p>
      ) : matches.error ? (
        <p className="form-error">{matches.error.message}</p>
      ) : matches.data?.length ? (
        <ol className="match-list">
          {matches.data.map((m, i) => (
            <MatchItem
              key={`${m.metadata.segment_id}`}
              match={m}
              n={i + 1}
              source={source}
              onInsert={onInsert && (() => onInsert(m))}
            />
          ))}
        </ol>
      ) : (
        <p className="muted">{`No match of ${MIN_SCORE}% or more in the memory.`}</p>
      )}
    </section>
  );
}
