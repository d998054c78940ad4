// Jobs (/jobs): Lilt's jobs — one source file set, several target languages — with their progress, the leverage
// analysis (exact, fuzzy and new words per language pair), export of the translated files as a zip and its
// download, and delivery.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { jobStatsKey, jobsKey } from '../api/keys/jobs.ts';
import type { Job, JobLeverage } from '../api/types.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { NewJobDialog } from './new-job-dialog.tsx';

const n = (v: number) => v.toLocaleString();

function AnalysisDialog({ job, onClose }: { job: Job | null; onClose: () => void }) {
  const stats = useQuery({
    queryKey: jobStatsKey(job?.id),
    queryFn: () => api.jobStats(job!.id),
    enabled: job !== null,
  });
  const row = (label: string, s: Omit<JobLeverage, 'projects'>) => (
    <>
      <th scope="row">{label}</th>
      <td className="num">{n(s.sourceWords)}</td>
      <td className="num">{n(s.exactWords)}</td>
      <td className="num">{n(s.fuzzyWords)}</td>
      <td className="num">{n(s.newWords)}</td>
    </>
  );
  return (
    <ModalDialog title={`Analysis of ${job?.name ?? ''}`} open={job !== null} onClose={onClose} wide>
      {stats.isPending ? (
        <p className="muted">Analysing against the memories…</p>
      ) : stats.error ? (
        <p className="form-error" role="alert">
          {errorText(stats.error)}
        </p>
      ) : (
        <table className="table compact" aria-label="Leverage analysis">
          <thead>
            <tr>
              <th scope="col">Language pair</th>
              <th scope="col" className="num">
                Source words
              </th>
              <th scope="col" className="num">
                Exact
              </th>
              <th scope="col" className="num">
                Fuzzy
              </th>
              <th scope="col" className="num">
                New
              </th>
            </tr>
          </thead>
          <tbody>
            {stats.data.projects.map((p) => (
              <tr key={p.id}>{row(`${p.srcLang} → ${p.trgLang}`, p)}</tr>
            ))}
            <tr className="strong">{row('All', stats.data)}</tr>
          </tbody>
        </table>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}

function JobRow({ job, onAnalyse }: { job: Job; onAnalyse: () => void }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState<string | null>(null);
  const act = useMutation({
    mutationFn: (action: 'deliver' | 'reactivate') => api.jobAction(job.id, action),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobsKey }),
    onError: (err) => setNote(errorText(err)),
  });
  const exporting = useMutation({
    mutationFn: () => api.exportJob(job.id),
    onSuccess: () => {
      setNote('Preparing the zip…');
      queryClient.invalidateQueries({ queryKey: jobsKey });
    },
    onError: (err) => setNote(errorText(err)),
  });
  const busy = job.isProcessing === 1;
  return (
    <tr>
      <td className="strong">{job.name}</td>
      <td className="mono">
        {job.srcLang} → {job.stats.projects.map((p) => p.trgLang).join(', ') || '—'}
      </td>
      <td className="num">{n(job.stats.sourceWords)}</td>
      <td className="num">{job.stats.percentTranslated}%</td>
      <td>
        {job.creationStatus !== 'COMPLETE'
          ? job.creationStatus === 'PENDING'
            ? 'Creating…'
            : 'Creation failed'
          : job.status === 'delivered'
            ? 'Delivered'
            : job.status === 'archived'
              ? 'Archived'
              : 'Active'}
        {busy && <span className="state-badge busy">Exporting…</span>}
        {job.isProcessing === -2 && (
          <span className="row-error" title={job.processingErrorMsg ?? ''}>
            {' '}
            Export failed
          </span>
        )}
        {note && (
          <span className="muted small" role="status">
            {' '}
            {note}
          </span>
        )}
      </td>
      <td className="row-actions">
        <button type="button" className="button small" aria-label={`Analyse ${job.name}`} onClick={onAnalyse}>
          Analyse
        </button>
        <button
          type="button"
          className="button small"
          aria-label={`Export ${job.name}`}
          disabled={busy || exporting.isPending}
          onClick={() => exporting.mutate()}
        >
          Export
        </button>
        <button
          type="button"
          className="button small"
          aria-label={`Download ${job.name}`}
          disabled={busy}
          onClick={() =>
            api
              .downloadJob(job.id, `${job.name}.zip`)
              .then((name) => setNote(`Downloaded ${name}.`))
              .catch((err) => setNote(errorText(err)))
          }
        >
          Download
        </button>
        <button
          type="button"
          className="button small"
          aria-label={`${job.status === 'delivered' ? 'Reactivate' : 'Deliver'} ${job.name}`}
          disabled={act.isPending || job.status === 'archived'}
          onClick={() => act.mutate(job.status === 'delivered' ? 'reactivate' : 'deliver')}
        >
          {job.status === 'delivered' ? 'Reactivate' : 'Deliver'}
        </button>
      </td>
    </tr>
  );
}

export function JobsPage() {
  const jobs = useQuery({
    queryKey: jobsKey,
    queryFn: api.jobs,
    // An export or a creation under way is followed until it ends.
    refetchInterval: (q) =>
      q.state.data?.some((j) => j.isProcessing === 1 || j.creationStatus === 'PENDING') ? 1000 : false,
  });
  const [analysing, setAnalysing] = useState<Job | null>(null);
  const [creating, setCreating] = useState(false);
  return (
    <main className="page">
      <div className="page-head">
        <h1>Jobs</h1>
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          New job
        </button>
      </div>
      {jobs.error && <p className="form-error">{errorText(jobs.error)}</p>}
      {jobs.data?.length === 0 && (
        <div className="empty">
          <p>No jobs yet. A job translates a set of source files into several languages, one project each.</p>
        </div>
      )}
      {jobs.data && jobs.data.length > 0 && (
        <table className="table" aria-label="Jobs">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Languages</th>
              <th scope="col" className="num">
                Source words
              </th>
              <th scope="col" className="num">
                Translated
              </th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {jobs.data.map((j) => (
              <JobRow key={j.id} job={j} onAnalyse={() => setAnalysing(j)} />
            ))}
          </tbody>
        </table>
      )}
      <AnalysisDialog job={analysing} onClose={() => setAnalysing(null)} />
      <NewJobDialog open={creating} onClose={() => setCreating(false)} />
    </main>
  );
}
