// A memory's import: a TMX / .tmx.gz / XLIFF / TSV file sent, the task's progress followed until it ends, and
// its outcome (imported, skipped, duplicates) or its error.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { entriesKey, invalidateMemory } from '../api/keys/memories.ts';
import { taskKey } from '../api/keys/tasks.ts';
import { invalidateTerms } from '../api/keys/terms.ts';
import type { Memory, Task } from '../api/types.ts';
import { bytesProgress } from '../ui/format.ts';
import { ProgressBar } from '../ui/progress-bar.tsx';

/** The result of an import task in words, with why units were skipped when the server says (docs/API.md). */
function importOutcome(task: Task): string {
  if (task.state === 'failed') return `Import failed: ${task.error ?? task.error_code ?? 'unknown error'}`;
  const r = (task.result ?? {}) as {
    imported?: number;
    skipped?: number;
    duplicates?: number;
    skipped_why?: string;
  };
  const counts = `Imported ${(r.imported ?? 0).toLocaleString()}, skipped ${(r.skipped ?? 0).toLocaleString()}, duplicates ${(r.duplicates ?? 0).toLocaleString()}.`;
  return r.skipped_why ? `${counts} Skipped: ${r.skipped_why}.` : counts;
}

export function ImportBox({ memory }: { memory: Memory }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<string | null>(null);
  const [taskId, setTaskId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [termbaseNote, setTermbaseNote] = useState<string | null>(null);
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
    onSuccess: (started, f) => {
      // A termbase (.tbx) is stored within the request: no task to follow (docs/API.md, Terminology).
      if (started.isProcessing === 0) {
        invalidateTerms(queryClient, memory.id);
        setTermbaseNote(`${f.name} was imported into the termbase: see the Terms tab.`);
      } else setTaskId(started.task_id ?? started.job_id);
    },
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
          accept=".tmx,.gz,.xlf,.xliff,.tsv,.csv,.tbx"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (!f) return;
            setFile(f.name);
            setError(null);
            setTaskId(null);
            setTermbaseNote(null);
            start.mutate(f);
            e.currentTarget.value = '';
          }}
        />
      </label>
      <span className="hint"> TMX, XLIFF, TSV or CSV (gzipped too); a TBX goes to the termbase</span>
      {file && (
        <div className="import-status">
          <p className="result-line">
            <span className="strong">{file}</span>
            {start.isPending && ' — uploading…'}
            {task.data && !finished && ` — ${task.data.state}…`}
          </p>
          {termbaseNote && (
            <p className="result-line" role="status">
              {termbaseNote}
            </p>
          )}
          {task.data && !finished && (
            <ProgressBar
              done={task.data.progress.done}
              total={task.data.progress.total}
              label={`Import of ${file}`}
              figures={bytesProgress}
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
