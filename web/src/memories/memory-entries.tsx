// A memory's entries, paged and searchable, each with Edit (a dialog) and Delete, and History (a dialog) for an
// entry a correction replaced: what it held before, who wrote it and when, and who replaced it.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { entriesKey, entriesPageKey, memoryKey } from '../api/keys/memories.ts';
import type { Memory, MemoryEntry } from '../api/types.ts';
import { TaggedText } from '../editor/tags/tagged-text.tsx';
import { FormActions } from '../ui/form-actions.tsx';
import { formatDate, formatDateTime, plural } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { Pager } from '../ui/pager.tsx';

const PAGE = 50;

/** An entry's versions, newest first (GET /v2/memories/entries/history). */
function EntryHistoryDialog({
  memory,
  entry,
  onClose,
}: {
  memory: Memory;
  entry: MemoryEntry | null;
  onClose: () => void;
}) {
  const history = useQuery({
    queryKey: [...entriesKey(memory.id), 'history', entry?.id],
    queryFn: () => api.memoryEntryHistory(memory.id, entry!.id),
    enabled: entry !== null,
  });
  return (
    <ModalDialog title="Entry history" open={entry !== null} onClose={onClose} wide>
      {history.error && <p className="form-error">{errorText(history.error)}</p>}
      {history.data && (
        <ol className="entry-history" aria-label="Versions">
          {history.data.versions.map((v) => (
            <li
              key={v.current ? 'current' : `${v.replaced_at}-${v.created_at}-${v.target}`}
              className="entry-version"
            >
              <p className="entry-version-line muted small">
                {v.current ? 'Current' : 'Earlier'} · {v.user ?? 'unknown'} · {formatDateTime(v.created_at)}
                {v.replaced_by !== null &&
                  v.replaced_at !== null &&
                  ` · replaced by ${v.replaced_by} on ${formatDateTime(v.replaced_at)}`}
              </p>
              <p className="entry-version-line entry-text" lang={memory.trglang}>
                <TaggedText text={v.target} />
              </p>
              {v.source !== history.data.versions[0].source && (
                <p className="entry-version-line entry-text muted" lang={memory.srclang}>
                  <TaggedText text={v.source} />
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}

function EditEntryDialog({
  memoryId,
  entry,
  onClose,
}: {
  memoryId: number;
  entry: MemoryEntry | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: { source: string; target: string }) =>
      api.updateMemoryEntry({ id: memoryId, segment_id: entry!.id, ...body }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: entriesKey(memoryId) });
      setError(null);
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <ModalDialog title="Edit entry" open={entry !== null} onClose={onClose} wide>
      {entry && (
        <form
          className="stack"
          onSubmit={(e: FormEvent<HTMLFormElement>) => {
            e.preventDefault();
            const form = new FormData(e.currentTarget);
            save.mutate({ source: String(form.get('source')), target: String(form.get('target')) });
          }}
        >
          <label className="field">
            <span>Source</span>
            <textarea name="source" rows={3} required defaultValue={entry.source} />
          </label>
          <label className="field">
            <span>Target</span>
            <textarea name="target" rows={3} required defaultValue={entry.target} autoFocus />
          </label>
          <FormActions error={error} onCancel={onClose} submit="Save entry" busy={save.isPending} />
        </form>
      )}
    </ModalDialog>
  );
}

export function Entries({ memory }: { memory: Memory }) {
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<MemoryEntry | null>(null);
  const [historyOf, setHistoryOf] = useState<MemoryEntry | null>(null);
  const [error, setError] = useState<string | null>(null);
  const entries = useQuery({
    queryKey: entriesPageKey(memory.id, offset, q),
    queryFn: () => api.memoryEntries({ id: memory.id, offset, limit: PAGE, q }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (entry: MemoryEntry) => api.deleteMemoryEntry(memory.id, entry.id),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: entriesKey(memory.id) });
      queryClient.invalidateQueries({ queryKey: memoryKey(memory.id) });
    },
    onError: (err) => setError(errorText(err)),
  });
  const total = entries.data?.total ?? 0;
  return (
    <section className="section" aria-labelledby="entries-title">
      <div className="section-head">
        <h2 id="entries-title">Entries</h2>
        <form
          role="search"
          className="inline-form"
          onSubmit={(e: FormEvent<HTMLFormElement>) => {
            e.preventDefault();
            setOffset(0);
            setQ(String(new FormData(e.currentTarget).get('q')).trim());
          }}
        >
          <input name="q" type="search" aria-label="Search the entries" placeholder="Search entries" />
          <button type="submit" className="button small">
            Search
          </button>
        </form>
      </div>
      {(entries.error || error) && (
        <p className="form-error" role="alert">
          {entries.error ? errorText(entries.error) : error}
        </p>
      )}
      {entries.data && entries.data.entries.length === 0 && (
        <p className="muted">{q ? `No entry holds “${q}”.` : 'No entries yet.'}</p>
      )}
      {entries.data && entries.data.entries.length > 0 && (
        <>
          <table className="table compact" aria-label="Entries" aria-busy={entries.isFetching}>
            <thead>
              <tr>
                <th scope="col">Source ({memory.srclang})</th>
                <th scope="col">Target ({memory.trglang})</th>
                <th scope="col">Changed</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.data.entries.map((e) => (
                <tr key={e.id}>
                  <td className="entry-text" lang={memory.srclang}>
                    <TaggedText text={e.source} />
                  </td>
                  <td className="entry-text" lang={memory.trglang}>
                    <TaggedText text={e.target} />
                  </td>
                  <td className="muted small">
                    {formatDate(e.updated_at)}
                    {(e.updated_by ?? e.created_by) && ` · ${e.updated_by ?? e.created_by}`}
                  </td>
                  <td className="row-actions">
                    {e.earlier_versions > 0 && (
                      <button
                        type="button"
                        className="button small"
                        aria-label={`History of entry ${e.id}: ${plural(e.earlier_versions, 'earlier version')}`}
                        onClick={() => setHistoryOf(e)}
                      >
                        History ({e.earlier_versions})
                      </button>
                    )}
                    <button
                      type="button"
                      className="button small"
                      aria-label={`Edit entry ${e.id}`}
                      onClick={() => setEditing(e)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="button small danger"
                      aria-label={`Delete entry ${e.id}`}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(e)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager label="Entry pages" offset={offset} pageSize={PAGE} total={total} onOffset={setOffset} />
        </>
      )}
      <EditEntryDialog memoryId={memory.id} entry={editing} onClose={() => setEditing(null)} />
      <EntryHistoryDialog memory={memory} entry={historyOf} onClose={() => setHistoryOf(null)} />
    </section>
  );
}
