// New job: the source files (uploaded here through Lilt's Files), the source language,
// and a table of language pairs — one row per memory of that source language, each with its own pre-translation
// and auto-accept — then POST /v2/jobs. The job's projects and documents are made by the server in a task; the
// Jobs page follows its creation state.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { jobsKey } from '../api/keys/jobs.ts';
import { languagesKey } from '../api/keys/languages.ts';
import { memoriesKey } from '../api/keys/memories.ts';
import type { Memory, SourceFile } from '../api/types.ts';
import { AUTO_ACCEPT_CHOICES, type AutoAccept } from '../projects/auto-accept.ts';
import { FormActions } from '../ui/form-actions.tsx';
import { plural } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';

interface PairChoice {
  included: boolean;
  pretranslate: boolean;
  autoAccept: AutoAccept;
}

/**
 * A language pair of the request. `autoAcceptScope` is Tessera's extension beside Lilt's `autoAccept`
 * (docs/API.md): "context" confirms only context (101 %) matches.
 */
function languagePair(memory: Memory, c: PairChoice) {
  const accept = c.pretranslate ? c.autoAccept : 'none';
  return {
    trgLang: memory.trglang,
    memoryId: memory.id,
    pretranslate: c.pretranslate,
    autoAccept: accept !== 'none',
    ...(accept === 'none' ? {} : { autoAcceptScope: accept }),
  };
}

export function NewJobDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const memories = useQuery({ queryKey: memoriesKey, queryFn: api.memories, enabled: open });
  const languages = useQuery({ queryKey: languagesKey, queryFn: api.languages, enabled: open });
  const [files, setFiles] = useState<File[]>([]);
  const [srcLang, setSrcLang] = useState<string | null>(null);
  const [choices, setChoices] = useState<Record<number, PairChoice>>({});
  const [progress, setProgress] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const sources = useMemo(
    () => [...new Set((memories.data ?? []).map((m) => m.srclang))].sort(),
    [memories.data],
  );
  const source = srcLang ?? sources[0] ?? '';
  const pairs = (memories.data ?? []).filter((m) => m.srclang === source);
  const name = (code: string) => languages.data?.code_to_name[code] ?? code;
  const choice = (m: Memory): PairChoice =>
    choices[m.id] ?? { included: false, pretranslate: true, autoAccept: 'none' };
  const setChoice = (m: Memory, change: Partial<PairChoice>) => {
    setChoices((all) => ({ ...all, [m.id]: { ...choice(m), ...change } }));
    setError(null);
  };
  const chosen = pairs.filter((m) => choice(m).included);

  const create = useMutation({
    mutationFn: async (form: { name: string; due: string }) => {
      const uploaded: SourceFile[] = [];
      for (const [i, file] of files.entries()) {
        setProgress(`Uploading ${file.name} (${i + 1} of ${files.length})…`);
        uploaded.push(await api.uploadSourceFile(file));
      }
      setProgress('Creating the job…');
      return api.createJob({
        name: form.name,
        fileIds: uploaded.map((f) => f.id),
        srcLang: source,
        due: form.due ? new Date(`${form.due}T23:59:59`).toISOString() : null,
        languagePairs: chosen.map((m) => languagePair(m, choice(m))),
      });
    },
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: jobsKey });
      setFiles([]);
      setChoices({});
      setSrcLang(null);
      setProgress(null);
      onClose();
    },
    onError: (err) => {
      setProgress(null);
      setError(errorText(err));
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    if (files.length === 0) return setError('Choose at least one source file.');
    if (chosen.length === 0) return setError('Choose at least one language pair.');
    create.mutate({ name: String(form.get('name')).trim(), due: String(form.get('due') ?? '') });
  }

  return (
    <ModalDialog title="New job" open={open} onClose={onClose} wide>
      {memories.data?.length === 0 ? (
        <p>
          A job translates with one memory per language pair, and there is none yet. Create a memory first.
        </p>
      ) : (
        <form onSubmit={submit} className="stack">
          <label className="field">
            <span>Job name</span>
            <input name="name" required maxLength={500} autoFocus />
          </label>
          <label className="field">
            <span>Source files</span>
            <input
              type="file"
              multiple
              onChange={(e) => {
                setFiles(Array.from(e.currentTarget.files ?? []));
                setError(null);
              }}
              aria-describedby="new-job-files"
            />
          </label>
          <p id="new-job-files" className="field-note">
            {files.length === 0
              ? 'Any format the server reads: XLIFF, HTML, Markdown, PO, JSON, YAML, Android XML, DOCX, text.'
              : files.map((f) => f.name).join(', ')}
          </p>
          <label className="field">
            <span>Source language</span>
            <select value={source} onChange={(e) => setSrcLang(e.currentTarget.value)}>
              {sources.map((code) => (
                <option key={code} value={code}>
                  {name(code)} ({code})
                </option>
              ))}
            </select>
          </label>
          <table className="table compact" aria-label="Language pairs">
            <thead>
              <tr>
                <th scope="col">Translate into</th>
                <th scope="col">Memory</th>
                <th scope="col">Pre-translate</th>
                <th scope="col">Auto-accept</th>
              </tr>
            </thead>
            <tbody>
              {pairs.map((m) => {
                const c = choice(m);
                const label = `${name(m.trglang)} (${m.trglang})`;
                return (
                  <tr key={m.id}>
                    <td>
                      <label>
                        <input
                          type="checkbox"
                          checked={c.included}
                          onChange={(e) => setChoice(m, { included: e.currentTarget.checked })}
                        />{' '}
                        {label}
                      </label>
                    </td>
                    <td>
                      {m.name}{' '}
                      <span className="muted small">{plural(m.num_segments, 'entry', 'entries')}</span>
                    </td>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Pre-translate into ${label}`}
                        checked={c.pretranslate}
                        disabled={!c.included}
                        onChange={(e) => setChoice(m, { pretranslate: e.currentTarget.checked })}
                      />
                    </td>
                    <td>
                      <select
                        className="inline-select"
                        aria-label={`Auto-accept into ${label}`}
                        value={c.pretranslate ? c.autoAccept : 'none'}
                        disabled={!c.included || !c.pretranslate}
                        onChange={(e) => setChoice(m, { autoAccept: e.currentTarget.value as AutoAccept })}
                      >
                        {AUTO_ACCEPT_CHOICES.map((a) => (
                          <option key={a.value} value={a.value}>
                            {a.label}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <label className="field">
            <span>Due date (optional)</span>
            <input name="due" type="date" />
          </label>
          {progress && (
            <p className="muted" role="status">
              {progress}
            </p>
          )}
          <FormActions
            error={error}
            onCancel={onClose}
            submit="Create job"
            busy={create.isPending || !memories.data}
          />
        </form>
      )}
    </ModalDialog>
  );
}
