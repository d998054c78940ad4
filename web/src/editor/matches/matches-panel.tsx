// The memory's matches for the segment being translated: score, target, the word diff of the match's source
// against this source, and the chips that explain every point below 100. Alt+N (or a click) inserts match N;
// when inserting adapts the match's placeholders or numbers to this source (%1$s → %s), the match says what it
// will insert, so that the translator is not surprised by a target that differs from the memory's.
import { MIN_SCORE } from '@server/matching/score-bands.ts';
import { parseTagged } from '@server/text/inline-tags.ts';
import { placeholderCode } from '@server/text/tag-labels.ts';
import { useEffect, useRef } from 'react';
import type { MemoryMatch } from '../../api/types.ts';
import { ariaKeys, tooltip } from '../../keyboard/shortcut-label.ts';
import { formatDate, plural } from '../../ui/format.ts';
import { TaggedText } from '../tags/tagged-text.tsx';
import { isContextMatch, rankedFirstText, scoreClass, shownScore } from './context-match.ts';
import { DiffText } from './diff-text.tsx';
import { projectMatch } from './map-match-tags.ts';
import { explainScore } from './score-explanation.ts';
import { useMatches } from './use-matches.ts';
import { useMtRepairs } from './use-mt-repairs.ts';
import { useMtSuggestion } from './use-mt-suggestion.ts';

/**
 * A target as the translator reads it: its text and placeholders (protected ones by their code), each other tag
 * as one mark — a tag renumbered for this source reads the same, `{{total}}` made `{{count}}` does not.
 */
function readable(target: string): string {
  return parseTagged(target)
    .map((p) => (p.type === 'text' ? p.text : (placeholderCode(p) ?? '\u0000')))
    .join('');
}

function MatchItem({
  match,
  n,
  source,
  targetLanguage,
  onInsert,
}: {
  match: MemoryMatch;
  n: number;
  source: string;
  targetLanguage: string | undefined;
  onInsert?: () => void;
}) {
  const chips = explainScore(source, match);
  const context = isContextMatch(match);
  const score = shownScore(match.score, context);
  const why = rankedFirstText(match);
  const scoreLabel = (
    <span
      className={`score ${scoreClass(score)}`}
      title={context ? 'Context match: exact, in the same context (neighbouring segments, key)' : undefined}
    >
      {score}%
    </span>
  );
  const meta = match.metadata;
  const { target: projected, capitalised } = projectMatch(match.source, match.target, source, targetLanguage);
  const adapted = readable(projected) !== readable(match.target);
  // Only the first letter raised (src/text/initial-case.ts), or the placeholders and numbers made this source's.
  const adaptedHow =
    capitalised && readable(projected).slice(1) === readable(match.target).slice(1)
      ? 'Inserted starting with a capital, as this segment does: '
      : 'Inserted with this segment’s placeholders and numbers: ';
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
          {scoreLabel}
          {context && <span className="visually-hidden">, context match</span>}
        </button>
      ) : (
        <span className="match-insert">
          <span className="match-n">{n}</span>
          {scoreLabel}
        </span>
      )}
      <div className="match-body">
        <div className="match-target">
          <TaggedText text={match.target} focusable />
        </div>
        {adapted && (
          <div className="match-adapted">
            <span className="muted">{adaptedHow}</span>
            <TaggedText text={projected} />
          </div>
        )}
        <div className="match-source">
          {match.score >= 100 ? (
            <TaggedText text={match.source} focusable />
          ) : (
            <DiffText before={match.source} after={source} />
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
          {why && <span className="match-why">{why}</span>}
          <span className="muted">
            {meta.updated_by ?? meta.created_by ?? meta.resource_name ?? 'memory'} ·{' '}
            {formatDate(meta.updated_at)}
          </span>
        </div>
      </div>
    </li>
  );
}

/**
 * The machine translation, after the memory's matches: its engine named, inserted with its own key. Nothing
 * is shown when no engine is configured; a translation that could not be made says why in one muted line.
 */
function MtItem({
  memoryId,
  source,
  onInsert,
}: {
  memoryId: number | undefined;
  source: string;
  onInsert?: (target: string) => void;
}) {
  const mt = useMtSuggestion(memoryId, source);
  if (!mt.data?.configured) return null;
  const { target, provider, unavailable } = mt.data;
  if (target === null) {
    return <p className="muted mt-unavailable">{`No machine translation: ${unavailable}`}</p>;
  }
  return (
    <ul className="match-list mt-list" aria-label="Machine translation">
      <li className="match mt">
        {onInsert ? (
          <button
            type="button"
            className="match-insert"
            onClick={() => onInsert(target)}
            title={tooltip('insertMt')}
            aria-keyshortcuts={ariaKeys('insertMt')}
          >
            <span className="visually-hidden">Insert machine translation</span>
            <span className="match-n" aria-hidden="true">
              MT
            </span>
          </button>
        ) : (
          <span className="match-insert">
            <span className="match-n">MT</span>
          </span>
        )}
        <div className="match-body">
          <div className="match-target">
            <TaggedText text={target} focusable />
          </div>
          <div className="match-meta">
            <span className="muted">Machine translation · {provider}</span>
          </div>
        </div>
      </li>
    </ul>
  );
}

