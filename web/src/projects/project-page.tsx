// A project: its documents (format, segments, confirmed, busy state), uploads, pre-translation, exports, rename
// and delete. The page polls while any document is busy, so states and buttons follow the server's jobs.
import { MIN_SCORE } from '@server/matching/score-bands.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, errorText } from '../api/client.ts';
import { qaAsOfKey } from '../api/keys/documents.ts';
import { memoriesKey } from '../api/keys/memories.ts';
import { projectKey, projectsKey } from '../api/keys/projects.ts';
import type { ProjectState, TesseraDocument } from '../api/types.ts';
import { useLiveEvents } from '../live/use-live-events.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { formatDate, PROJECT_STATES, pair } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { busyWith } from './document-state.ts';
import { ExportButtons } from './export-buttons.tsx';
import { dropZone, UploadButton, UploadList, useUploads } from './upload-files.tsx';

function DocumentState({ doc }: { doc: TesseraDocument }) {
  const busy = busyWith(doc);
  if (busy) return <span className="state-badge busy">{busy}…</span>;
  if (!doc.import_succeeded) {
    return (
      <span className="state-badge failed" title={doc.import_error_message ?? undefined}>
        Import failed
      </span>
    );
  }
  if (doc.num_segments > 0 && doc.num_confirmed === doc.num_segments)
    return <span className="state-badge done">Done</span>;
  return <span className="state-badge ready">Ready</span>;
}

