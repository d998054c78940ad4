// Sign-in: username and password, or an API key. The server answers with an HttpOnly session cookie; nothing
// of a credential is kept by the page (no storage, no URL).
import { type FormEvent, useState } from 'react';
import { ApiError, api } from '../api/client.ts';
import type { Caller } from '../api/types.ts';

function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'BAD_CREDENTIALS' || error.status === 401)
      return 'Wrong username or password, or an unknown API key.';
    if (error.status === 429) {
      return `Too many failed sign-ins: try again in ${error.retryAfter ?? 60} seconds.`;
    }
    if (error.status === 0) return error.message;
    return error.message;
  }
  return 'The server could not be reached. Check that Tessera is running.';
}

export function SignInPage({ onSignedIn }: { onSignedIn: (caller: Caller) => void }) {
  const [withKey, setWithKey] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const credentials = withKey
      ? { key: String(form.get('key')).trim() }
      : { username: String(form.get('username')).trim(), password: String(form.get('password')) };
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api.signIn(credentials));
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  }

  return (
    <main className="sign-in">
      <form className="sign-in-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <div className="brand large">
          <span className="brand-mark" aria-hidden="true" />
          Tessera
        </div>
        <h1 id="sign-in-title">Sign in</h1>
        {withKey ? (
          <label className="field">
            <span>API key</span>
            <input name="key" type="password" autoComplete="off" required autoFocus spellCheck={false} />
          </label>
        ) : (
          <>
            <label className="field">
              <span>Username</span>
              <input name="username" autoComplete="username" required autoFocus spellCheck={false} />
            </label>
            <label className="field">
              <span>Password</span>
              <input name="password" type="password" autoComplete="current-password" required />
            </label>
          </>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button primary wide" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setWithKey(!withKey);
            setError(null);
          }}
        >
          {withKey ? 'Sign in with a username and password' : 'Sign in with an API key'}
        </button>
      </form>
    </main>
  );
}
