// The Admin screen's "Machine translation" section: the organization's engines in the order they are asked
// (moved up and down, tested, enabled or not, changed, removed after a confirmation), the operator's default
// after them (read-only), the form to add one built from the fields its kind asks for, and this month's usage
// with the organization's limit. A secret field is a password input that says whether a value is stored and
// is never filled with it: the server never sends it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { mtEnginesKey } from '../api/keys/mt.ts';
import type { MtEngine, MtEngineKind, MtEngines, MtEngineTest } from '../api/types.ts';
import { FormActions } from '../ui/form-actions.tsx';
import { ModalDialog } from '../ui/modal-dialog.tsx';

const numberFormat = new Intl.NumberFormat('en');

/** The form's fields for a kind: label, the kind's own fields, the engine's monthly limit. */
function EngineFields({ kind, engine }: { kind: MtEngineKind; engine?: MtEngine }) {
  return (
    <>
      <label className="field">
        <span>Name</span>
        <input name="label" maxLength={100} defaultValue={engine?.label ?? kind.label} required />
      </label>
      {kind.fields.map((f) => {
        const stored = engine?.secrets_set.includes(f.name) ?? false;
        const helpId = `mt-field-help-${f.name}`;
        return (
          <div key={f.name}>
            <label className="field">
              <span>
                {f.label}
                {f.required && !stored ? '' : ' (optional)'}
              </span>
              <input
                name={`setting:${f.name}`}
                type={f.secret ? 'password' : 'text'}
                autoComplete="off"
                maxLength={4000}
                required={f.required && !stored}
                // A secret is never filled in: the server does not send it, and says only whether it is set.
                defaultValue={f.secret ? undefined : (engine?.settings[f.name] ?? '')}
                placeholder={f.secret ? (stored ? 'Set — leave empty to keep it' : 'Not set') : undefined}
                aria-describedby={helpId}
              />
            </label>
            <small className="muted" id={helpId}>
              {f.secret ? `${stored ? 'A value is stored; leave empty to keep it. ' : ''}${f.help}` : f.help}
            </small>
          </div>
        );
      })}
      <label className="field">
        <span>Monthly character limit (optional)</span>
        <input
          name="monthly_limit"
          type="number"
          min={0}
          step={1}
          defaultValue={engine?.monthly_limit ?? ''}
        />
      </label>
    </>
  );
}

function readForm(form: HTMLFormElement, kind: MtEngineKind, editing: boolean) {
  const data = new FormData(form);
  const settings: Record<string, string> = {};
  for (const f of kind.fields) {
    const value = String(data.get(`setting:${f.name}`) ?? '');
    // An empty secret keeps the stored one; an empty plain field clears it when editing.
    if (f.secret ? value !== '' : value !== '' || editing) settings[f.name] = value;
  }
  const limit = String(data.get('monthly_limit') ?? '').trim();
  return {
    label: String(data.get('label') ?? '').trim() || kind.label,
    settings,
    monthly_limit: limit === '' ? null : Number(limit),
  };
}

function EngineDialog({
  kinds,
  engine,
  open,
  onClose,
}: {
  kinds: MtEngineKind[];
  engine?: MtEngine;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [kindName, setKindName] = useState(kinds[0]?.kind ?? '');
  const [error, setError] = useState<string | null>(null);
  const kind = kinds.find((k) => k.kind === (engine?.kind ?? kindName));
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof readForm>) =>
      engine ? api.updateMtEngine(engine.id, body) : api.createMtEngine({ kind: kindName, ...body }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: mtEnginesKey });
      setError(null);
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <ModalDialog
      title={engine ? `Change ${engine.label}` : 'Add a machine translation engine'}
      open={open}
      onClose={onClose}
    >
      <form
        className="stack"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          if (kind) save.mutate(readForm(e.currentTarget, kind, engine !== undefined));
        }}
      >
        {!engine && (
          <label className="field">
            <span>Kind</span>
            <select value={kindName} onChange={(e) => setKindName(e.currentTarget.value)}>
              {kinds.map((k) => (
                <option key={k.kind} value={k.kind}>
                  {k.label}
                </option>
              ))}
            </select>
          </label>
        )}
        {kind && <EngineFields key={kind.kind} kind={kind} engine={engine} />}
        <FormActions
          error={error}
          onCancel={onClose}
          submit={engine ? 'Save engine' : 'Add engine'}
          busy={save.isPending}
        />
      </form>
    </ModalDialog>
  );
}

