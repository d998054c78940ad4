// One memory (/memories/:id): its entries paged and searchable (edit, delete), import of a TMX / .tmx.gz / XLIFF
// / TSV file with the job's progress and its result or error, export as TMX, a "try a query" box that shows the
// matches exactly as the editor does, settings (name; one or several translations per source), and delete with what
// it would take with it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, errorText } from '../api/client.ts';
import { invalidateMemory, memoriesKey, memoryKey } from '../api/keys/memories.ts';
import { projectsKey } from '../api/keys/projects.ts';
import type { Memory } from '../api/types.ts';
import { MatchesPanel } from '../editor/matches/matches-panel.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { FormActions } from '../ui/form-actions.tsx';
import { formatDate, pair, plural } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { Entries } from './memory-entries.tsx';
import { ImportBox } from './memory-import.tsx';
import { MultipleTranslationsField } from './memory-settings.tsx';
import { Terms } from './memory-terms.tsx';

/** The memory's name and its setting of one or several translations per source. */
function SettingsDialog({ memory, open, onClose }: { memory: Memory; open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: { name: string; multiple_translations: boolean }) => api.updateMemory(memory.id, body),
    onSuccess: () => {
      invalidateMemory(queryClient, memory.id);
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <ModalDialog title="Memory settings" open={open} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          save.mutate({
            name: String(form.get('name')).trim(),
            multiple_translations: form.get('multiple_translations') === 'on',
          });
        }}
      >
        <label className="field">
          <span>Name</span>
          <input name="name" required maxLength={500} defaultValue={memory.name} autoFocus />
        </label>
        <MultipleTranslationsField defaultChecked={memory.multiple_translations} />
        <FormActions error={error} onCancel={onClose} submit="Save settings" busy={save.isPending} />
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
        <MatchesPanel
          memoryId={memory.id}
          source={source}
          targetLanguage={memory.trglang}
          segmentId={undefined}
          segmentNumber={undefined}
        />
      </div>
    </section>
  );
}

export function MemoryPage({ id }: { id: number }) {
  const memory = useQuery({ queryKey: memoryKey(id), queryFn: () => api.memory(id) });
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [exportNote, setExportNote] = useState<string | null>(null);
  const [tab, setTab] = useState<'entries' | 'terms'>('entries');
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
            <span>{plural(m.num_segments, 'entry', 'entries')}</span>
            <span>
              {m.multiple_translations ? 'Several translations per source' : 'One translation per source'}
            </span>
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
            Settings
          </button>
          <button type="button" className="button danger" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </div>
      </div>
      <p role="status" className="hint">
        {exportNote ?? ''}
      </p>
      <div className="tabs" role="tablist" aria-label="Memory contents">
        <button type="button" role="tab" aria-selected={tab === 'entries'} onClick={() => setTab('entries')}>
          Entries
        </button>
        <button type="button" role="tab" aria-selected={tab === 'terms'} onClick={() => setTab('terms')}>
          Terms
        </button>
      </div>
      <div className="memory-columns">
        <div role="tabpanel">{tab === 'entries' ? <Entries memory={m} /> : <Terms memory={m} />}</div>
        <div>
          <ImportBox memory={m} />
          <TryQuery memory={m} />
        </div>
      </div>
      <SettingsDialog memory={m} open={renaming} onClose={() => setRenaming(false)} />
      <DeleteDialog memory={m} open={deleting} onClose={() => setDeleting(false)} />
    </main>
  );
}
