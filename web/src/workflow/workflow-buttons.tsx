// The editor header's hand-offs: Done for whoever works in the document's stage (the server checks that every
// segment is confirmed and no QA error is left, and says what is missing), Send back for a reviewer, Reopen for a
// manager once the document is done. Nothing shows that the caller's role or stage does not allow.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { documentKey } from '../api/keys/documents.ts';
import { projectKey } from '../api/keys/projects.ts';
import { invalidateSegmentPages } from '../api/keys/segments.ts';
import type { Caller, TesseraDocument } from '../api/types.ts';
import { isManager } from '../auth/roles.ts';
import { readOnlyReason } from './read-only.ts';
import { stageLabel } from './stages.ts';

type Action = { label: string; run: () => Promise<unknown>; tone?: 'primary' | 'quiet' };

/** What the caller may do with the document in its stage. */
function actionsFor(caller: Caller, doc: TesseraDocument): Action[] {
  const manager = isManager(caller.role);
  const mine = (stage: string) =>
    manager || (doc.assignees ?? []).some((a) => a.stage === stage && a.user_id === caller.user_id);
  if (!mine(doc.stage)) return [];
  switch (doc.stage) {
    case 'translate':
      return [
        { label: 'Mark translation done', run: () => api.translationDone(doc.id, true), tone: 'primary' },
      ];
    case 'review':
      return [
        { label: 'Send back to translation', run: () => api.translationDone(doc.id, false), tone: 'quiet' },
        { label: 'Mark review done', run: () => api.reviewDone(doc.id, true), tone: 'primary' },
      ];
    case 'review2':
      return [
        { label: 'Send back to review', run: () => api.reviewDone(doc.id, false), tone: 'quiet' },
        { label: 'Mark review done', run: () => api.reviewDone(doc.id, true), tone: 'primary' },
      ];
    default:
      return manager
        ? [{ label: 'Reopen for translation', run: () => api.unlockDocument(doc.id), tone: 'quiet' }]
        : [];
  }
}

export function WorkflowButtons({ caller, doc }: { caller: Caller; doc: TesseraDocument }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const act = useMutation({
    mutationFn: (action: Action) => action.run(),
    onSuccess: () => {
      setError(null);
      queryClient.invalidateQueries({ queryKey: documentKey(doc.id) });
      queryClient.invalidateQueries({ queryKey: projectKey(doc.project_id) });
    },
    onError: (err) => setError(errorText(err)),
  });
  const actions = actionsFor(caller, doc);
  const [lockNote, setLockNote] = useState<string | null>(null);
  // A manager's locks: the context (101 %) matches pre-translation filled, or every segment unlocked again.
  const lock = useMutation({
    mutationFn: (locked: boolean) =>
      api.lockSegments(
        locked ? { document_id: doc.id, min_score: 101 } : { document_id: doc.id, locked: false },
      ),
    onSuccess: (answer) => {
      setError(null);
      const n = answer.segment_ids.length;
      const what = `${n} segment${n === 1 ? '' : 's'}`;
      setLockNote(answer.locked ? (n ? `Locked ${what}` : 'No 101 % match to lock') : `Unlocked ${what}`);
      invalidateSegmentPages(queryClient, doc.id);
    },
    onError: (err) => setError(errorText(err)),
  });
  const notMine = readOnlyReason(caller, doc, { is_reviewed: false });
  return (
    <div className="workflow-actions">
      <span className="state-badge ready" title="Where the document is in its workflow">
        Stage: {stageLabel(doc.stage)}
      </span>
      {notMine && <span className="muted">Read only: {notMine}</span>}
      {actions.map((a) => (
        <button
          key={a.label}
          type="button"
          className={`button small${a.tone === 'primary' ? ' primary' : ' quiet'}`}
          disabled={act.isPending}
          onClick={() => act.mutate(a)}
        >
          {a.label}
        </button>
      ))}
      {isManager(caller.role) && (
        <>
          <button
            type="button"
            className="button small quiet"
            disabled={lock.isPending}
            onClick={() => lock.mutate(true)}
          >
            Lock 101 % matches
          </button>
          <button
            type="button"
            className="button small quiet"
            disabled={lock.isPending}
            onClick={() => lock.mutate(false)}
          >
            Unlock all segments
          </button>
          {lockNote && (
            <span className="muted" role="status">
              {lockNote}
            </span>
          )}
        </>
      )}
      {error && (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
