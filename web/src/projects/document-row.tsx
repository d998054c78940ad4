// A row of the project page's documents: its name (a link to the editor once imported, or the rename form), its
// format, segments, confirmed progress, QA issues, state, and its Export, Rename and Delete buttons.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { api, errorText } from '../api/client.ts';
import { qaAsOfKey } from '../api/keys/documents.ts';
import { projectKey } from '../api/keys/projects.ts';
import type { TesseraDocument } from '../api/types.ts';
import { plural } from '../ui/format.ts';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { StageBadge } from '../workflow/document-assignees.tsx';
import { busyWith } from './document-state.ts';
import { ExportButtons } from './export-buttons.tsx';

function DocumentState({ doc }: { doc: TesseraDocument }) {
  const busy = busyWith(doc);
  if (busy) return <span className="state-badge busy">{busy}…</span>;
  if (!doc.import_succeeded) {
    return (
      <span className="state-badge failed" title={doc.import_error_message ?? undefined}>
        Import failed
      </span>
    );
  }
  if (doc.num_segments > 0 && doc.num_confirmed === doc.num_segments)
    return <span className="state-badge done">Done</span>;
  return <span className="state-badge ready">Ready</span>;
}

function RenameForm({ doc, onDone }: { doc: TesseraDocument; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const rename = useMutation({
    mutationFn: (name: string) => api.renameDocument(doc.id, name),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: projectKey(doc.project_id) });
      onDone();
    },
    onError: (err) => setError(errorText(err)),
  });
  return (
    <form
      className="inline-form"
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        rename.mutate(String(new FormData(e.currentTarget).get('name')).trim());
      }}
    >
      <input
        name="name"
        aria-label={`New name for ${doc.name}`}
        defaultValue={doc.name}
        autoFocus
        onKeyDown={(e) => e.key === 'Escape' && onDone()}
      />
      <button type="submit" className="button small primary" disabled={rename.isPending}>
        Save
      </button>
      <button type="button" className="button small quiet" onClick={onDone}>
        Cancel
      </button>
      {error && (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

/** The QA issues of a document (the server runs the editor's checks over all of it). */
function QaCell({ doc }: { doc: TesseraDocument }) {
  const qa = useQuery({
    queryKey: qaAsOfKey(doc),
    queryFn: () => api.documentQa(doc.id),
    staleTime: 30_000,
    retry: false,
  });
  if (!qa.data) return <span className="muted">—</span>;
  const { error, warning } = qa.data.counts;
  if (error + warning === 0) return <span className="muted">No issues</span>;
  const counts = `${plural(error, 'error')}, ${plural(warning, 'warning')}`;
  // The count opens the document with only its segments that have issues (the editor's "Has QA issues").
  return (
    <Link
      href={`/documents/${doc.id}?qa=1`}
      className={error > 0 ? 'qa-count has-errors' : 'qa-count'}
      aria-label={`QA issues of ${doc.name}: ${counts}`}
    >
      {counts}
    </Link>
  );
}

export function DocumentRow({
  doc,
  onDelete,
  manager,
  workflow,
}: {
  doc: TesseraDocument;
  onDelete: () => void;
  /** Rename and Delete are a manager's; they are left out for translators and reviewers. */
  manager: boolean;
  /** Its stage and assignees (workflow/document-assignees.tsx). */
  workflow: React.ReactNode;
}) {
  const [renaming, setRenaming] = useState(false);
  const ready = doc.import_succeeded && !doc.import_in_progress;
  return (
    <tr>
      <td className="doc-name">
        {renaming ? (
          <RenameForm doc={doc} onDone={() => setRenaming(false)} />
        ) : ready ? (
          <Link href={`/documents/${doc.id}`} className="strong-link">
            {doc.name}
          </Link>
        ) : (
          <span>{doc.name}</span>
        )}
        {!doc.import_in_progress && doc.import_error_message && (
          <div className="row-error" role="alert">
            {doc.import_error_message}
          </div>
        )}
      </td>
      <td className="mono">{doc.format}</td>
      <td className="num">{doc.num_segments.toLocaleString()}</td>
      <td>
        <ProgressBar
          done={doc.num_confirmed}
          total={doc.num_segments}
          label={`${doc.name}: segments confirmed`}
        />
      </td>
      <td>{ready ? <QaCell doc={doc} /> : <span className="muted">—</span>}</td>
      <td>
        <DocumentState doc={doc} />
        <StageBadge doc={doc} />
      </td>
      <td>{workflow}</td>
      <td className="row-actions">
        <ExportButtons doc={doc} />
        {ready && (
          <Link href={`/documents/${doc.id}/quality`} className="button small quiet">
            Quality report
          </Link>
        )}
        {manager && (
          <>
            <button
              type="button"
              className="button small quiet"
              onClick={() => setRenaming(true)}
              disabled={renaming}
            >
              Rename
            </button>
            <button type="button" className="button small quiet danger" onClick={onDelete}>
              Delete
            </button>
          </>
        )}
      </td>
    </tr>
  );
}
