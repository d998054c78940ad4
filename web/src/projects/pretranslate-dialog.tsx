// Pre-translate from the memory: the project's documents ready for it, checked, and what it may confirm by itself
// (auto-accept): nothing by default, exact matches, or only context matches.
import { MIN_SCORE } from '@server/matching/score-bands.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { projectKey } from '../api/keys/projects.ts';
import type { TesseraDocument } from '../api/types.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { AUTO_ACCEPT_CHOICES, type AutoAccept, autoAcceptFields } from './auto-accept.ts';
import { busyWith } from './document-state.ts';

export function PretranslateDialog({
  documents,
  open,
  onClose,
}: {
  documents: TesseraDocument[];
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const eligible = documents.filter((d) => d.import_succeeded && !busyWith(d));
  const start = useMutation({
    mutationFn: (v: { ids: number[]; autoAccept: AutoAccept }) =>
      api.pretranslate(v.ids, autoAcceptFields(v.autoAccept)),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: projectKey(documents[0]?.project_id) });
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <ModalDialog title="Pre-translate from the memory" open={open} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          start.mutate({
            ids: form.getAll('doc').map(Number),
            autoAccept: (form.get('auto_accept') as AutoAccept | null) ?? 'none',
          });
        }}
      >
        <p className="hint">
          {`Every unconfirmed segment gets its best memory match of ${MIN_SCORE}% or more. ` +
            'Confirmed segments are never overwritten.'}
        </p>
        <fieldset className="checklist">
          <legend>Documents</legend>
          {eligible.length === 0 && <p className="hint">No document is ready for pre-translation.</p>}
          {eligible.map((d) => (
            <label key={d.id} className="check">
              <input type="checkbox" name="doc" value={d.id} defaultChecked />
              {d.name}
            </label>
          ))}
        </fieldset>
        <fieldset className="checklist">
          <legend>Auto-accept</legend>
          {AUTO_ACCEPT_CHOICES.map((c) => (
            <label key={c.value} className="check">
              <input type="radio" name="auto_accept" value={c.value} defaultChecked={c.value === 'none'} />
              {c.label}
            </label>
          ))}
        </fieldset>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button primary"
            disabled={start.isPending || eligible.length === 0}
          >
            Start pre-translation
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
