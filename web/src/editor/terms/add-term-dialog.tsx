// Add a term (Alt+Shift+A): the words selected in the source and in the target, prefilled, into the project
// memory's termbase as a new concept; Enter saves. The glossary is read again at once, so that the term is
// recognized in the source and checked in the target from then on.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, errorText } from '../../api/client.ts';
import { invalidateTerms } from '../../api/keys/terms.ts';
import type { DocumentSegment } from '../../api/types.ts';
import { ModalDialog } from '../../ui/modal-dialog.tsx';
import type { TermRequest } from './use-term-commands.ts';

const STATUSES = ['preferred', 'admitted', 'deprecated', 'forbidden'] as const;

export function AddTermDialog({
  request,
  segment,
  memoryId,
  onClose,
}: {
  request: TermRequest | null;
  segment: DocumentSegment | undefined;
  memoryId: number | undefined;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: (input: { source: string; target: string; status: string; definition: string }) =>
      api.createTermConcept(memoryId!, {
        terms: [
          { lang: segment!.srclang, text: input.source, definition: input.definition || undefined },
          {
            lang: segment!.trglang,
            text: input.target,
            status: input.status as (typeof STATUSES)[number],
          },
        ],
      }),
    onSuccess: () => {
      // The memory's pages and every open document's glossary, this one's among them.
      invalidateTerms(queryClient, memoryId!);
      onClose();
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const field = (name: string) => String(data.get(name) ?? '').trim();
    if (!field('source') || !field('target')) return;
    add.mutate({
      source: field('source'),
      target: field('target'),
      status: field('status'),
      definition: field('definition'),
    });
  };
  const open = request !== null && segment !== undefined;
  return (
    <ModalDialog title="Add a term" open={open} onClose={onClose}>
      {open && (
        <form className="stack" key={request.at} onSubmit={submit}>
          <label className="field">
            <span>Source term ({segment.srclang})</span>
            <input name="source" defaultValue={request.source} required lang={segment.srclang} />
          </label>
          <label className="field">
            <span>Target term ({segment.trglang})</span>
            <input name="target" defaultValue={request.target} required lang={segment.trglang} />
          </label>
          <label className="field">
            <span>Status of the target term</span>
            <select name="status" defaultValue="preferred">
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Definition (optional)</span>
            <input name="definition" />
          </label>
          {add.error && (
            <p className="form-error" role="alert">
              {errorText(add.error)}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button primary" disabled={add.isPending}>
              Add term
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
