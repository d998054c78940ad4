// The Quality panel (docs/EDITOR.md §10b): the document's MQM score against the project's threshold, the
// active segment's annotated errors, and — in review mode — a form to annotate one with an MQM-Core category
// and a severity. The report page has the whole document's errors.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { api, errorText } from '../../api/client.ts';
import { annotationsKey, qualityKey, qualityScoreKey } from '../../api/keys/quality.ts';
import type { Annotation } from '../../api/types.ts';
import {
  MQM_CATEGORIES,
  MQM_LABELS,
  MQM_PENALTIES,
  MQM_SEVERITIES,
  type MqmCategory,
  type MqmSeverity,
  SEVERITY_LABELS,
} from '../../quality/mqm-labels.ts';
import { plural } from '../../ui/format.ts';
import type { PanelProps } from '../panels/side-panel.ts';

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

function Score({ documentId }: { documentId: number }) {
  const score = useQuery({
    queryKey: qualityScoreKey(documentId),
    queryFn: () => api.qualityScore(documentId),
  });
  if (!score.data) return null;
  const s = score.data;
  return (
    <p className="quality-score">
      <span className={s.pass ? 'severity-badge pass' : 'severity-badge critical'}>
        {s.pass ? 'Pass' : 'Fail'}
      </span>{' '}
      {numberFormat.format(s.points_per_1000_words)} points per 1,000 words (threshold{' '}
      {numberFormat.format(s.threshold)}) ·{' '}
      {plural(s.errors.minor + s.errors.major + s.errors.critical, 'error')}
    </p>
  );
}

function AnnotationItem({ annotation, onRemove }: { annotation: Annotation; onRemove?: () => void }) {
  const name = `${SEVERITY_LABELS[annotation.severity].toLowerCase()} ${MQM_LABELS[annotation.category]} error`;
  return (
    <li className="annotation">
      <span className={`severity-badge ${annotation.severity}`}>{SEVERITY_LABELS[annotation.severity]}</span>{' '}
      <strong>{MQM_LABELS[annotation.category]}</strong>
      {annotation.note && <span className="annotation-note"> — {annotation.note}</span>}
      <span className="muted small"> ({annotation.user ?? 'someone'})</span>
      {onRemove && (
        <button
          type="button"
          className="button small quiet"
          aria-label={`Remove the ${name}`}
          onClick={onRemove}
        >
          Remove
        </button>
      )}
    </li>
  );
}

export function QualityPanel({ context }: PanelProps) {
  const { documentId, segment, reviewMode } = context;
  const queryClient = useQueryClient();
  const headingId = useId();
  const categoryId = useId();
  const severityId = useId();
  const noteId = useId();
  const [error, setError] = useState<string | null>(null);
  const annotations = useQuery({
    queryKey: annotationsKey(documentId),
    queryFn: () => api.annotations(documentId),
  });
  const changed = () => {
    setError(null);
    queryClient.invalidateQueries({ queryKey: qualityKey(documentId) });
  };
  const add = useMutation({
    mutationFn: (body: { category: MqmCategory; severity: MqmSeverity; note: string }) =>
      api.createAnnotation({ segment_id: segment!.id, ...body }),
    onSuccess: changed,
    onError: (err) => setError(errorText(err)),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.deleteAnnotation(id),
    onSuccess: changed,
    onError: (err) => setError(errorText(err)),
  });
  const mine = segment ? (annotations.data ?? []).filter((a) => a.segment_id === segment.id) : [];

  return (
    <section className="panel quality" aria-labelledby={headingId}>
      <h2 className="panel-title" id={headingId}>
        Quality
        {/* The list says how many; the panel's name stays "Quality". */}
        {mine.length > 0 && (
          <span className="panel-count" aria-hidden="true">
            {mine.length}
          </span>
        )}
      </h2>
      <Score documentId={documentId} />
      {mine.length > 0 ? (
        <ul className="annotations" aria-label={`Errors of segment ${segment ? segment.position + 1 : ''}`}>
          {mine.map((a) => (
            <AnnotationItem
              key={a.id}
              annotation={a}
              onRemove={reviewMode ? () => remove.mutate(a.id) : undefined}
            />
          ))}
        </ul>
      ) : (
        <p className="muted small">No error annotated in this segment.</p>
      )}
      {reviewMode && segment && (
        <form
          className="annotate-form"
          aria-label="Annotate an error"
          onSubmit={(e: FormEvent<HTMLFormElement>) => {
            e.preventDefault();
            const form = new FormData(e.currentTarget);
            add.mutate({
              category: String(form.get('category')) as MqmCategory,
              severity: String(form.get('severity')) as MqmSeverity,
              note: String(form.get('note') ?? ''),
            });
            e.currentTarget.reset();
          }}
        >
          <label htmlFor={categoryId}>Category</label>
          <select id={categoryId} name="category" defaultValue="accuracy">
            {MQM_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {MQM_LABELS[c]}
              </option>
            ))}
          </select>
          <label htmlFor={severityId}>Severity</label>
          <select id={severityId} name="severity" defaultValue="minor">
            {MQM_SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {SEVERITY_LABELS[s]} ({plural(MQM_PENALTIES[s], 'point')})
              </option>
            ))}
          </select>
          <label htmlFor={noteId}>Note</label>
          <input id={noteId} name="note" maxLength={5000} placeholder="What is wrong (optional)" />
          <button type="submit" className="button small" disabled={add.isPending}>
            Add error
          </button>
        </form>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <p className="small">
        <Link href={`/documents/${documentId}/quality`}>Quality report</Link>
      </p>
    </section>
  );
}
