// The projects list: language pair, state, due date and progress of each, active or archived, and `New project`.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, errorText } from '../api/client.ts';
import { memoriesKey } from '../api/keys/memories.ts';
import { projectsKey } from '../api/keys/projects.ts';
import { workflowTemplatesKey } from '../api/keys/workflows.ts';
import type { Project, Segmentation } from '../api/types.ts';
import { isManager, useCaller } from '../auth/roles.ts';
import { FormActions } from '../ui/form-actions.tsx';
import { formatDate, PROJECT_STATES, pair, plural } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { SegmentationField } from './segmentation-setting.tsx';

function progressOf(project: Project) {
  let done = 0;
  let total = 0;
  for (const d of project.document) {
    done += d.num_confirmed;
    total += d.num_segments;
  }
  return { done, total };
}

function NewProjectDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const memories = useQuery({ queryKey: memoriesKey, queryFn: api.memories, enabled: open });
  const templates = useQuery({
    queryKey: workflowTemplatesKey,
    queryFn: api.workflowTemplates,
    staleTime: Number.POSITIVE_INFINITY,
    enabled: open,
  });
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: api.createProject,
    onSuccess: (project) => {
      queryClient.invalidateQueries({ queryKey: projectsKey });
      onClose();
      navigate(`/projects/${project.id}`);
    },
    onError: (err) => setError(errorText(err)),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const due = String(form.get('due') ?? '');
    create.mutate({
      name: String(form.get('name')).trim(),
      memory_id: Number(form.get('memory')),
      due_date: due ? Math.floor(new Date(`${due}T23:59:59`).getTime() / 1000) : null,
      propagate_repetitions: form.get('propagate') === 'on',
      segmentation: String(form.get('segmentation') ?? 'auto') as Segmentation,
      // The server's default (translate only) while the templates are not read yet.
      ...(form.get('workflow') ? { workflow_template_id: Number(form.get('workflow')) } : {}),
    });
  }

  return (
    <ModalDialog title="New project" open={open} onClose={onClose}>
      {memories.data?.length === 0 ? (
        <p>
          A project translates with a memory, and there is none yet.{' '}
          <Link href="/memories">Create a memory</Link> first.
        </p>
      ) : (
        <form onSubmit={submit} className="stack">
          <label className="field">
            <span>Name</span>
            <input name="name" required maxLength={500} autoFocus />
          </label>
          <label className="field">
            <span>Memory</span>
            <select name="memory" required>
              {memories.data?.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name} ({pair(m.srclang, m.trglang)}, {plural(m.num_segments, 'entry', 'entries')})
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Workflow</span>
            <select name="workflow">
              {templates.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Due date (optional)</span>
            <input name="due" type="date" />
          </label>
          <label className="check">
            <input type="checkbox" name="propagate" defaultChecked />
            Fill repetitions when a segment is confirmed
          </label>
          <SegmentationField />
          <FormActions
            error={error}
            onCancel={onClose}
            submit="Create project"
            busy={create.isPending || !memories.data}
          />
        </form>
      )}
    </ModalDialog>
  );
}

export function ProjectsPage() {
  const projects = useQuery({ queryKey: projectsKey, queryFn: api.projects });
  const [creating, setCreating] = useState(false);
  const [showArchived, setShowArchived] = useState(false);
  const list = projects.data?.filter((p) => p.archived === showArchived) ?? [];
  // Translators and reviewers see the projects assigned to them and create none.
  const manager = isManager(useCaller().role);

  return (
    <main className="page">
      <div className="page-head">
        <h1>Projects</h1>
        <div className="head-actions">
          <fieldset className="segmented" aria-label="Show">
            <label>
              <input
                type="radio"
                name="archived"
                checked={!showArchived}
                onChange={() => setShowArchived(false)}
              />
              Active
            </label>
            <label>
              <input
                type="radio"
                name="archived"
                checked={showArchived}
                onChange={() => setShowArchived(true)}
              />
              Archived
            </label>
          </fieldset>
          {manager && (
            <button type="button" className="button primary" onClick={() => setCreating(true)}>
              New project
            </button>
          )}
        </div>
      </div>
      {projects.error && <p className="form-error">{projects.error.message}</p>}
      {projects.data && list.length === 0 && (
        <div className="empty">
          <p>
            {showArchived
              ? 'No archived projects. A project archived from its page is listed here.'
              : 'No projects yet. A project holds documents to translate with one memory.'}
          </p>
        </div>
      )}
      {list.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Languages</th>
              <th scope="col">State</th>
              <th scope="col">Due</th>
              <th scope="col" className="num">
                Documents
              </th>
              <th scope="col" className="progress-col">
                Confirmed
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((p) => {
              const { done, total } = progressOf(p);
              const overdue = Boolean(p.due_date) && p.due_date! * 1000 < Date.now() && p.state !== 'done';
              return (
                <tr key={p.id}>
                  <td>
                    <Link href={`/projects/${p.id}`} className="strong-link">
                      {p.name}
                    </Link>
                  </td>
                  <td className="mono">{pair(p.srclang, p.trglang)}</td>
                  <td>
                    <span className={`state-badge ${p.state}`}>{PROJECT_STATES[p.state] ?? p.state}</span>
                  </td>
                  <td className={overdue ? 'overdue' : undefined}>
                    {p.due_date ? formatDate(p.due_date) : '—'}
                  </td>
                  <td className="num">{p.document.length}</td>
                  <td>
                    <ProgressBar done={done} total={total} label={`${p.name}: segments confirmed`} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <NewProjectDialog open={creating} onClose={() => setCreating(false)} />
    </main>
  );
}
