// Someone else changed a segment while this editor's edit of it was on its way (409 SEGMENT_CONFLICT): both
// versions side by side, the differences marked, and a choice — keep mine (sent over theirs) or take theirs.
import { useEffect, useState } from 'react';
import type { DocumentSegment } from '../../api/types.ts';
import { STATUS_NAMES } from '../../ui/format.ts';
import { ModalDialog } from '../../ui/modal-dialog.tsx';
import { DiffText } from '../matches/diff-text.tsx';
import { TaggedText } from '../tags/tagged-text.tsx';
import type { SaveEntry } from './segment-saves.ts';

export function ConflictDialog({
  entry,
  number,
  onResolve,
  reopen,
  onClosed,
}: {
  entry: SaveEntry | undefined;
  /** The segment's number, when known. */
  number: number | undefined;
  onResolve: (keep: 'mine' | 'theirs', current: DocumentSegment) => void;
  /** Changed by the status bar's "Resolve": shows the choice again after Esc put it off. */
  reopen: number;
  /** The dialog closed, chosen or put off: the focus goes back to the editor. */
  onClosed: () => void;
}) {
  // Esc puts the choice off; the status bar's "Resolve" brings it back.
  const [putOff, setPutOff] = useState<SaveEntry | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each request to reopen
  useEffect(() => setPutOff(null), [reopen]);
  const current = entry?.current;
  const title = `Conflict in segment ${number ?? entry?.request.id ?? ''}`;
  return (
    <ModalDialog
      title={title}
      open={entry !== undefined && current !== undefined && putOff !== entry}
      onClose={() => {
        setPutOff(entry ?? null);
        onClosed();
      }}
      wide
    >
      {entry && current && (
        <div className="stack">
          <p>Someone else changed this segment while your edit was on its way. Choose the version to keep.</p>
          <div className="conflict-sides">
            <section className="conflict-side" aria-labelledby="conflict-mine">
              <h3 id="conflict-mine">Your version</h3>
              <div className="conflict-text" lang={current.trglang}>
                <TaggedText text={entry.request.target} />
              </div>
            </section>
            <section className="conflict-side" aria-labelledby="conflict-theirs">
              <h3 id="conflict-theirs">
                Current version{' '}
                <span className={`status-badge ${current.status}`}>{STATUS_NAMES[current.status]}</span>
              </h3>
              <div className="conflict-text" lang={current.trglang}>
                <DiffText before={entry.request.target} after={current.target ?? ''} />
              </div>
            </section>
          </div>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => onResolve('theirs', current)}>
              Take theirs
            </button>
            <button
              type="button"
              className="button primary"
              onClick={() => onResolve('mine', current)}
              autoFocus
            >
              Keep mine
            </button>
          </div>
        </div>
      )}
    </ModalDialog>
  );
}
