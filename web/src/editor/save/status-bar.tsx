// The editor's status bar: where the saves stand (saving, pending offline, failed, in conflict) with Resolve and
// Retry, whether changes by others show live, and the main shortcuts.
import { keysText, tooltip } from '../../keyboard/shortcut-label.ts';
import type { SaveSummary } from './segment-saves.ts';

function saveText(summary: SaveSummary): string {
  if (summary.conflicts.length > 0) return `${summary.conflicts.length} in conflict`;
  if (summary.failed.length > 0) return `${summary.failed.length} not saved: ${summary.failed[0].error}`;
  if (summary.pending > 0) return `${summary.pending} pending (offline)`;
  if (summary.saving > 0) return `Saving ${summary.saving}…`;
  return 'All changes saved';
}

export function StatusBar({
  summary,
  onResolve,
  onRetry,
  liveNote,
  live,
  online,
  reviewMode = false,
  readOnly = false,
}: {
  summary: SaveSummary;
  onResolve: () => void;
  onRetry: () => void;
  /** Another person's change, announced to screen readers. */
  liveNote: string;
  /** Whether the event stream is open. */
  live: boolean;
  online: boolean;
  /** Review mode: the first hint is Ctrl+Enter's review. */
  reviewMode?: boolean;
  /** The active target cannot be changed (another stage's, locked, signed off): no confirmation to offer. */
  readOnly?: boolean;
}) {
  const main = reviewMode ? 'reviewAndNext' : 'confirmAndNext';
  return (
    <footer className="status-bar">
      <span
        role="status"
        className={
          summary.failed.length || summary.conflicts.length || summary.pending
            ? 'save-summary failed'
            : 'save-summary'
        }
      >
        {saveText(summary)}
      </span>
      {summary.conflicts.length > 0 && (
        <button type="button" className="button small" onClick={onResolve}>
          Resolve
        </button>
      )}
      {summary.failed.length > 0 && (
        <button type="button" className="button small" onClick={onRetry}>
          Retry
        </button>
      )}
      <span className="visually-hidden" role="status">
        {liveNote}
      </span>
      {online ? (
        <span className="live-state muted" title="Changes by others show as they are made">
          {live ? 'Live' : ''}
        </span>
      ) : (
        <span className="offline-note">
          Offline: edits are kept here and sent when the connection is back
        </span>
      )}
      <span className="spacer" />
      <span className="muted key-hints">
        {!readOnly && (
          <>
            {tooltip(main).replace(/ \(.*/, '')}: <kbd>{keysText(main)}</kbd> ·{' '}
          </>
        )}
        Next: <kbd>{keysText('nextSegment')}</kbd> · Matches: <kbd>{keysText('insertMatch')}</kbd>
        {' · MT: '}
        <kbd>{keysText('insertMt')}</kbd>
        {' · All shortcuts: '}
        <kbd>{keysText('help')}</kbd>
      </span>
    </footer>
  );
}
