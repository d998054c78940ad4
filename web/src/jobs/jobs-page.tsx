// Jobs (/jobs): Lilt's jobs — one source file set, several target languages — with their progress, the leverage
// analysis (analysis-dialog.tsx), export of the translated files as a zip and its download (once an export has
// made one), and delivery (confirmed first when segments are still unconfirmed).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { jobsKey } from '../api/keys/jobs.ts';
import type { Job } from '../api/types.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { AnalysisDialog } from './analysis-dialog.tsx';
import { NewJobDialog } from './new-job-dialog.tsx';

const n = (v: number) => v.toLocaleString();

/** Asks before a job with unconfirmed segments is delivered, saying how much of it is unconfirmed. */
function DeliverDialog({ job, onClose }: { job: Job | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const unconfirmed = 100 - (job?.stats.percentTranslated ?? 0);
  return (
    <ConfirmDialog
      title={`Deliver ${job?.name ?? 'job'}?`}
      open={job !== null}
      onClose={onClose}
      confirm="Deliver anyway"
      action={() => api.jobAction(job!.id, 'deliver')}
      onDone={() => {
        queryClient.invalidateQueries({ queryKey: jobsKey });
        onClose();
      }}
    >
      <p>
        {unconfirmed === 100
          ? 'No segment of this job is confirmed yet (0% translated).'
          : `${unconfirmed}% of this job's segments are not confirmed yet.`}{' '}
        Its exported files hold only confirmed translations; the rest stays in the source language.
      </p>
    </ConfirmDialog>
  );
}

function JobRow({ job, onAnalyse, onDeliver }: { job: Job; onAnalyse: () => void; onDeliver: () => void }) {
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
  const deliver = () => {
    // Delivering work that is not all confirmed is a decision: say how much is missing first.
    if (job.status !== 'delivered' && job.stats.percentTranslated < 100) onDeliver();
    else act.mutate(job.status === 'delivered' ? 'reactivate' : 'deliver');
  };
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
          title={
            job.exportReady ? undefined : 'Export the job first: Download fetches the zip an export made'
          }
          disabled={busy || !job.exportReady}
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
          onClick={deliver}
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
  const [delivering, setDelivering] = useState<Job | null>(null);
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
              <JobRow
                key={j.id}
                job={j}
                onAnalyse={() => setAnalysing(j)}
                onDeliver={() => setDelivering(j)}
              />
            ))}
          </tbody>
        </table>
      )}
      <AnalysisDialog job={analysing} onClose={() => setAnalysing(null)} />
      <DeliverDialog job={delivering} onClose={() => setDelivering(null)} />
      <NewJobDialog open={creating} onClose={() => setCreating(false)} />
    </main>
  );
}