function RenameForm({ doc, onDone }: { doc: TesseraDocument; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const rename = useMutation({
    mutationFn: (name: string) => api.renameDocument(doc.id, name),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: projectKey(doc.project_id) });
      onDone();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <form
      className="inline-form"
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        rename.mutate(String(new FormData(e.currentTarget).get('name')).trim());
      }}
    >
      <input
        name="name"
        aria-label={`New name for ${doc.name}`}
        defaultValue={doc.name}
        autoFocus
        onKeyDown={(e) => e.key === 'Escape' && onDone()}
      />
      <button type="submit" className="button small primary" disabled={rename.isPending}>
        Save
      </button>
      <button type="button" className="button small quiet" onClick={onDone}>
        Cancel
      </button>
      {error && (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

/** The QA issues of a document (the server runs the editor's checks over all of it). */
function QaCell({ doc }: { doc: TesseraDocument }) {
  const qa = useQuery({
    queryKey: qaAsOfKey(doc),
    queryFn: () => api.documentQa(doc.id),
    staleTime: 30_000,
    retry: false,
  });
  if (!qa.data) return <span className="muted">—</span>;
  const { error, warning } = qa.data.counts;
  if (error + warning === 0) return <span className="muted">No issues</span>;
  return (
    <span className={error > 0 ? 'qa-count has-errors' : 'qa-count'}>
      {error} {error === 1 ? 'error' : 'errors'}, {warning} {warning === 1 ? 'warning' : 'warnings'}
    </span>
  );
}

function DocumentRow({ doc, onDelete }: { doc: TesseraDocument; onDelete: () => void }) {
  const [renaming, setRenaming] = useState(false);
  const ready = doc.import_succeeded && !doc.import_in_progress;
  return (
    <tr>
      <td className="doc-name">
        {renaming ? (
          <RenameForm doc={doc} onDone={() => setRenaming(false)} />
        ) : ready ? (
          <Link href={`/documents/${doc.id}`} className="strong-link">
            {doc.name}
          </Link>
        ) : (
          <span>{doc.name}</span>
        )}
        {!doc.import_in_progress && doc.import_error_message && (
          <div className="row-error" role="alert">
            {doc.import_error_message}
          </div>
        )}
      </td>
      <td className="mono">{doc.format}</td>
      <td className="num">{doc.num_segments.toLocaleString()}</td>
      <td>
        <ProgressBar
          done={doc.num_confirmed}
          total={doc.num_segments}
          label={`${doc.name}: segments confirmed`}
        />
      </td>
      <td>{ready ? <QaCell doc={doc} /> : <span className="muted">—</span>}</td>
      <td>
        <DocumentState doc={doc} />
      </td>
      <td className="row-actions">
        <ExportButtons doc={doc} />
        <button
          type="button"
          className="button small quiet"
          onClick={() => setRenaming(true)}
          disabled={renaming}
        >
          Rename
        </button>
        <button type="button" className="button small quiet danger" onClick={onDelete}>
          Delete
        </button>
      </td>
    </tr>
  );
}

function PretranslateDialog({
  documents,
  open,
  onClose,
}: {
  documents: TesseraDocument[];
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const eligible = documents.filter((d) => d.import_succeeded && !busyWith(d));
  const start = useMutation({
    mutationFn: (v: { ids: number[]; autoAccept: boolean }) => api.pretranslate(v.ids, v.autoAccept),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: projectKey(documents[0]?.project_id) });
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <ModalDialog title="Pre-translate from the memory" open={open} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          start.mutate({ ids: form.getAll('doc').map(Number), autoAccept: form.get('auto_accept') === 'on' });
        }}
      >
        <p className="hint">
          Every unconfirmed segment gets its best memory match of {MIN_SCORE}% or more. Confirmed segments are
          never overwritten.
        </p>
        <fieldset className="checklist">
          <legend>Documents</legend>
          {eligible.length === 0 && <p className="hint">No document is ready for pre-translation.</p>}
          {eligible.map((d) => (
            <label key={d.id} className="check">
              <input type="checkbox" name="doc" value={d.id} defaultChecked />
              {d.name}
            </label>
          ))}
        </fieldset>
        <label className="check">
          <input type="checkbox" name="auto_accept" defaultChecked />
          Confirm 100% matches (auto-accept)
        </label>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button primary"
            disabled={start.isPending || eligible.length === 0}
          >
            Start pre-translation
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

function DeleteDialog({ doc, onClose }: { doc: TesseraDocument | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  return (
    <ConfirmDialog
      title={`Delete ${doc?.name ?? 'document'}?`}
      open={doc !== null}
      onClose={onClose}
      confirm="Delete document"
      action={() => api.deleteDocument(doc!.id)}
      onDone={() => {
        queryClient.invalidateQueries({ queryKey: projectKey(doc?.project_id) });
        queryClient.invalidateQueries({ queryKey: projectsKey });
        onClose();
      }}
    >
      <p>
        Its segments and their translations are deleted with it. Confirmed translations stay in the memory.
      </p>
    </ConfirmDialog>
  );
}

export function ProjectPage({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const { uploads, start, dismiss } = useUploads(id);
  // Documents' progress and busy states follow the project's live events; polled only while the stream is not open.
  const liveRef = useRef(false);
  const live = useLiveEvents(
    { project_id: id },
    {
      task: () => queryClient.invalidateQueries({ queryKey: projectKey(id) }),
      document: () => queryClient.invalidateQueries({ queryKey: projectKey(id) }),
    },
  );
  liveRef.current = live;
  const project = useQuery({
    queryKey: projectKey(id),
    queryFn: () => api.project(id),
    // While a document is busy, its state is followed every second (without live events).
    refetchInterval: (query) => {
      if (liveRef.current) return false;
      const docs = query.state.data?.document ?? [];
      const parsed = (id: number) => docs.some((d) => d.id === id && !d.import_in_progress);
      const waiting = uploads.some((u) => u.documentId !== null && !parsed(u.documentId));
      return waiting || docs.some((d) => busyWith(d) !== null) ? 1000 : false;
    },
  });
  const memories = useQuery({ queryKey: memoriesKey, queryFn: api.memories });
  const [pretranslating, setPretranslating] = useState(false);
  const [deleting, setDeleting] = useState<TesseraDocument | null>(null);
  const [over, setOver] = useState(false);
  const setState = useMutation({
    mutationFn: (state: ProjectState) => api.updateProject({ id, state }),
    onSuccess: (p) => {
      queryClient.setQueryData(projectKey(id), p);
      queryClient.invalidateQueries({ queryKey: projectsKey });
    },
  });

  if (project.error) {
    return (
      <main className="page">
        <p className="form-error">{errorText(project.error)}</p>
        <button type="button" className="button" onClick={() => navigate('/projects')}>
          Back to the projects
        </button>
      </main>
    );
  }
  const p = project.data;
  if (!p) return <main className="page loading">Loading…</main>;
  const memory = memories.data?.find((m) => m.id === p.memory_id);
  const documents = [...p.document].sort((a, b) => a.id - b.id);

  return (
    <main className={over ? 'page drop-over' : 'page'} {...dropZone(start, setOver)}>
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link href="/projects">Projects</Link>
        <span aria-hidden="true">/</span>
      </nav>
      <div className="page-head">
        <div>
          <h1>{p.name}</h1>
          <p className="subtitle">
            <span className="mono">{pair(p.srclang, p.trglang)}</span>
            <span>Memory: {memory ? memory.name : `#${p.memory_id}`}</span>
            {p.due_date ? <span>Due {formatDate(p.due_date)}</span> : null}
            <label className="inline-select">
              State
              <select
                value={p.state}
                onChange={(e) => setState.mutate(e.currentTarget.value as ProjectState)}
              >
                {Object.entries(PROJECT_STATES).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          </p>
        </div>
        <div className="head-actions">
          <button
            type="button"
            className="button"
            onClick={() => setPretranslating(true)}
            disabled={documents.length === 0}
          >
            Pre-translate
          </button>
          <UploadButton onFiles={start} />
        </div>
      </div>
      <UploadList uploads={uploads} documents={documents} onDismiss={dismiss} />
      {documents.length === 0 ? (
        <div className="empty drop-target">
          <p>
            No documents yet. Upload files, or drop them here: text, XLIFF, PO, JSON, HTML, Markdown, Word,
            Android, YAML.
          </p>
        </div>
      ) : (
        <table className="table documents">
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Format</th>
              <th scope="col" className="num">
                Segments
              </th>
              <th scope="col" className="progress-col">
                Confirmed
              </th>
              <th scope="col">QA</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {documents.map((d) => (
              <DocumentRow key={d.id} doc={d} onDelete={() => setDeleting(d)} />
            ))}
          </tbody>
        </table>
      )}
      <PretranslateDialog
        documents={documents}
        open={pretranslating}
        onClose={() => setPretranslating(false)}
      />
      <DeleteDialog doc={deleting} onClose={() => setDeleting(null)} />
    </main>
  );
}
