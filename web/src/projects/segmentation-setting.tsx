// How a project's documents are segmented: the mode (each format's default, by sentence, by paragraph or
// entry) and its sentence rules — built-in, or the project's own SRX 2.0 file, downloaded and uploaded here.
// Both apply to documents uploaded from then on (docs/EDITOR.md "Segmentation").
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { projectKey, projectsKey } from '../api/keys/projects.ts';
import type { Project, Segmentation } from '../api/types.ts';

export const SEGMENTATION_LABELS: Record<Segmentation, string> = {
  auto: 'By format: strings whole, prose by sentence',
  sentence: 'By sentence, every format',
  paragraph: 'By paragraph or entry, every format',
};

/** The select of the New project dialog (a form field named `segmentation`). */
export function SegmentationField({ defaultValue = 'auto' }: { defaultValue?: Segmentation }) {
  return (
    <label className="field">
      <span>Segmentation</span>
      <select name="segmentation" defaultValue={defaultValue} aria-label="Segmentation">
        {Object.entries(SEGMENTATION_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The project page's segmentation settings. */
export function SegmentationSetting({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const noteId = useId();
  const file = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const saved = (p: Project, message: string) => {
    queryClient.setQueryData(projectKey(p.id), p);
    queryClient.invalidateQueries({ queryKey: projectsKey });
    setError(null);
    setNotice(message);
  };
  const failed = (err: unknown) => {
    setNotice(null);
    setError(errorText(err));
  };
  const setMode = useMutation({
    mutationFn: (segmentation: Segmentation) => api.updateProject({ id: project.id, segmentation }),
    onSuccess: (p) => saved(p, 'Saved: documents uploaded from now on are segmented this way.'),
    onError: failed,
  });
  const upload = useMutation({
    mutationFn: (f: File) => api.uploadSegmentationRules(project.id, f),
    onSuccess: (p) => saved(p, 'The SRX rules are the project’s own now.'),
    onError: failed,
  });
  const reset = useMutation({
    mutationFn: () => api.resetSegmentationRules(project.id),
    onSuccess: (p) => saved(p, 'Back to the built-in rules.'),
    onError: failed,
  });
  const own = project.segmentation_rules === 'project';

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        Segmentation
      </h2>
      <div className="segmentation-setting">
        <label className="inline-select">
          Segmentation
          <select
            value={project.segmentation}
            aria-describedby={noteId}
            onChange={(e) => setMode.mutate(e.currentTarget.value as Segmentation)}
          >
            {Object.entries(SEGMENTATION_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <span>Sentence rules: {own ? 'the project’s own (SRX)' : 'built-in'}</span>
        <button
          type="button"
          className="button small"
          onClick={() => api.downloadSegmentationRules(project.id).catch(failed)}
        >
          Download SRX
        </button>
        <button type="button" className="button small" onClick={() => file.current?.click()}>
          Upload SRX…
        </button>
        <input
          ref={file}
          type="file"
          accept=".srx,.xml,application/xml"
          className="visually-hidden"
          aria-label="SRX file to upload"
          tabIndex={-1}
          onChange={(e) => {
            const chosen = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (chosen) upload.mutate(chosen);
          }}
        />
        {own ? (
          <button type="button" className="button small" onClick={() => reset.mutate()}>
            Use the built-in rules
          </button>
        ) : null}
        <span id={noteId} className="muted">
          {notice ?? 'Applies to documents uploaded from now on.'}
        </span>
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
