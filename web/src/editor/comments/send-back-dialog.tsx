// Send back (Alt+Shift+R): the active segment goes back to its translator, unconfirmed, with a comment saying
// why — one request (POST /v2/segments/reject), so that neither happens without the other.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, errorText } from '../../api/client.ts';
import { invalidateComments } from '../../api/keys/comments.ts';
import type { DocumentSegment } from '../../api/types.ts';
import { ModalDialog } from '../../ui/modal-dialog.tsx';

export function SendBackDialog({
  open,
  segment,
  onSent,
  onClose,
}: {
  open: boolean;
  segment: DocumentSegment | undefined;
  /** The segment as the server left it. */
  onSent: (segment: DocumentSegment) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (text: string) =>
      api.rejectSegment({ id: segment!.id, text, expected_updated_at: segment!.updated_at }),
    onSuccess: (answer) => {
      setError(null);
      invalidateComments(queryClient, answer.segment.document_id);
      onSent(answer.segment);
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  const number = segment ? segment.position + 1 : '';
  return (
    <ModalDialog
      title={`Send segment ${number} back`}
      open={open}
      onClose={() => {
        setError(null);
        onClose();
      }}
    >
      <form
        className="stack"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const text = String(new FormData(e.currentTarget).get('text') ?? '').trim();
          if (text && segment) send.mutate(text);
        }}
      >
        <p className="muted">
          The segment becomes unconfirmed again, its translation kept, and your comment is added to it.
          Whoever confirmed it is notified.
        </p>
        <label className="field">
          <span>What needs changing</span>
          <textarea name="text" rows={3} maxLength={5000} required autoFocus />
        </label>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={send.isPending || !segment}>
            Send back
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
