// One memory (/memories/:id): its entries paged and searchable (edit, delete), import of a TMX / .tmx.gz / XLIFF
// / TSV file with the job's progress and its result or error, export as TMX, a "try a query" box that shows the
// matches exactly as the editor does, rename, and delete with what it would take with it.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, errorText } from '../api/client.ts';
import {
  entriesKey,
  entriesPageKey,
  invalidateMemory,
  memoriesKey,
  memoryKey,
} from '../api/keys/memories.ts';
import { projectsKey } from '../api/keys/projects.ts';
import { taskKey } from '../api/keys/tasks.ts';
import type { Memory, MemoryEntry, Task } from '../api/types.ts';
import { MatchesPanel } from '../editor/matches/matches-panel.tsx';
import { TaggedText } from '../editor/tags/tagged-text.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { FormActions } from '../ui/form-actions.tsx';
import { formatDate, pair } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { ProgressBar } from '../ui/progress-bar.tsx';

const PAGE = 50;

function RenameDialog({ memory, open, onClose }: { memory: Memory; open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const rename = useMutation({
    mutationFn: (name: string) => api.renameMemory(memory.id, name),
    onSuccess: () => {
      invalidateMemory(queryClient, memory.id);
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <ModalDialog title="Rename memory" open={open} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          rename.mutate(String(new FormData(e.currentTarget).get('name')).trim());
        }}
      >
        <label className="field">
          <span>Name</span>
          <input name="name" required maxLength={500} defaultValue={memory.name} autoFocus />
        </label>
        <FormActions error={error} onCancel={onClose} submit="Rename" busy={rename.isPending} />
      </form>
    </ModalDialog>
  );
}

function DeleteDialog({ memory, open, onClose }: { memory: Memory; open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const projects = useQuery({ queryKey: projectsKey, queryFn: api.projects, enabled: open });
  const using = projects.data?.filter((p) => p.memory_id === memory.id) ?? [];
  return (
    <ConfirmDialog
      title={`Delete ${memory.name}?`}
      open={open}
      onClose={onClose}
      confirm="Delete memory"
      action={() => api.deleteMemory(memory.id)}
      onDone={() => {
        queryClient.invalidateQueries({ queryKey: memoriesKey });
        queryClient.invalidateQueries({ queryKey: projectsKey });
        onClose();
        navigate('/memories');
      }}
      blocked={projects.isPending || using.length > 0}
    >
      <p>
        This deletes the memory and its {memory.num_segments.toLocaleString()}{' '}
        {memory.num_segments === 1 ? 'entry' : 'entries'}. It cannot be undone.
      </p>
      {using.length > 0 && (
        <p className="form-error">
          {using.length === 1 ? 'One project uses' : `${using.length} projects use`} it:{' '}
          {using.map((p) => p.name).join(', ')}. The server keeps a memory that a project uses: delete
          {using.length === 1 ? ' that project' : ' those projects'} first.
        </p>
      )}
    </ConfirmDialog>
  );
}

/** The result of an import task in words. */
function importOutcome(task: Task): string {
  if (task.state === 'failed') return `Import failed: ${task.error ?? task.error_code ?? 'unknown error'}`;
  const r = (task.result ?? {}) as { imported?: number; skipped?: number; duplicates?: number };
  return `Imported ${(r.imported ?? 0).toLocaleString()}, skipped ${(r.skipped ?? 0).toLocaleString()}, duplicates ${(r.duplicates ?? 0).toLocaleString()}.`;
}

function ImportBox({ memory }: { memory: Memory }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<string | null>(null);
  const [taskId, setTaskId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const task = useQuery({
    queryKey: taskKey(taskId),
    queryFn: () => api.task(taskId!),
    enabled: taskId !== null,
    refetchInterval: (q) =>
      q.state.data && ['succeeded', 'failed'].includes(q.state.data.state) ? false : 300,
  });
  const finished = task.data && ['succeeded', 'failed'].includes(task.data.state);
  useEffect(() => {
    if (finished) {
      invalidateMemory(queryClient, memory.id);
      queryClient.invalidateQueries({ queryKey: entriesKey(memory.id) });
    }
  }, [finished, queryClient, memory.id]);
  const start = useMutation({
    mutationFn: (f: File) => api.importMemory(memory.id, f),
    onSuccess: (started) => setTaskId(started.task_id ?? started.job_id),
    onError: (err) => setError(errorText(err)),
  });
  return (
    <section className="section" aria-labelledby="import-title">
      <div className="section-head">
        <h2 id="import-title">Import</h2>
      </div>
      <label className="button file-button">
        Import file…
        <input
          ref={input}
          type="file"
          className="visually-hidden"
          aria-label="Import a file into the memory"
          accept=".tmx,.gz,.xlf,.xliff,.tsv"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (!f) return;
            setFile(f.name);
            setError(null);
            setTaskId(null);
            start.mutate(f);
            e.currentTarget.value = '';
          }}
        />
      </label>
      <span className="hint"> TMX, .tmx.gz, XLIFF or TSV</span>
      {file && (
        <div className="import-status">
          <p className="result-line">
            <span className="strong">{file}</span>
            {start.isPending && ' — uploading…'}
            {task.data && !finished && ` — ${task.data.state}…`}
          </p>
          {task.data && !finished && (
            <ProgressBar
              done={task.data.progress.done}
              total={task.data.progress.total}
              label={`Import of ${file}`}
            />
          )}
          {finished && (
            <p
              className={task.data!.state === 'failed' ? 'form-error' : 'result-line'}
              role={task.data!.state === 'failed' ? 'alert' : 'status'}
            >
              {importOutcome(task.data!)}
            </p>
          )}
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
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

function Entries({ memory }: { memory: Memory }) {
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<MemoryEntry | null>(null);
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
          <nav className="pager" aria-label="Entry pages">
            <button
              type="button"
              className="button small"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - PAGE))}
            >
              Previous page
            </button>
            <span className="muted">
              {(offset + 1).toLocaleString()}–{Math.min(offset + PAGE, total).toLocaleString()} of{' '}
              {total.toLocaleString()}
            </span>
            <button
              type="button"
              className="button small"
              disabled={offset + PAGE >= total}
              onClick={() => setOffset(offset + PAGE)}
            >
              Next page
            </button>
          </nav>
        </>
      )}
      <EditEntryDialog memoryId={memory.id} entry={editing} onClose={() => setEditing(null)} />
    </section>
  );
}

