// API keys: the table (name, owner, prefix, created, last use, revoke) and the dialog that creates one and shows
// the key once, with a copy button. Shared by the admin page (every key of the organization) and "My account".
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { apiKeysKey } from '../api/keys/users.ts';
import type { ApiKeyRow, CreatedKey, User } from '../api/types.ts';
import { FormActions } from '../ui/form-actions.tsx';
import { formatDate } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';

export function KeysTable({ keys, canRevoke }: { keys: ApiKeyRow[]; canRevoke: boolean }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const revoke = useMutation({
    mutationFn: (key: ApiKeyRow) => api.revokeKey(key.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
    onError: (err) => setError(errorText(err)),
  });
  if (keys.length === 0) return <p className="muted">No API keys yet.</p>;
  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <table className="table" aria-label="API keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">User</th>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
            {canRevoke && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id}>
              <td className="strong">{k.name}</td>
              <td>{k.username}</td>
              <td className="mono">{k.prefix}…</td>
              <td>{formatDate(k.created_at)}</td>
              <td>{k.last_used_at ? formatDate(k.last_used_at) : <span className="muted">Never</span>}</td>
              <td>{k.revoked ? <span className="muted">Revoked</span> : 'Active'}</td>
              {canRevoke && (
                <td className="row-actions">
                  {!k.revoked && (
                    <button
                      type="button"
                      className="button small danger"
                      aria-label={`Revoke key ${k.name} of ${k.username}`}
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate(k)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Creates a key (for a chosen user when `users` is given), then shows it once. */
export function NewKeyDialog({
  open,
  users,
  onClose,
}: {
  open: boolean;
  users?: User[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: api.createKey,
    onSuccess: (key) => {
      setCreated(key);
      queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
    onError: (err) => setError(errorText(err)),
  });
  const close = () => {
    setCreated(null);
    setCopied(null);
    setError(null);
    onClose();
  };
  return (
    <ModalDialog title={created ? 'API key created' : 'New API key'} open={open} onClose={close}>
      {created ? (
        <div className="stack">
          <p>Copy the key now: it is shown this once and cannot be read again.</p>
          <label className="field">
            <span>Key {created.name}</span>
            <input className="mono" readOnly value={created.key} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <p role="status" className="hint">
            {copied ?? ''}
          </p>
          <div className="dialog-actions">
            <button
              type="button"
              className="button"
              onClick={() =>
                navigator.clipboard
                  .writeText(created.key)
                  .then(() => setCopied('Copied to the clipboard.'))
                  .catch(() => setCopied('The browser refused the clipboard: select the key and copy it.'))
              }
            >
              Copy key
            </button>
            <button type="button" className="button primary" onClick={close} autoFocus>
              Done
            </button>
          </div>
        </div>
      ) : (
        <form
          className="stack"
          onSubmit={(e: FormEvent<HTMLFormElement>) => {
            e.preventDefault();
            const form = new FormData(e.currentTarget);
            const userId = Number(form.get('user_id'));
            create.mutate({
              name: String(form.get('name')).trim() || undefined,
              user_id: userId > 0 ? userId : undefined,
            });
          }}
        >
          <label className="field">
            <span>Name</span>
            <input name="name" maxLength={200} placeholder="ci-sync" autoFocus />
          </label>
          {users && (
            <label className="field">
              <span>For user</span>
              <select name="user_id">
                {users.map((u) => (
                  <option key={u.id} value={u.id}>
                    {u.username}
                  </option>
                ))}
              </select>
            </label>
          )}
          <FormActions error={error} onCancel={close} submit="Create key" busy={create.isPending} />
        </form>
      )}
    </ModalDialog>
  );
}
