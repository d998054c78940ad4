// Administration (/admin, admins only): the organization's users (create, change role, reset the password,
// disable), every API key of the organization (create for a user, last use, revoke), and its machine
// translation engines and limit (machine-translation.tsx).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { apiKeysKey, usersKey } from '../api/keys/users.ts';
import type { Role, User } from '../api/types.ts';
import { ROLE_LABELS } from '../auth/roles.ts';
import { FormActions } from '../ui/form-actions.tsx';
import { formatDate } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { KeysTable, NewKeyDialog } from './api-keys.tsx';
import { MachineTranslationSection } from './machine-translation.tsx';

function NewUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: api.createUser,
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: usersKey });
      setError(null);
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <ModalDialog title="New user" open={open} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          const email = String(form.get('email')).trim();
          create.mutate({
            username: String(form.get('username')).trim(),
            password: String(form.get('password')),
            role: String(form.get('role')) as Role,
            email: email || undefined,
          });
        }}
      >
        <label className="field">
          <span>Username</span>
          <input name="username" required maxLength={100} autoComplete="off" autoFocus />
        </label>
        <label className="field">
          <span>E-mail (optional)</span>
          <input name="email" type="email" maxLength={320} autoComplete="off" />
        </label>
        <label className="field">
          <span>Initial password</span>
          <input name="password" type="password" required minLength={8} autoComplete="new-password" />
        </label>
        <label className="field">
          <span>Role</span>
          <select name="role" defaultValue="project_manager">
            {Object.entries(ROLE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <FormActions error={error} onCancel={onClose} submit="Create user" busy={create.isPending} />
      </form>
    </ModalDialog>
  );
}

function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const reset = useMutation({
    mutationFn: (password: string) => api.updateUser({ id: user!.id, password }),
    onSuccess: () => {
      setError(null);
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <ModalDialog
      title={`Reset the password of ${user?.username ?? ''}`}
      open={user !== null}
      onClose={onClose}
    >
      <form
        className="stack"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          reset.mutate(String(new FormData(e.currentTarget).get('password')));
        }}
      >
        <label className="field">
          <span>New password</span>
          <input
            name="password"
            type="password"
            required
            minLength={8}
            autoComplete="new-password"
            autoFocus
          />
        </label>
        <FormActions error={error} onCancel={onClose} submit="Set password" busy={reset.isPending} />
      </form>
    </ModalDialog>
  );
}

function UsersTable({ users, me }: { users: User[]; me: number }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const update = useMutation({
    mutationFn: api.updateUser,
    onSuccess: () => {
      setError(null);
      queryClient.invalidateQueries({ queryKey: usersKey });
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <table className="table" aria-label="Users">
        <thead>
          <tr>
            <th scope="col">Username</th>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Created</th>
            <th scope="col">State</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td className="strong">{u.username}</td>
              <td>{u.email ?? <span className="muted">—</span>}</td>
              <td>
                <select
                  className="inline-select"
                  aria-label={`Role of ${u.username}`}
                  value={u.role}
                  disabled={u.id === me || update.isPending}
                  onChange={(e) => update.mutate({ id: u.id, role: e.currentTarget.value as Role })}
                >
                  {Object.entries(ROLE_LABELS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </td>
              <td>{formatDate(u.created_at)}</td>
              <td>{u.disabled ? <span className="muted">Disabled</span> : 'Active'}</td>
              <td className="row-actions">
                <button
                  type="button"
                  className="button small"
                  aria-label={`Reset password of ${u.username}`}
                  onClick={() => setResetting(u)}
                >
                  Reset password
                </button>
                {u.id !== me && (
                  <button
                    type="button"
                    className={u.disabled ? 'button small' : 'button small danger'}
                    aria-label={`${u.disabled ? 'Enable' : 'Disable'} ${u.username}`}
                    disabled={update.isPending}
                    onClick={() => update.mutate({ id: u.id, disabled: !u.disabled })}
                  >
                    {u.disabled ? 'Enable' : 'Disable'}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
    </>
  );
}

export function AdminPage({ me }: { me: number }) {
  const users = useQuery({ queryKey: usersKey, queryFn: api.users });
  const keys = useQuery({ queryKey: apiKeysKey, queryFn: api.keys });
  const [creatingUser, setCreatingUser] = useState(false);
  const [creatingKey, setCreatingKey] = useState(false);
  return (
    <main className="page">
      <div className="page-head">
        <h1>Administration</h1>
      </div>
      <section className="section" aria-labelledby="users-title">
        <div className="section-head">
          <h2 id="users-title">Users</h2>
          <button type="button" className="button primary" onClick={() => setCreatingUser(true)}>
            New user
          </button>
        </div>
        {users.error && <p className="form-error">{users.error.message}</p>}
        {users.data && <UsersTable users={users.data} me={me} />}
      </section>
      <section className="section" aria-labelledby="keys-title">
        <div className="section-head">
          <h2 id="keys-title">API keys</h2>
          <button type="button" className="button" onClick={() => setCreatingKey(true)}>
            New API key
          </button>
        </div>
        {keys.error && <p className="form-error">{keys.error.message}</p>}
        {keys.data && <KeysTable keys={keys.data} canRevoke />}
      </section>
      <MachineTranslationSection />
      <NewUserDialog open={creatingUser} onClose={() => setCreatingUser(false)} />
      <NewKeyDialog open={creatingKey} users={users.data} onClose={() => setCreatingKey(false)} />
    </main>
  );
}
