// A project: its documents (format, segments, confirmed, busy state), uploads, pre-translation, exports, rename
// and delete; its words by status (word-counts.tsx); its settings, archiving and deletion (project-actions.tsx).
// The page polls while any document is busy, so states and buttons follow the server's jobs.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, errorText } from '../api/client.ts';
import { memoriesKey } from '../api/keys/memories.ts';
import { projectKey, projectsKey } from '../api/keys/projects.ts';
import { workflowTemplatesKey } from '../api/keys/workflows.ts';
import type { Project, ProjectState, TesseraDocument, WorkflowTemplate } from '../api/types.ts';
import { isManager, useCaller } from '../auth/roles.ts';
import { useLiveEvents } from '../live/use-live-events.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { formatDate, PROJECT_STATES, pair } from '../ui/format.ts';
import { DocumentAssignees } from '../workflow/document-assignees.tsx';
import { DocumentRow } from './document-row.tsx';
import { busyWith } from './document-state.ts';
import { PretranslateDialog } from './pretranslate-dialog.tsx';
import { ProjectActions } from './project-actions.tsx';
import { SegmentationSetting } from './segmentation-setting.tsx';
import { dropZone, UploadButton, UploadList, useUploads } from './upload-files.tsx';
import { WordCounts } from './word-counts.tsx';
import { WordsPerPerson } from './words-per-person.tsx';

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

/** The project's workflow template (GET /v2/workflows/templates), chosen by a manager. */
function WorkflowSetting({ project, templates }: { project: Project; templates: WorkflowTemplate[] }) {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (workflow_template_id: number) => api.updateProject({ id: project.id, workflow_template_id }),
    onSuccess: (p) => queryClient.setQueryData(projectKey(project.id), p),
  });
  return (
    <label className="inline-select">
      Workflow
      <select
        value={project.workflow_template_id}
        disabled={change.isPending || templates.length === 0}
        onChange={(e) => change.mutate(Number(e.currentTarget.value))}
      >
        {templates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
    </label>
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
      stage: () => queryClient.invalidateQueries({ queryKey: projectKey(id) }),
      assignment: () => queryClient.invalidateQueries({ queryKey: projectKey(id) }),
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
  const caller = useCaller();
  const manager = isManager(caller.role);
  const templates = useQuery({
    queryKey: workflowTemplatesKey,
    queryFn: api.workflowTemplates,
    staleTime: Infinity,
  });
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
  const template = templates.data?.find((t) => t.id === p.workflow_template_id);
  const stages = (template?.stages.map((s) => s.assignment_type) ?? ['translate']) as (
    | 'translate'
    | 'review'
    | 'review2'
  )[];

  return (
    <main className={over ? 'page drop-over' : 'page'} {...(manager ? dropZone(start, setOver) : {})}>
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
            {p.archived ? <span className="state-badge">Archived</span> : null}
            {manager ? (
              <>
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
                <WorkflowSetting project={p} templates={templates.data ?? []} />
              </>
            ) : (
              <span>Workflow: {template?.name ?? '…'}</span>
            )}
          </p>
        </div>
        {manager && (
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
            <ProjectActions project={p} />
          </div>
        )}
      </div>
      {manager && <SegmentationSetting project={p} />}
      <UploadList uploads={uploads} documents={documents} onDismiss={dismiss} />
      {documents.length === 0 ? (
        <div className="empty drop-target">
          <p>
            No documents yet. Upload files, or drop them here: text, XLIFF, PO, JSON, HTML, Markdown, Word,
            Android, YAML.
          </p>
        </div>
      ) : (
        <table className="table documents" aria-label="Documents">
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
              <th scope="col">Workflow</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {documents.map((d) => (
              <DocumentRow
                key={d.id}
                doc={d}
                onDelete={() => setDeleting(d)}
                manager={manager}
                workflow={<DocumentAssignees doc={d} stages={stages} canAssign={manager} />}
              />
            ))}
          </tbody>
        </table>
      )}
      <WordCounts
        projectId={id}
        version={documents.map((d) => `${d.id}:${d.updated_at}:${d.num_confirmed}:${d.num_reviewed}`).join()}
      />
      <WordsPerPerson
        projectId={id}
        version={documents.map((d) => `${d.id}:${d.updated_at}:${d.num_confirmed}:${d.num_reviewed}`).join()}
      />
      <PretranslateDialog
        documents={documents}
        open={pretranslating}
        onClose={() => setPretranslating(false)}
      />
      <DeleteDialog doc={deleting} onClose={() => setDeleting(null)} />
    </main>
  );
}
