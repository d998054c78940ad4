// My account (/account, everyone): change one's password, and one's own API keys (create, last use, revoke).
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { KeysTable, NewKeyDialog } from '../admin/api-keys.tsx';
import { api, errorText } from '../api/client.ts';
import { apiKeysKey } from '../api/keys/users.ts';
import type { Caller } from '../api/types.ts';
import { roleLabel } from '../auth/role-names.ts';

export function AccountPage({ caller }: { caller: Caller }) {
  const keys = useQuery({ queryKey: apiKeysKey, queryFn: api.keys, retry: false });
  const [creatingKey, setCreatingKey] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const change = useMutation({
    mutationFn: api.changePassword,
    onSuccess: () => {
      form.current?.reset();
      setMessage({ ok: true, text: 'Password changed.' });
    },
    onError: (err) => setMessage({ ok: false, text: errorText(err) }),
  });
  const own = keys.data?.filter((k) => k.username === caller.username);
  return (
    <main className="page narrow">
      <div className="page-head">
        <h1>My account</h1>
        <span className="muted">
          {caller.username} · {roleLabel(caller.role)}
        </span>
      </div>
      <section className="section" aria-labelledby="password-title">
        <h2 id="password-title">Change password</h2>
        <form
          ref={form}
          className="stack form-narrow"
          onSubmit={(e: FormEvent<HTMLFormElement>) => {
            e.preventDefault();
            const data = new FormData(e.currentTarget);
            const next = String(data.get('new_password'));
            if (next !== String(data.get('repeat'))) {
              setMessage({ ok: false, text: 'The two new passwords differ.' });
              return;
            }
            change.mutate({ current_password: String(data.get('current_password')), new_password: next });
          }}
        >
          <label className="field">
            <span>Current password</span>
            <input name="current_password" type="password" required autoComplete="current-password" />
          </label>
          <label className="field">
            <span>New password</span>
            <input name="new_password" type="password" required minLength={8} autoComplete="new-password" />
          </label>
          <label className="field">
            <span>Repeat the new password</span>
            <input name="repeat" type="password" required minLength={8} autoComplete="new-password" />
          </label>
          <div>
            <button type="submit" className="button primary" disabled={change.isPending}>
              Change password
            </button>
          </div>
          <p role="status" className={message && !message.ok ? 'form-error' : 'hint'}>
            {message?.text ?? ''}
          </p>
        </form>
      </section>
      <section className="section" aria-labelledby="own-keys-title">
        <div className="section-head">
          <h2 id="own-keys-title">My API keys</h2>
          <button type="button" className="button" onClick={() => setCreatingKey(true)}>
            New API key
          </button>
        </div>
        {own ? (
          <KeysTable keys={own} canRevoke />
        ) : keys.error ? (
          <p className="form-error">{keys.error.message}</p>
        ) : null}
      </section>
      <NewKeyDialog open={creatingKey} onClose={() => setCreatingKey(false)} />
    </main>
  );
}
