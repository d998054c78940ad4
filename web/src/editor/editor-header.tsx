// The editor's header: where the document is (breadcrumbs), its name and language pair, how far it is confirmed
// (segments, and words: document-words.tsx), what it is busy with, its QA count, and the Replace, Full tags,
// Export and Shortcuts buttons.
import { Link } from 'wouter';
import type { Caller, DocumentQa, Project, TesseraDocument } from '../api/types.ts';
import { ariaKeys, tooltip } from '../keyboard/shortcut-label.ts';
import { busyWith } from '../projects/document-state.ts';
import { ExportButtons } from '../projects/export-buttons.tsx';
import { pair, plural } from '../ui/format.ts';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { WorkflowButtons } from '../workflow/workflow-buttons.tsx';
import { DocumentWords } from './document-words.tsx';

export function EditorHeader({
  project,
  doc: d,
  qa,
  confirmed,
  total,
  onReplace,
  onHelp,
  onQaList,
  fullTags,
  onToggleFullTags,
  reviewMode,
  onToggleReviewMode,
  caller,
}: {
  /** Who is signed in: the workflow's Done and Send back show for the stage's assignee (and managers). */
  caller: Caller;
  project: Project | undefined;
  doc: TesseraDocument | undefined;
  qa: DocumentQa | undefined;
  /** Segments of the whole document confirmed (or reviewed), and all of them. */
  confirmed: number;
  total: number;
  /** Absent while the document is not in the caller's stage (the server refuses a replace then). */
  onReplace?: () => void;
  onHelp: () => void;
  /** Opens the list of the document's QA issues. */
  onQaList: () => void;
  /** Whether tag chips show their full markup. */
  fullTags: boolean;
  onToggleFullTags: () => void;
  /** Review mode: targets as tracked changes against the translator's version, Ctrl+Enter sets Reviewed. */
  reviewMode: boolean;
  /** Absent for those who do not review (auth/role-names.ts, mayReview): no Review mode button. */
  onToggleReviewMode?: () => void;
}) {
  return (
    <header className="editor-head">
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link href="/projects">Projects</Link>
        <span aria-hidden="true">/</span>
        {project ? <Link href={`/projects/${project.id}`}>{project.name}</Link> : <span>…</span>}
        <span aria-hidden="true">/</span>
      </nav>
      <h1 className="editor-title">{d?.name ?? 'Document'}</h1>
      {d && <span className="mono muted">{pair(d.srclang, d.trglang)}</span>}
      <div className="editor-progress">
        <ProgressBar done={confirmed} total={total} label="Segments confirmed" />
      </div>
      {d && <DocumentWords documentId={d.id} confirmed={confirmed} />}
      {d && busyWith(d) && <span className="state-badge busy">{busyWith(d)}…</span>}
      {qa && (
        <button
          type="button"
          className={qa.counts.error > 0 ? 'qa-count has-errors' : 'qa-count'}
          title="List the QA issues of the document's segments"
          aria-haspopup="dialog"
          onClick={onQaList}
        >
          QA: {plural(qa.counts.error, 'error')}, {plural(qa.counts.warning, 'warning')}
        </button>
      )}
      {d && <WorkflowButtons caller={caller} doc={d} />}
      <div className="head-actions">
        {onToggleReviewMode && (
          <button
            type="button"
            className="button small review-toggle"
            aria-pressed={reviewMode}
            onClick={onToggleReviewMode}
            onMouseDown={(e) => e.preventDefault()}
            title={
              reviewMode
                ? `Targets show the changes to the translator’s version; ${tooltip('reviewAndNext')}`
                : 'Review: show each target’s changes to the translator’s version, and set Reviewed with Ctrl+Enter'
            }
          >
            Review mode
          </button>
        )}
        {d && (
          <Link href={`/documents/${d.id}/quality`} className="button small quiet">
            Quality report
          </Link>
        )}
        {onReplace && (
          <button
            type="button"
            className="button small"
            onClick={onReplace}
            title={tooltip('findReplace')}
            aria-keyshortcuts={ariaKeys('findReplace')}
          >
            Replace…
          </button>
        )}
        <button
          type="button"
          className="button small quiet"
          aria-pressed={fullTags}
          onClick={onToggleFullTags}
          // The focus stays in the target: the mode is switched, not the segment.
          onMouseDown={(e) => e.preventDefault()}
          title={tooltip('toggleFullTags')}
          aria-keyshortcuts={ariaKeys('toggleFullTags')}
        >
          Full tags
        </button>
        {d && <ExportButtons doc={d} />}
        <button
          type="button"
          className="button small quiet"
          onClick={onHelp}
          title={tooltip('help')}
          aria-keyshortcuts="F1"
        >
          Shortcuts
        </button>
      </div>
    </header>
  );
}