function RemoveDialog({ engine, onClose }: { engine: MtEngine | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: () => api.deleteMtEngine(engine!.id),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: mtEnginesKey });
      setError(null);
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <ModalDialog title={`Remove ${engine?.label ?? ''}?`} open={engine !== null} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          remove.mutate();
        }}
      >
        <p>Its settings and stored keys are deleted. What it was sent this month still counts.</p>
        <FormActions error={error} onCancel={onClose} submit="Remove engine" busy={remove.isPending} />
      </form>
    </ModalDialog>
  );
}

function testText(engine: MtEngine, result: MtEngineTest): string {
  if (!result.ok) return `${engine.label} failed the test: ${result.error ?? 'no answer'}`;
  const sample = result.sample;
  return sample
    ? `${engine.label} works (${result.pairs} language pairs, ${result.elapsed_ms} ms): “${sample.source}” → “${sample.translation}” (${sample.source_lang}→${sample.target_lang})`
    : `${engine.label} works`;
}

function EnginesTable({ data }: { data: MtEngines }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<MtEngine | null>(null);
  const [removing, setRemoving] = useState<MtEngine | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const done = {
    onSuccess: () => {
      setError(null);
      queryClient.invalidateQueries({ queryKey: mtEnginesKey });
    },
    onError: (err: Error) => setError(errorText(err)),
  };
  const order = useMutation({ mutationFn: api.orderMtEngines, ...done });
  const toggle = useMutation({
    mutationFn: (e: MtEngine) => api.updateMtEngine(e.id, { enabled: !e.enabled }),
    ...done,
  });
  const test = useMutation({
    mutationFn: async (e: MtEngine) => testText(e, await api.testMtEngine(e.id)),
    onMutate: (e) => setTested(`Testing ${e.label}…`),
    onSuccess: (text) => {
      setTested(text);
      queryClient.invalidateQueries({ queryKey: mtEnginesKey });
    },
    onError: (err) => setTested(errorText(err)),
  });
  const ids = data.engines.map((e) => e.id);
  const move = (index: number, by: number) => {
    const next = [...ids];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    order.mutate(next);
  };
  const busy = order.isPending || toggle.isPending;
  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {data.engines.length === 0 ? (
        <p className="muted">This organization has no engines of its own.</p>
      ) : (
        <table className="table" aria-label="Machine translation engines">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Engine</th>
              <th scope="col">Settings</th>
              <th scope="col">State</th>
              <th scope="col">This month</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.engines.map((e, i) => (
              <tr key={e.id}>
                <td>{e.position}</td>
                <td>
                  <span className="strong">{e.label}</span>
                  <br />
                  <span className="muted">{e.kind_label}</span>
                </td>
                <td>
                  {Object.entries(e.settings).map(([k, v]) => (
                    <div key={k}>
                      {k}: {v}
                    </div>
                  ))}
                  {e.secrets_set.map((k) => (
                    <div key={k}>{k}: set</div>
                  ))}
                </td>
                <td>
                  {e.enabled ? 'Enabled' : <span className="muted">Disabled</span>}
                  {e.broken && <div className="form-error">{e.broken}</div>}
                  {e.paused && <div className="muted">{e.paused}</div>}
                </td>
                <td>
                  {numberFormat.format(e.used_this_month)}
                  {e.monthly_limit !== null && ` of ${numberFormat.format(e.monthly_limit)}`} characters
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Move ${e.label} up`}
                    disabled={i === 0 || busy}
                    onClick={() => move(i, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Move ${e.label} down`}
                    disabled={i === data.engines.length - 1 || busy}
                    onClick={() => move(i, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Test ${e.label}`}
                    disabled={test.isPending}
                    onClick={() => test.mutate(e)}
                  >
                    Test
                  </button>
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Change ${e.label}`}
                    onClick={() => setEditing(e)}
                  >
                    Change
                  </button>
                  <button
                    type="button"
                    className="button small"
                    aria-label={`${e.enabled ? 'Disable' : 'Enable'} ${e.label}`}
                    disabled={busy}
                    onClick={() => toggle.mutate(e)}
                  >
                    {e.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <button
                    type="button"
                    className="button small danger"
                    aria-label={`Remove ${e.label}`}
                    onClick={() => setRemoving(e)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p role="status" aria-label="Engine test result">
        {tested}
      </p>
      {editing && <EngineDialog kinds={data.kinds} engine={editing} open onClose={() => setEditing(null)} />}
      <RemoveDialog engine={removing} onClose={() => setRemoving(null)} />
    </>
  );
}

function UsageAndLimit({ data }: { data: MtEngines }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: api.setMtLimit,
    onSuccess: () => {
      setError(null);
      queryClient.invalidateQueries({ queryKey: mtEnginesKey });
    },
    onError: (err) => setError(errorText(err)),
  });
  const { limit } = data;
  return (
    <>
      <h3 id="mt-usage-title">Usage in {limit.month}</h3>
      <p>
        {numberFormat.format(limit.used_this_month)} characters sent
        {limit.monthly_limit !== null
          ? ` of the organization's limit of ${numberFormat.format(limit.monthly_limit)}.`
          : '; no limit is set.'}
      </p>
      {data.usage.length > 0 && (
        <table className="table" aria-labelledby="mt-usage-title">
          <thead>
            <tr>
              <th scope="col">Engine</th>
              <th scope="col">Characters sent</th>
              <th scope="col">From the cache</th>
              <th scope="col">Requests</th>
            </tr>
          </thead>
          <tbody>
            {data.usage.map((u) => (
              <tr key={`${u.engine_id}:${u.engine}`}>
                <td>{u.engine_id === 0 ? `${u.engine} (server default)` : u.engine}</td>
                <td>{numberFormat.format(u.characters)}</td>
                <td>{numberFormat.format(u.cached_characters)}</td>
                <td>{numberFormat.format(u.requests)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="inline-form"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const raw = String(new FormData(e.currentTarget).get('limit') ?? '').trim();
          save.mutate(raw === '' ? null : Number(raw));
        }}
      >
        <label className="field">
          <span>Monthly character limit of the organization (empty for none)</span>
          <input
            name="limit"
            type="number"
            min={0}
            step={1}
            key={limit.monthly_limit ?? 'none'}
            defaultValue={limit.monthly_limit ?? ''}
          />
        </label>
        <button type="submit" className="button" disabled={save.isPending}>
          Save limit
        </button>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </>
  );
}

export function MachineTranslationSection() {
  const engines = useQuery({ queryKey: mtEnginesKey, queryFn: api.mtEngines });
  const [adding, setAdding] = useState(false);
  return (
    <section className="section" aria-labelledby="mt-title">
      <div className="section-head">
        <h2 id="mt-title">Machine translation</h2>
        <button type="button" className="button" disabled={!engines.data} onClick={() => setAdding(true)}>
          Add engine
        </button>
      </div>
      {engines.error && <p className="form-error">{engines.error.message}</p>}
      {engines.data && (
        <>
          <p className="muted">
            The engines are asked in this order; the first that translates the language pair answers.
          </p>
          <EnginesTable data={engines.data} />
          <p>
            After them:{' '}
            {engines.data.defaults.length === 0
              ? 'no server default engine.'
              : engines.data.defaults
                  .map((d) => `${d.label} (server default${d.paused ? `; ${d.paused}` : ''})`)
                  .join(', ')}
          </p>
          <UsageAndLimit data={engines.data} />
          {adding && <EngineDialog kinds={engines.data.kinds} open onClose={() => setAdding(false)} />}
        </>
      )}
    </section>
  );
}