function TryQuery({ memory }: { memory: Memory }) {
  const [source, setSource] = useState<string | undefined>(undefined);
  return (
    <section className="section try-query" aria-labelledby="try-title">
      <h2 id="try-title">Try a query</h2>
      <form
        className="inline-form"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const text = String(new FormData(e.currentTarget).get('source')).trim();
          setSource(text || undefined);
        }}
      >
        <input
          name="source"
          className="grow"
          aria-label={`Source sentence (${memory.srclang})`}
          placeholder="A source sentence"
          lang={memory.srclang}
        />
        <button type="submit" className="button small">
          Look up
        </button>
      </form>
      <div className="side inline-side">
        <MatchesPanel memoryId={memory.id} source={source} segmentNumber={undefined} />
      </div>
    </section>
  );
}

export function MemoryPage({ id }: { id: number }) {
  const memory = useQuery({ queryKey: memoryKey(id), queryFn: () => api.memory(id) });
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [exportNote, setExportNote] = useState<string | null>(null);
  const m = memory.data;
  if (memory.error)
    return (
      <main className="page">
        <p className="form-error">{errorText(memory.error)}</p>
      </main>
    );
  if (!m) return <main className="page loading">Loading…</main>;
  return (
    <main className="page">
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link href="/memories">Memories</Link>
        <span aria-hidden="true">/</span>
      </nav>
      <div className="page-head">
        <div>
          <h1>{m.name}</h1>
          <p className="subtitle">
            <span className="mono">{pair(m.srclang, m.trglang)}</span>
            <span>{m.num_segments.toLocaleString()} entries</span>
            <span>Updated {formatDate(m.updated_at)}</span>
            {m.is_processing && <span className="state-badge busy">Importing…</span>}
          </p>
        </div>
        <div className="head-actions">
          <button
            type="button"
            className="button"
            onClick={() =>
              api
                .exportMemory(m.id, `${m.name}.tmx`)
                .then((name) => setExportNote(`Exported ${name}.`))
                .catch((err) => setExportNote(errorText(err)))
            }
          >
            Export TMX
          </button>
          <button type="button" className="button" onClick={() => setRenaming(true)}>
            Rename
          </button>
          <button type="button" className="button danger" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </div>
      </div>
      <p role="status" className="hint">
        {exportNote ?? ''}
      </p>
      <div className="memory-columns">
        <div>
          <Entries memory={m} />
        </div>
        <div>
          <ImportBox memory={m} />
          <TryQuery memory={m} />
        </div>
      </div>
      <RenameDialog memory={m} open={renaming} onClose={() => setRenaming(false)} />
      <DeleteDialog memory={m} open={deleting} onClose={() => setDeleting(false)} />
    </main>
  );
}
