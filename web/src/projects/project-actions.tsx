// A project's own actions on its page: Settings (name, memory of the same language pair, due date, whether
// repetitions are filled), Archive or Unarchive, and Delete — confirmed in a dialog naming the project —
// through PUT and DELETE /v2/projects.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { api, errorText } from '../api/client.ts';
import { memoriesKey } from '../api/keys/memories.ts';
import { projectKey, projectsKey } from '../api/keys/projects.ts';
import type { Project, UpdateProjectBody } from '../api/types.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { FormActions } from '../ui/form-actions.tsx';
import { ModalDialog } from '../ui/modal-dialog.tsx';

/** A Unix-seconds due date as the date input's value (the local day), and back (the end of that day). */
const dateValue = (seconds: number | null) => {
  if (!seconds) return '';
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
const dueSeconds = (value: string) =>
  value ? Math.floor(new Date(`${value}T23:59:59`).getTime() / 1000) : null;

function useUpdate(project: Project, onDone?: () => void) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const update = useMutation({
    mutationFn: (changes: Omit<UpdateProjectBody, 'id'>) => api.updateProject({ id: project.id, ...changes }),
    onSuccess: (p) => {
      setError(null);
      queryClient.setQueryData(projectKey(project.id), p);
      queryClient.invalidateQueries({ queryKey: projectsKey });
      onDone?.();
    },
    onError: (err) => setError(errorText(err)),
  });
  return { update, error };
}

function SettingsDialog({
  project,
  open,
  onClose,
}: {
  project: Project;
  open: boolean;
  onClose: () => void;
}) {
  const memories = useQuery({ queryKey: memoriesKey, queryFn: api.memories, enabled: open });
  const { update, error } = useUpdate(project, onClose);
  // A project's documents are in its language pair: only a memory of that pair can take over.
  const samePair = memories.data?.filter(
    (m) => m.srclang === project.srclang && m.trglang === project.trglang,
  );
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    update.mutate({
      name: String(form.get('name')).trim(),
      memory_id: Number(form.get('memory')),
      due_date: dueSeconds(String(form.get('due') ?? '')),
      propagate_repetitions: form.get('propagate') === 'on',
    });
  }
  return (
    <ModalDialog title={`Settings of ${project.name}`} open={open} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <label className="field">
          <span>Name</span>
          <input name="name" required maxLength={500} defaultValue={project.name} autoFocus />
        </label>
        <label className="field">
          <span>Memory</span>
          <select name="memory" required defaultValue={project.memory_id} key={samePair?.length ?? 0}>
            {(samePair ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name} ({m.num_segments.toLocaleString()} entries)
              </option>
            ))}
            {!samePair && <option value={project.memory_id}>Loading…</option>}
          </select>
        </label>
        <p className="field-note muted small">
          Documents are pre-translated from this memory and confirm into it from now on. Only memories of this
          project's language pair are offered.
        </p>
        <label className="field">
          <span>Due date (optional)</span>
          <input name="due" type="date" defaultValue={dateValue(project.due_date)} />
        </label>
        <label className="check">
          <input type="checkbox" name="propagate" defaultChecked={project.propagate_repetitions} />
          Fill repetitions when a segment is confirmed
        </label>
        <FormActions error={error} onCancel={onClose} submit="Save" busy={update.isPending || !samePair} />
      </form>
    </ModalDialog>
  );
}

export function ProjectActions({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { update: archive, error } = useUpdate(project);
  return (
    <>
      <button type="button" className="button" onClick={() => setEditing(true)}>
        Settings
      </button>
      <button
        type="button"
        className="button"
        disabled={archive.isPending}
        onClick={() => archive.mutate({ archived: !project.archived })}
      >
        {project.archived ? 'Unarchive' : 'Archive'}
      </button>
      <button type="button" className="button danger" onClick={() => setDeleting(true)}>
        Delete project
      </button>
      {error && (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
      <SettingsDialog project={project} open={editing} onClose={() => setEditing(false)} />
      <ConfirmDialog
        title={`Delete the project ${project.name}?`}
        open={deleting}
        onClose={() => setDeleting(false)}
        confirm="Delete project"
        action={() => api.deleteProject(project.id)}
        onDone={() => {
          queryClient.removeQueries({ queryKey: projectKey(project.id) });
          queryClient.invalidateQueries({ queryKey: projectsKey });
          navigate('/projects');
        }}
      >
        <p>
          {project.document.length === 0
            ? 'It holds no documents.'
            : project.document.length === 1
              ? 'Its document and its translations are deleted with it.'
              : `Its ${project.document.length} documents and their translations are deleted with it.`}{' '}
          Confirmed translations stay in the memory.
        </p>
      </ConfirmDialog>
    </>
  );
}
