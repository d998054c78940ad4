// The one confirmation before something that cannot be undone (deleting a document, a memory…): what it would
// take with it, the server's refusal if any, Cancel (focused, so that Enter does no harm) and the danger button,
// disabled while the request runs or while `blocked` says it cannot be done yet.
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { errorText } from '../api/client.ts';
import { ModalDialog } from './modal-dialog.tsx';

export function ConfirmDialog({
  title,
  open,
  onClose,
  confirm,
  action,
  onDone,
  blocked = false,
  children,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  /** The danger button's label ("Delete memory"). */
  confirm: string;
  /** The request the confirmation sends. */
  action: () => Promise<unknown>;
  /** After the server did it. */
  onDone: () => void;
  blocked?: boolean;
  children: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: action,
    onSuccess: onDone,
    onError: (err) => setError(errorText(err)),
  });
  return (
    <ModalDialog title={title} open={open} onClose={onClose}>
      <div className="stack">
        {children}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose} autoFocus>
            Cancel
          </button>
          <button
            type="button"
            className="button danger-solid"
            disabled={run.isPending || blocked}
            onClick={() => run.mutate()}
          >
            {confirm}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}
