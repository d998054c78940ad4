// Find and replace in a document (Mod+Shift+F): plain text or a regular expression, case-sensitive or not, in the
// target or the source, scoped by status. "Preview" lists the first changes (the server's dry run, tags untouched)
// and the segments a replacement would leave as they are (it would break their tags); "Replace all" applies
// the changes as one batch, which "Undo" takes back.
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, errorText } from '../../api/client.ts';
import {
  type ReplaceRequest,
  type ReplaceResult,
  SEGMENT_STATUSES,
  type SegmentStatus,
} from '../../api/types.ts';
import { plural, STATUS_NAMES } from '../../ui/format.ts';
import { ModalDialog } from '../../ui/modal-dialog.tsx';
import { DiffText } from '../matches/diff-text.tsx';

/** "1 segment", "2,000 segments". */
const segmentsText = (n: number) => plural(n, 'segment');

/** What the replace leaves out, said after its count of changes. */
const skippedText = (result: ReplaceResult) =>
  result.skipped_count > 0 ? ` ${segmentsText(result.skipped_count)} left as they are (listed below).` : '';

export function ReplaceDialog({
  documentId,
  open,
  onClose,
  onApplied,
}: {
  documentId: number;
  open: boolean;
  onClose: () => void;
  /** After a batch was applied or undone: the document's segments changed. */
  onApplied: () => void;
}) {
  const [request, setRequest] = useState<ReplaceRequest | null>(null);
  const [preview, setPreview] = useState<ReplaceResult | null>(null);
  const [applied, setApplied] = useState<ReplaceResult | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = useMutation({
    mutationFn: (body: ReplaceRequest) => api.replace(body),
    onSuccess: (result, body) => {
      setError(null);
      if (body.dry_run) {
        setPreview(result);
        setMessage(`${segmentsText(result.changed)} would change.${skippedText(result)}`);
      } else {
        setApplied(result);
        // The segments left out stay listed, with their reasons.
        setPreview(result.skipped_count > 0 ? { ...result, changes: [] } : null);
        setMessage(`Replaced in ${segmentsText(result.changed)}.${skippedText(result)}`);
        onApplied();
      }
    },
    onError: (err) => setError(errorText(err)),
  });
  const undo = useMutation({
    mutationFn: () => api.undoReplace(documentId, applied!.batch_id!),
    onSuccess: () => {
      setMessage(`Undone: ${segmentsText(applied!.changed)} as they were.`);
      setApplied(null);
      onApplied();
    },
    onError: (err) => setError(errorText(err)),
  });

  const readForm = (form: HTMLFormElement): ReplaceRequest => {
    const data = new FormData(form);
    const statuses = data.getAll('status').map(String) as SegmentStatus[];
    return {
      id: documentId,
      find: String(data.get('find')),
      replace: String(data.get('replace')),
      regex: data.get('regex') === 'on',
      case_sensitive: data.get('case') === 'on',
      field: data.get('field') === 'source' ? 'source' : 'target',
      statuses: statuses.length > 0 ? statuses : undefined,
    };
  };

  const close = () => {
    setPreview(null);
    setApplied(null);
    setMessage(null);
    setError(null);
    onClose();
  };

  return (
    <ModalDialog title="Find and replace" open={open} onClose={close} wide>
      <form
        className="stack replace-form"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const body = readForm(e.currentTarget);
          setRequest(body);
          setApplied(null);
          run.mutate({ ...body, dry_run: true });
        }}
        // Any change of the form makes the preview stale.
        onChange={() => setPreview(null)}
      >
        <div className="field-row">
          <label className="field">
            <span>Find</span>
            <input name="find" required autoFocus autoComplete="off" />
          </label>
          <label className="field">
            <span>Replace with</span>
            <input name="replace" autoComplete="off" />
          </label>
        </div>
        <div className="replace-options">
          <label className="check">
            <input type="checkbox" name="regex" /> Regular expression
          </label>
          <label className="check">
            <input type="checkbox" name="case" /> Case-sensitive
          </label>
          <label className="inline-field">
            In{' '}
            <select name="field" className="inline-select" defaultValue="target">
              <option value="target">Target</option>
              <option value="source">Source</option>
            </select>
          </label>
        </div>
        <fieldset className="status-scope">
          <legend>Only segments that are (none checked: all)</legend>
          {SEGMENT_STATUSES.map((s) => (
            <label key={s} className="check">
              <input type="checkbox" name="status" value={s} /> {STATUS_NAMES[s]}
            </label>
          ))}
        </fieldset>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <p role="status" className="result-line">
          {message ?? ''}
        </p>
        {preview && preview.changes.length > 0 && (
          <div className="replace-preview">
            <table className="table compact" aria-label="Changes">
              <thead>
                <tr>
                  <th scope="col" className="num">
                    №
                  </th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {preview.changes.map((c) => (
                  <tr key={c.segment_id}>
                    <td className="num">{c.position + 1}</td>
                    <td>
                      <DiffText before={c.before} after={c.after} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {preview.truncated && (
              <p className="muted small">
                The first {preview.changes.length.toLocaleString()} of {preview.changed.toLocaleString()}{' '}
                changes are listed.
              </p>
            )}
          </div>
        )}
        {preview && preview.skipped.length > 0 && (
          <div className="replace-preview">
            <table className="table compact" aria-label="Left as they are">
              <thead>
                <tr>
                  <th scope="col" className="num">
                    №
                  </th>
                  <th scope="col">Left as it is</th>
                </tr>
              </thead>
              <tbody>
                {preview.skipped.map((s) => (
                  <tr key={s.segment_id}>
                    <td className="num">{s.position === null ? '–' : s.position + 1}</td>
                    <td>{s.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {preview.skipped_count > preview.skipped.length && (
              <p className="muted small">
                The first {preview.skipped.length.toLocaleString()} of{' '}
                {preview.skipped_count.toLocaleString()} are listed.
              </p>
            )}
          </div>
        )}
        <div className="dialog-actions">
          {applied?.batch_id != null && (
            <button type="button" className="button" disabled={undo.isPending} onClick={() => undo.mutate()}>
              Undo
            </button>
          )}
          <span className="spacer" />
          <button type="button" className="button" onClick={close}>
            Close
          </button>
          <button type="submit" className="button" disabled={run.isPending}>
            Preview
          </button>
          <button
            type="button"
            className="button primary"
            disabled={!preview || preview.batch_id !== null || preview.changed === 0 || run.isPending}
            onClick={() => request && run.mutate({ ...request, dry_run: false })}
          >
            Replace all
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
