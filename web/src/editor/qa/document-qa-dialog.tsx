// The document's QA as a list: every issue of every segment (the server's report, GET /v2/documents/qa), each
// with its segment's number and source; choosing one (a click, Enter) takes the editor to that segment. The
// confirmed segments the export cannot write as they are (placeholders that would not run) say what the export
// will do with them — the server's one verdict, which the export acts on — so that nothing leaves the file
// unannounced.
import type { DocumentQa } from '../../api/types.ts';
import { plural } from '../../ui/format.ts';
import { ModalDialog } from '../../ui/modal-dialog.tsx';

/** Issues drawn at most: a list longer than this is walked with F8 or the "Has QA issues" filter. */
const SHOWN = 500;

export function DocumentQaDialog({
  open,
  qa,
  onGo,
  onClose,
}: {
  open: boolean;
  qa: DocumentQa | undefined;
  /** Takes the editor to the segment at this position (0-based). */
  onGo: (position: number) => void;
  onClose: () => void;
}) {
  const issues = qa?.issues ?? [];
  const exportNote = exportSummary(issues);
  return (
    <ModalDialog title="QA issues" open={open} onClose={onClose} wide>
      <div className="stack">
        <p className="muted">
          {qa
            ? `${plural(qa.counts.error, 'error')} and ${plural(qa.counts.warning, 'warning')} in ${plural(
                new Set(issues.map((i) => i.position)).size,
                'segment',
              )}.`
            : 'Checking the document…'}
          {issues.length > SHOWN &&
            ` The first ${SHOWN} of ${issues.length.toLocaleString()} issues are listed; F8 walks them all.`}
        </p>
        {exportNote && (
          <p className="document-qa-export" role="note">
            {exportNote}
          </p>
        )}
        {issues.length > 0 && (
          <ul className="document-qa-list" aria-label="QA issues of the document">
            {issues.slice(0, SHOWN).map((issue) => (
              <li key={`${issue.segment_id}-${issue.code}-${issue.message}`}>
                <button
                  type="button"
                  className={`document-qa-issue ${issue.severity}`}
                  onClick={() => {
                    onClose();
                    onGo(issue.position);
                  }}
                >
                  <span className="document-qa-number">{issue.position + 1}</span>
                  <span className="document-qa-source">{issue.source}</span>
                  <span className="document-qa-message">
                    <span className="qa-severity">{issue.severity === 'error' ? 'Error' : 'Warning'}</span>{' '}
                    {issue.message}
                    {issue.export && (
                      <span className={`document-qa-verdict ${issue.export}`}>
                        {EXPORT_VERDICT[issue.export]}
                      </span>
                    )}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}

/** What the export does with a confirmed segment it cannot write as it is. */
const EXPORT_VERDICT = {
  fuzzy: 'Exported as a draft: #, fuzzy with a comment saying why',
  blocked: 'Stops the export of the original until corrected',
} as const;

/** One sentence on the segments the export will not write as confirmed, or null when there are none. */
function exportSummary(issues: DocumentQa['issues']): string | null {
  const fuzzy = new Set(issues.filter((i) => i.export === 'fuzzy').map((i) => i.position)).size;
  const blocked = new Set(issues.filter((i) => i.export === 'blocked').map((i) => i.position)).size;
  if (fuzzy === 0 && blocked === 0) return null;
  const parts = [
    fuzzy > 0 &&
      `${plural(fuzzy, 'confirmed segment')} will be exported as ${fuzzy === 1 ? 'a draft' : 'drafts'} (fuzzy)`,
    blocked > 0 &&
      `${plural(blocked, 'confirmed segment')} ${blocked === 1 ? 'stops' : 'stop'} the export of the original`,
  ].filter(Boolean);
  return `Placeholders that would not run: ${parts.join('; ')}. Correct them to deliver them as confirmed.`;
}