/**
 * The best fuzzy match repaired by MT: its own suggestion after the memory's matches (never in place of one),
 * labelled as repaired with the engine named, the words the engine put in marked — underlined as well as
 * coloured, and listed for screen readers — and inserted with its own key. Nothing is shown when no match
 * could be repaired with its differences anchored, nor when the repair reads exactly as a match above does once
 * inserted (its placeholders, numbers and first letter made this segment's): it would offer the same text twice.
 */
function RepairItem({
  memoryId,
  source,
  insertedMatches,
  onInsert,
}: {
  memoryId: number | undefined;
  source: string;
  /** The matches' targets as inserting them would write them. */
  insertedMatches: ReadonlySet<string>;
  onInsert?: (target: string) => void;
}) {
  const repairs = useMtRepairs(memoryId, source);
  const repair = repairs.data?.repairs[0];
  if (!repair || insertedMatches.has(repair.target)) return null;
  const marks = repair.changes.map((c): [number, number] => [c.start, c.end]);
  const changed = repair.changes.map((c) => repair.target.slice(c.start, c.end));
  const engine = repairs.data?.provider;
  return (
    <ul className="match-list repair-list" aria-label="Repaired match">
      <li className="match mt repaired">
        {onInsert ? (
          <button
            type="button"
            className="match-insert"
            onClick={() => onInsert(repair.target)}
            title={tooltip('insertRepair')}
            aria-keyshortcuts={ariaKeys('insertRepair')}
          >
            <span className="visually-hidden">{`Insert the ${repair.score}% match repaired`}</span>
            <span className="match-n" aria-hidden="true">
              {repair.score}%+
            </span>
          </button>
        ) : (
          <span className="match-insert">
            <span className="match-n">{repair.score}%+</span>
          </span>
        )}
        <div className="match-body">
          <div className="match-target repaired-target">
            <TaggedText text={repair.target} marks={marks} focusable />
          </div>
          {changed.length > 0 && <p className="visually-hidden">{`Changed words: ${changed.join(', ')}`}</p>}
          <div className="match-meta">
            <span className="muted">
              {engine ? `Repaired by MT · ${engine}` : 'Repaired'} ·{' '}
              {`${repair.patched} of ${plural(repair.differences, 'difference', 'differences')} patched`}
            </span>
          </div>
        </div>
      </li>
    </ul>
  );
}

export function MatchesPanel({
  memoryId,
  source,
  targetLanguage,
  segmentId,
  segmentNumber,
  onInsert,
  onInsertMt,
  onInsertRepair,
}: {
  memoryId: number | undefined;
  source: string | undefined;
  /** The target's language, for its letters' case (a match's first letter raised: src/text/initial-case.ts). */
  targetLanguage?: string;
  /** Puts the machine translation into the target; without it, it is shown, not inserted. */
  onInsertMt?: (target: string) => void;
  /** Puts a repaired match into the target. */
  onInsertRepair?: (target: string) => void;
  /** The document segment the source is of, for context (101 %) matches. */
  segmentId: number | undefined;
  segmentNumber: number | undefined;
  /** Without it (the memory page's "try a query"), the matches are shown, not inserted. */
  onInsert?: (match: MemoryMatch) => void;
}) {
  const matches = useMatches(memoryId, source, segmentId);
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
          ? `${plural(matches.data.length, 'match', 'matches')}${
              matches.data.length
                ? `, best ${shownScore(matches.data[0].score, isContextMatch(matches.data[0]))}%`
                : ''
            }`
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
              targetLanguage={targetLanguage}
              onInsert={onInsert && (() => onInsert(m))}
            />
          ))}
        </ol>
      ) : (
        <p className="muted">{`No match of ${MIN_SCORE}% or more in the memory.`}</p>
      )}
      {source !== undefined && source.trim() !== '' && onInsert && (
        <>
          <RepairItem
            memoryId={memoryId}
            source={source}
            insertedMatches={
              new Set(
                (matches.data ?? []).map(
                  (m) => projectMatch(m.source, m.target, source, targetLanguage).target,
                ),
              )
            }
            onInsert={onInsertRepair}
          />
          <MtItem memoryId={memoryId} source={source} onInsert={onInsertMt} />
        </>
      )}
    </section>
  );
}
