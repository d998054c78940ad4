// A document's quality report, as a client reads it: the verdict (pass or fail against the project's threshold),
// the score in MQM penalty points per 1,000 words, the errors by category and severity, every annotated error
// with its segment, and the CSV download. The project's threshold is set here too (GET/PUT /v2/quality/settings).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { api, errorText } from '../api/client.ts';
import { documentKey } from '../api/keys/documents.ts';
import { projectKey } from '../api/keys/projects.ts';
import { qualityKey, qualityReportKey, qualitySettingsKey } from '../api/keys/quality.ts';
import type { QualityReport } from '../api/types.ts';
import { TaggedText } from '../editor/tags/tagged-text.tsx';
import { formatDate, pair, plural } from '../ui/format.ts';
import { MQM_LABELS, SEVERITY_LABELS } from './mqm-labels.ts';

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

function Verdict({ report }: { report: QualityReport }) {
  return (
    <section className="quality-verdict" aria-labelledby="quality-verdict">
      <h2 id="quality-verdict" className="visually-hidden">
        Verdict
      </h2>
      <p className={report.pass ? 'verdict pass' : 'verdict fail'} role="status">
        {report.pass ? 'Pass' : 'Fail'}
      </p>
      <dl className="quality-figures">
        <div>
          <dt>Penalty points per 1,000 words</dt>
          <dd>{numberFormat.format(report.points_per_1000_words)}</dd>
        </div>
        <div>
          <dt>Pass threshold</dt>
          <dd>{numberFormat.format(report.threshold)}</dd>
        </div>
        <div>
          <dt>Penalty points</dt>
          <dd>{report.penalty_points.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Source words</dt>
          <dd>{report.words.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd>
            Critical {report.errors.critical} · Major {report.errors.major} · Minor {report.errors.minor}
          </dd>
        </div>
      </dl>
      <p className="muted small">
        Penalties: minor {report.penalties.minor}, major {report.penalties.major}, critical{' '}
        {report.penalties.critical} points (MQM-Core). A document passes at or below the threshold.
      </p>
    </section>
  );
}

function ThresholdSetting({ projectId, documentId }: { projectId: number; documentId: number }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const settings = useQuery({
    queryKey: qualitySettingsKey(projectId),
    queryFn: () => api.qualitySettings(projectId),
  });
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (threshold: number) => api.updateQualitySettings(projectId, threshold),
    onSuccess: (s) => {
      queryClient.setQueryData(qualitySettingsKey(projectId), s);
      queryClient.invalidateQueries({ queryKey: qualityKey(documentId) });
      setError(null);
    },
    onError: (err) => setError(errorText(err)),
  });
  if (!settings.data) return null;
  return (
    <form
      className="inline-form threshold-form"
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        const value = Number(new FormData(e.currentTarget).get('threshold'));
        if (!Number.isFinite(value) || value < 0) setError('The threshold is a number of points, 0 or more.');
        else save.mutate(value);
      }}
    >
      <label htmlFor={inputId}>Project’s pass threshold (points per 1,000 words)</label>
      <input
        id={inputId}
        name="threshold"
        type="number"
        min={0}
        max={1000}
        step="0.1"
        key={settings.data.threshold}
        defaultValue={settings.data.threshold}
      />
      <button type="submit" className="button small" disabled={save.isPending}>
        Save threshold
      </button>
      {settings.data.is_default && <span className="muted small">the default</span>}
      {error && (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

export function QualityReportPage({ documentId }: { documentId: number }) {
  const report = useQuery({
    queryKey: qualityReportKey(documentId),
    queryFn: () => api.qualityReport(documentId),
  });
  const doc = useQuery({ queryKey: documentKey(documentId), queryFn: () => api.document(documentId) });
  const project = useQuery({
    queryKey: projectKey(report.data?.project_id),
    queryFn: () => api.project(report.data!.project_id),
    enabled: report.data !== undefined,
  });
  const [downloadError, setDownloadError] = useState<string | null>(null);
  if (report.error) {
    return (
      <main className="page">
        <h1>Quality report</h1>
        <p className="form-error">{errorText(report.error)}</p>
        <Link href="/projects">Back to the projects</Link>
      </main>
    );
  }
  const r = report.data;
  if (!r) return <main className="page loading">Loading the quality report…</main>;
  const annotated = r.categories.filter((c) => c.minor + c.major + c.critical > 0);
  return (
    <main className="page quality-report">
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link href="/projects">Projects</Link>
        <span aria-hidden="true">/</span>
        <Link href={`/projects/${r.project_id}`}>{project.data?.name ?? 'Project'}</Link>
        <span aria-hidden="true">/</span>
        <Link href={`/documents/${documentId}`}>{doc.data?.name ?? r.document_name}</Link>
        <span aria-hidden="true">/</span>
      </nav>
      <div className="page-head">
        <div>
          <h1>Quality report</h1>
          <p className="subtitle">
            <span>{r.document_name}</span>
            <span className="mono">{pair(r.srclang, r.trglang)}</span>
          </p>
        </div>
        <div className="head-actions">
          <button
            type="button"
            className="button primary"
            onClick={() =>
              api
                .downloadQualityReport(documentId, `${r.document_name}.quality.csv`)
                .then(() => setDownloadError(null))
                .catch((err) => setDownloadError(errorText(err)))
            }
          >
            Download CSV
          </button>
        </div>
      </div>
      {downloadError && (
        <p className="form-error" role="alert">
          {downloadError}
        </p>
      )}
      <Verdict report={r} />
      <ThresholdSetting projectId={r.project_id} documentId={documentId} />

      <section aria-labelledby="by-category">
        <h2 id="by-category">Errors by category</h2>
        <table className="table compact" aria-labelledby="by-category">
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col" className="num">
                Critical
              </th>
              <th scope="col" className="num">
                Major
              </th>
              <th scope="col" className="num">
                Minor
              </th>
              <th scope="col" className="num">
                Points
              </th>
            </tr>
          </thead>
          <tbody>
            {r.categories.map((c) => (
              <tr key={c.category} className={c.penalty_points === 0 ? 'muted' : undefined}>
                <th scope="row">{MQM_LABELS[c.category]}</th>
                <td className="num">{c.critical}</td>
                <td className="num">{c.major}</td>
                <td className="num">{c.minor}</td>
                <td className="num strong">{c.penalty_points}</td>
              </tr>
            ))}
            <tr className="strong">
              <th scope="row">All categories</th>
              <td className="num">{r.errors.critical}</td>
              <td className="num">{r.errors.major}</td>
              <td className="num">{r.errors.minor}</td>
              <td className="num">{r.penalty_points}</td>
            </tr>
          </tbody>
        </table>
      </section>

      <section aria-labelledby="errors-found">
        <h2 id="errors-found">Errors found ({r.annotations.length})</h2>
        {r.annotations.length === 0 ? (
          <p className="muted">
            No errors annotated{annotated.length === 0 ? '' : ' in segments that still exist'}.
          </p>
        ) : (
          <table className="table annotations" aria-labelledby="errors-found">
            <thead>
              <tr>
                <th scope="col" className="num">
                  Segment
                </th>
                <th scope="col">Error</th>
                <th scope="col">Source</th>
                <th scope="col">Target as annotated</th>
                <th scope="col">Note</th>
                <th scope="col">Reviewer</th>
              </tr>
            </thead>
            <tbody>
              {r.annotations.map((a) => (
                <tr key={a.id}>
                  <td className="num">
                    <Link
                      href={`/documents/${documentId}?seg=${a.segment_number}`}
                      aria-label={`Segment ${a.segment_number} in the editor`}
                    >
                      {a.segment_number}
                    </Link>
                  </td>
                  <td>
                    <span className={`severity-badge ${a.severity}`}>{SEVERITY_LABELS[a.severity]}</span>{' '}
                    {MQM_LABELS[a.category]}
                    <span className="muted small"> · {plural(a.penalty_points, 'point')}</span>
                  </td>
                  <td lang={r.srclang}>
                    <TaggedText text={a.source} />
                  </td>
                  <td lang={r.trglang}>{a.target === null ? '—' : <TaggedText text={a.target} />}</td>
                  <td>{a.note || <span className="muted">—</span>}</td>
                  <td>
                    {a.user ?? '—'}
                    <div className="muted small">{formatDate(a.created_at)}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}
