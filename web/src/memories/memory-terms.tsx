// A memory's termbase (the Terms tab): concepts paged and searchable, each term with its language and its usage
// status in words; add, edit and delete a concept (a dialog with a source and a target term); import a TBX or
// CSV termbase; export it as TBX-Basic or Lilt's CSV.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { invalidateTerms, termsPageKey } from '../api/keys/terms.ts';
import type { Memory, TermConcept, TermConceptBody } from '../api/types.ts';
import { isManager, useCaller } from '../auth/roles.ts';
import { FormActions } from '../ui/form-actions.tsx';
import { plural } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { Pager } from '../ui/pager.tsx';
import { TermCandidates } from './term-candidates.tsx';

const PAGE = 50;
const STATUSES = ['preferred', 'admitted', 'deprecated', 'forbidden'] as const;
type Status = (typeof STATUSES)[number];
const STATUS_WORDS: Record<Status, string> = {
  preferred: 'Preferred',
  admitted: 'Admitted',
  deprecated: 'Deprecated',
  forbidden: 'Forbidden',
};
const primary = (lang: string) => lang.toLowerCase().split(/[-_]/)[0];

/** Add (concept null) or edit a concept: its first source and target terms, their statuses, domain and definition. */
function ConceptDialog({
  memory,
  concept,
  open,
  onClose,
}: {
  memory: Memory;
  concept: TermConcept | null;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const source = concept?.terms.find((t) => primary(t.lang) === primary(memory.srclang));
  const target = concept?.terms.find((t) => primary(t.lang) === primary(memory.trglang));
  const save = useMutation({
    mutationFn: (body: TermConceptBody) =>
      concept ? api.updateTermConcept(memory.id, concept.id, body) : api.createTermConcept(memory.id, body),
    onSuccess: () => {
      invalidateTerms(queryClient, memory.id);
      setError(null);
      onClose();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <ModalDialog title={concept ? 'Edit term' : 'Add term'} open={open} onClose={onClose} wide>
      {open && (
        <form
          className="stack"
          onSubmit={(e: FormEvent<HTMLFormElement>) => {
            e.preventDefault();
            const form = new FormData(e.currentTarget);
            const text = (name: string) => String(form.get(name) ?? '').trim();
            // The other terms of the concept (other languages, synonyms) stay as they are.
            const others = (concept?.terms ?? []).filter((t) => t !== source && t !== target);
            save.mutate({
              domain: text('domain') || null,
              note: concept?.note ?? null,
              terms: [
                {
                  ...(source ? { id: source.id } : {}),
                  lang: source?.lang ?? memory.srclang,
                  text: text('source'),
                  status: text('source_status') as Status,
                  case_sensitive: form.get('case_sensitive') === 'on',
                  part_of_speech: text('part_of_speech') || null,
                  definition: text('definition') || null,
                },
                {
                  ...(target ? { id: target.id } : {}),
                  lang: target?.lang ?? memory.trglang,
                  text: text('target'),
                  status: text('target_status') as Status,
                  case_sensitive: form.get('case_sensitive') === 'on',
                  context: text('context') || null,
                },
                ...others.map(
                  ({
                    id,
                    lang,
                    text,
                    status,
                    case_sensitive,
                    part_of_speech,
                    definition,
                    context,
                    note,
                  }) => ({
                    id,
                    lang,
                    text,
                    status,
                    case_sensitive,
                    part_of_speech,
                    definition,
                    context,
                    note,
                  }),
                ),
              ],
            });
          }}
        >
          <div className="field-row">
            <label className="field grow">
              <span>Source term ({memory.srclang})</span>
              <input
                name="source"
                required
                maxLength={500}
                defaultValue={source?.text}
                lang={memory.srclang}
                autoFocus
              />
            </label>
            <label className="field">
              <span>Source status</span>
              <select name="source_status" defaultValue={source?.status ?? 'preferred'}>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_WORDS[s]}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <div className="field-row">
            <label className="field grow">
              <span>Target term ({memory.trglang})</span>
              <input
                name="target"
                required
                maxLength={500}
                defaultValue={target?.text}
                lang={memory.trglang}
              />
            </label>
            <label className="field">
              <span>Target status</span>
              <select name="target_status" defaultValue={target?.status ?? 'preferred'}>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_WORDS[s]}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <label className="field">
            <span>Definition</span>
            <textarea name="definition" rows={2} defaultValue={source?.definition ?? ''} />
          </label>
          <label className="field">
            <span>Context example ({memory.trglang})</span>
            <input name="context" defaultValue={target?.context ?? ''} />
          </label>
          <div className="field-row">
            <label className="field">
              <span>Part of speech</span>
              <input name="part_of_speech" defaultValue={source?.part_of_speech ?? ''} />
            </label>
            <label className="field grow">
              <span>Domain</span>
              <input name="domain" defaultValue={concept?.domain ?? ''} />
            </label>
          </div>
          <label className="check">
            <input type="checkbox" name="case_sensitive" defaultChecked={source?.case_sensitive ?? false} />{' '}
            Case sensitive
          </label>
          <FormActions
            error={error}
            onCancel={onClose}
            submit={concept ? 'Save term' : 'Add term'}
            busy={save.isPending}
          />
        </form>
      )}
    </ModalDialog>
  );
}

function TermList({ concept, lang }: { concept: TermConcept; lang: string }) {
  const terms = concept.terms.filter((t) => primary(t.lang) === primary(lang));
  if (terms.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="term-list">
      {terms.map((t) => (
        <li key={t.id} lang={t.lang}>
          <span
            className={
              t.status === 'forbidden' || t.status === 'deprecated' ? 'term-text struck' : 'term-text'
            }
          >
            {t.text}
          </span>{' '}
          <span className={`term-status ${t.status}`}>{STATUS_WORDS[t.status]}</span>
          {t.definition && <span className="muted small term-definition"> — {t.definition}</span>}
        </li>
      ))}
    </ul>
  );
}

export function Terms({ memory }: { memory: Memory }) {
  const queryClient = useQueryClient();
  // Accepting suggested terms is a termbase change: a manager's (src/http/policy.ts).
  const manager = isManager(useCaller().role);
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<TermConcept | null>(null);
  const [adding, setAdding] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const page = useQuery({
    queryKey: termsPageKey(memory.id, offset, q),
    queryFn: () => api.termConcepts({ id: memory.id, offset, limit: PAGE, q: q || undefined }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (concept: TermConcept) => api.deleteTermConcept(memory.id, concept.id),
    onSuccess: () => invalidateTerms(queryClient, memory.id),
    onError: (err) => setNote(errorText(err)),
  });
  const importFile = useMutation({
    mutationFn: (file: File) => api.importTerms(memory.id, file),
    onSuccess: (result, file) => {
      invalidateTerms(queryClient, memory.id);
      setNote(
        `Imported ${plural(result.concepts, 'concept')} (${plural(result.terms, 'term')}) from ${file.name}.`,
      );
    },
    onError: (err) => setNote(errorText(err)),
  });
  const total = page.data?.total ?? 0;
  const label = (c: TermConcept) => c.terms[0]?.text ?? `concept ${c.id}`;
  return (
    <section className="section" aria-labelledby="terms-title">
      <div className="section-head">
        <h2 id="terms-title">Terms</h2>
        <form
          role="search"
          className="inline-form"
          onSubmit={(e: FormEvent<HTMLFormElement>) => {
            e.preventDefault();
            setOffset(0);
            setQ(String(new FormData(e.currentTarget).get('q')).trim());
          }}
        >
          <input name="q" type="search" aria-label="Search the terms" placeholder="Search terms" />
          <button type="submit" className="button small">
            Search
          </button>
        </form>
      </div>
      <div className="inline-form">
        <button type="button" className="button small" onClick={() => setAdding(true)}>
          Add term
        </button>
        <label className="button small">
          Import TBX or CSV
          <input
            type="file"
            className="visually-hidden"
            accept=".tbx,.csv,.gz"
            onChange={(e: ChangeEvent<HTMLInputElement>) => {
              const file = e.currentTarget.files?.[0];
              if (file) importFile.mutate(file);
              e.currentTarget.value = '';
            }}
          />
        </label>
        <button
          type="button"
          className="button small"
          onClick={() =>
            api
              .exportTerms(memory.id, 'tbx', `${memory.name}.tbx`)
              .then((name) => setNote(`Exported ${name}.`))
              .catch((err) => setNote(errorText(err)))
          }
        >
          Export TBX
        </button>
        <button
          type="button"
          className="button small"
          onClick={() =>
            api
              .exportTerms(memory.id, 'csv', `${memory.name}.termbase.csv`)
              .then((name) => setNote(`Exported ${name}.`))
              .catch((err) => setNote(errorText(err)))
          }
        >
          Export CSV
        </button>
      </div>
      <p role="status" className="hint">
        {importFile.isPending ? 'Importing…' : (note ?? '')}
      </p>
      {page.error && (
        <p className="form-error" role="alert">
          {errorText(page.error)}
        </p>
      )}
      {page.data && page.data.concepts.length === 0 && (
        <p className="muted">{q ? `No term holds “${q}”.` : 'No terms yet.'}</p>
      )}
      {page.data && page.data.concepts.length > 0 && (
        <>
          <table className="table compact" aria-label="Terms" aria-busy={page.isFetching}>
            <thead>
              <tr>
                <th scope="col">Source ({memory.srclang})</th>
                <th scope="col">Target ({memory.trglang})</th>
                <th scope="col">Domain</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.concepts.map((c) => (
                <tr key={c.id}>
                  <td>
                    <TermList concept={c} lang={memory.srclang} />
                  </td>
                  <td>
                    <TermList concept={c} lang={memory.trglang} />
                  </td>
                  <td className="muted small">{c.domain ?? ''}</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="button small"
                      aria-label={`Edit ${label(c)}`}
                      onClick={() => setEditing(c)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="button small danger"
                      aria-label={`Delete ${label(c)}`}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(c)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager label="Term pages" offset={offset} pageSize={PAGE} total={total} onOffset={setOffset} />
        </>
      )}
      <ConceptDialog
        memory={memory}
        concept={editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
      />
      <ConceptDialog memory={memory} concept={null} open={adding} onClose={() => setAdding(false)} />
      {manager && <TermCandidates memory={memory} />}
    </section>
  );
}
