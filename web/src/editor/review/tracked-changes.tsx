// Tracked changes in review mode: a target against the translator's version (its newest confirmed version) —
// what the reviewer struck out, what they put in — drawn as the word diff of the matches and the history.
import type { ActiveText } from '../active-text.ts';
import { useActiveText } from '../active-text.ts';
import { DiffText } from '../matches/diff-text.tsx';
import { TaggedText } from '../tags/tagged-text.tsx';
import type { Baseline } from './review-mode.ts';

const NAMES = { before: 'the translator’s version', after: 'the reviewed version' };

/** A row's target in review mode: tracked changes where it differs from the translator's version. */
export function TrackedTarget({ text, baseline }: { text: string; baseline: Baseline | undefined }) {
  if (!baseline || baseline.target === null || baseline.target === text) return <TaggedText text={text} />;
  return (
    <span className="tracked-changes">
      <DiffText before={baseline.target} after={text} names={NAMES} />
    </span>
  );
}

/** Under the active target's editor: the changes made so far to the translator's version, as they are typed. */
export function ActiveTrackedChanges({
  text,
  baseline,
}: {
  text: ActiveText;
  baseline: Baseline | undefined;
}) {
  const now = useActiveText(text);
  if (!baseline || baseline.target === null) {
    return (
      <p className="tracked-active muted small" role="note">
        No translator’s version: this segment was never confirmed.
      </p>
    );
  }
  const by = baseline.user ? ` by ${baseline.user}` : '';
  return (
    <section className="tracked-active" aria-label="Changes to the translator’s version">
      {baseline.target === now ? (
        <p className="muted small">Unchanged from the translator’s version{by}.</p>
      ) : (
        <>
          <p className="muted small">Changes to the translator’s version{by}:</p>
          <div className="tracked-changes">
            <DiffText before={baseline.target} after={now} names={NAMES} />
          </div>
        </>
      )}
    </section>
  );
}
