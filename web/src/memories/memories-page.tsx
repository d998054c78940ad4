// The memories: each with its language pair, size and last import, and `New memory`. A memory's name opens its
// page (browse, import, export, try a query, rename, delete).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { api, errorText } from '../api/client.ts';
import { languagesKey } from '../api/keys/languages.ts';
import { memoriesKey } from '../api/keys/memories.ts';
import { FormActions } from '../ui/form-actions.tsx';
import { formatDate, pair } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { MultipleTranslationsField } from './memory-settings.tsx';

function NewMemoryDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const languages = useQuery({
    queryKey: languagesKey,
    queryFn: api.languages,
    enabled: open,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: api.createMemory,
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: memoriesKey });
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  const names = Object.entries(languages.data?.code_to_name ?? {}).sort((a, b) => a[1].localeCompare(b[1]));
  const options = names.map(([code, name]) => (
    <option key={code} value={code}>
      {name} ({code})
    </option>
  ));
  return (
    <ModalDialog title="New memory" open={open} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          create.mutate({
            name: String(form.get('name')).trim(),
            srclang: String(form.get('srclang')),
            trglang: String(form.get('trglang')),
            multiple_translations: form.get('multiple_translations') === 'on',
          });
        }}
      >
        <label className="field">
          <span>Name</span>
          <input name="name" required maxLength={500} autoFocus />
        </label>
        {/* The languages' defaults apply once their options are there: the selects (only they, so that a
            name typed meanwhile stays) are made again when the languages arrive. */}
        <div className="field-row" key={languages.data ? 'ready' : 'loading'}>
          <label className="field">
            <span>Source language</span>
            <select name="srclang" required defaultValue="en">
              {options}
            </select>
          </label>
          <label className="field">
            <span>Target language</span>
            <select name="trglang" required defaultValue="de">
              {options}
            </select>
          </label>
        </div>
        <MultipleTranslationsField defaultChecked={false} />
        <FormActions
          error={error}
          onCancel={onClose}
          submit="Create memory"
          busy={create.isPending || !languages.data}
        />
      </form>
    </ModalDialog>
  );
}

export function MemoriesPage() {
  const memories = useQuery({ queryKey: memoriesKey, queryFn: api.memories });
  const [creating, setCreating] = useState(false);
  return (
    <main className="page">
      <div className="page-head">
        <h1>Memories</h1>
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          New memory
        </button>
      </div>
      {memories.error && <p className="form-error">{memories.error.message}</p>}
      {memories.data?.length === 0 && (
        <div className="empty">
          <p>
            No memories yet. Create one, then import a TMX file into it, or confirm segments in the editor.
          </p>
        </div>
      )}
      {memories.data && memories.data.length > 0 && (
        <table className="table" aria-label="Memories">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Languages</th>
              <th scope="col" className="num">
                Entries
              </th>
              <th scope="col">Last import</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {memories.data.map((m) => (
              <tr key={m.id}>
                <td className="strong">
                  <Link href={`/memories/${m.id}`} className="strong-link">
                    {m.name}
                  </Link>
                  {m.is_processing && <span className="state-badge busy">Importing…</span>}
                </td>
                <td className="mono">{pair(m.srclang, m.trglang)}</td>
                <td className="num">{m.num_segments.toLocaleString()}</td>
                <td className="muted">
                  {m.last_import?.state === 'failed'
                    ? 'Failed'
                    : (m.resources?.[m.resources.length - 1] ?? '—')}
                </td>
                <td>{formatDate(m.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NewMemoryDialog open={creating} onClose={() => setCreating(false)} />
    </main>
  );
}
