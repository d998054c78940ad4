// The versions of the active segment (History), newest first: who, when, how (edit, confirmation, replace,
// pre-translation…), the status, the QA errors it was confirmed with, and a word diff against the version
// before; "Restore" makes a version's target the segment's again.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../../api/client.ts';
import { historyKey } from '../../api/keys/segments.ts';
import type { DocumentSegment, SegmentVersion } from '../../api/types.ts';
import { STATUS_NAMES } from '../../ui/format.ts';
import { DiffText } from '../matches/diff-text.tsx';
import { TaggedText } from '../tags/tagged-text.tsx';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The QA errors the target had when this version confirmed it ("Confirm anyway"); none from an older server. */
function qaErrorsOf(version: SegmentVersion): string[] {
  return (version as { qa_errors?: string[] }).qa_errors ?? [];
}

function statusName(status: string) {
  return (STATUS_NAMES as Record<string, string>)[status] ?? status;
}

export function HistoryPanel({
  segment,
  onRestored,
}: {
  segment: DocumentSegment | undefined;
  onRestored: (segment: DocumentSegment) => void;
}) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const history = useQuery({
    queryKey: historyKey(segment?.id ?? 0),
    queryFn: () => api.segmentHistory(segment!.id),
    enabled: open && segment !== undefined,
  });
  const restore = useMutation({
    mutationFn: (v: SegmentVersion) => api.restoreVersion({ id: segment!.id, version: v.version }),
    onSuccess: (saved) => {
      setError(null);
      onRestored(saved);
      history.refetch();
    },
    onError: (err) => setError(errorText(err)),
  });
  const versions = history.data?.versions ?? [];
  return (
    <section className="panel history" aria-labelledby="history-title">
      <h2 className="panel-title" id="history-title">
        <button
          type="button"
          className="disclosure"
          aria-expanded={open}
          aria-controls="history-body"
          onClick={() => setOpen(!open)}
        >
          History
        </button>
        {open && history.data && <span className="panel-count">{versions.length}</span>}
      </h2>
      {open && (
        <div id="history-body">
          {!segment ? (
            <p className="muted">Select a segment.</p>
          ) : history.isPending ? (
            <p className="muted">Reading the versions…</p>
          ) : history.error ? (
            <p className="form-error">{history.error.message}</p>
          ) : versions.length === 0 ? (
            <p className="muted">No change recorded yet.</p>
          ) : (
            <ol className="version-list" aria-label={`Versions of segment ${segment.position + 1}`}>
              {versions.map((v, i) => {
                const older = versions[i + 1];
                return (
                  <li key={v.version} className="version">
                    <div className="version-meta">
                      <span className="strong">v{v.version}</span>
                      <span>{v.user ?? 'system'}</span>
                      <span className="muted">{timeFormat.format(new Date(v.created_at * 1000))}</span>
                      <span className={`status-badge ${v.status}`}>{statusName(v.status)}</span>
                      {v.origin && <span className="muted">{v.origin}</span>}
                    </div>
                    {qaErrorsOf(v).length > 0 && (
                      <p className="version-qa">
                        Confirmed with {qaErrorsOf(v).length} QA{' '}
                        {qaErrorsOf(v).length === 1 ? 'error' : 'errors'}: {qaErrorsOf(v).join('; ')}
                      </p>
                    )}
                    <div className="version-text">
                      {older && older.target !== null && v.target !== null ? (
                        <DiffText before={older.target} after={v.target} />
                      ) : (
                        <TaggedText text={v.target ?? ''} />
                      )}
                    </div>
                    {i > 0 && (
                      <button
                        type="button"
                        className="button small"
                        aria-label={`Restore version ${v.version}`}
                        disabled={restore.isPending}
                        onClick={() => restore.mutate(v)}
                      >
                        Restore
                      </button>
                    )}
                  </li>
                );
              })}
            </ol>
          )}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
