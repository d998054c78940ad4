// The memories: each with its language pair and size, and `New memory`. Browsing, import and export of a
// memory come with the memory screens.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api } from '../api/client.ts';
import { formatDate, pair } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';

function NewMemoryDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const languages = useQuery({
    queryKey: ['languages'],
    queryFn: api.languages,
    enabled: open,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: api.createMemory,
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['memories'] });
      onClose();
    },
    onError: (err) => setError(err instanceof ApiError ? err.message : String(err)),
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
          });
        }}
      >
        <label className="field">
          <span>Name</span>
          <input name="name" required maxLength={500} autoFocus />
        </label>
        <div className="field-row">
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
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={create.isPending || !languages.data}>
            Create memory
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

export function MemoriesPage() {
  const memories = useQuery({ queryKey: ['memories'], queryFn: api.memories });
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
            No memories yet. Import a TMX file with `tessera memory import`, or confirm segments in the
            editor.
          </p>
        </div>
      )}
      {memories.data && memories.data.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Languages</th>
              <th scope="col" className="num">
                Entries
              </th>
              <th scope="col">Imported files</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {memories.data.map((m) => (
              <tr key={m.id}>
                <td className="strong">
                  {m.name}
                  {m.is_processing && <span className="state-badge busy">Importing…</span>}
                </td>
                <td className="mono">{pair(m.srclang, m.trglang)}</td>
                <td className="num">{m.num_segments.toLocaleString()}</td>
                <td className="muted">{m.resources.join(', ') || '—'}</td>
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
