// The translation editor (/documents/:id?seg=N&status=…&q=…): the segment grid, the target editor of the active
// segment, the side bar's panels, filters and the status bar, all driven from the keyboard through the action
// table. Its parts live beside it: where one is (position/), saves (save/), live segments (segments/), the
// commands (commands/) and the side bar's panels (panels/).
import type { EditorView } from '@codemirror/view';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import { api } from '../api/client.ts';
import { commentsKey } from '../api/keys/comments.ts';
import { documentKey, qaKey } from '../api/keys/documents.ts';
import { projectKey } from '../api/keys/projects.ts';
import { mayReview, useCaller } from '../auth/roles.ts';
import { useOnline } from '../live/use-online.ts';
import { busyWith } from '../projects/document-state.ts';
import { readOnlyReason } from '../workflow/read-only.ts';
import { ActiveText } from './active-text.ts';
import { useCommands } from './commands/use-commands.ts';
import { threadCounts, unresolvedSegmentCount } from './comments/comment-threads.ts';
import { SendBackDialog } from './comments/send-back-dialog.tsx';
import { EditorHeader } from './editor-header.tsx';
import { FilterBar } from './filters/filter-bar.tsx';
import { GoToDialog } from './go-to/go-to-dialog.tsx';
import { ShortcutHelp } from './help/shortcut-help.tsx';
import { usePrefetchMatches } from './matches/use-matches.ts';
import { usePrefetchMtRepairs } from './matches/use-mt-repairs.ts';
import { usePrefetchMtSuggestions } from './matches/use-mt-suggestion.ts';
import { SideBar } from './panels/side-bar.tsx';
import { usePosition } from './position/use-position.ts';
import { DocumentQaDialog } from './qa/document-qa-dialog.tsx';
import { QaList } from './qa/qa-list.tsx';
import { ReplaceDialog } from './replace/replace-dialog.tsx';
import { reviewsNow, useBaselines, useReviewMode } from './review/review-mode.ts';
import { ActiveTrackedChanges } from './review/tracked-changes.tsx';
import { ConflictDialog } from './save/conflict-dialog.tsx';
import { StatusBar } from './save/status-bar.tsx';
import { useSaves } from './save/use-saves.ts';
import { SegmentGrid } from './segments/segment-grid.tsx';
import { isFiltered } from './segments/segment-list.ts';
import { useLiveSegments } from './segments/use-live-segments.ts';
import { FullTagsContext, useFullTagsChoice } from './tags/tag-display.ts';
import { setTarget, TargetEditor } from './target/target-editor.tsx';
import { AddTermDialog } from './terms/add-term-dialog.tsx';
import { useTermCommands } from './terms/use-term-commands.ts';

/** After the frame that shows the change: what a person sees, as a performance mark. */
function markAfterPaint(name: string, detail?: unknown) {
  requestAnimationFrame(() => setTimeout(() => performance.mark(name, { detail })));
}

export default function EditorPage({ id }: { id: number }) {
  const view = useRef<EditorView | null>(null);
  const liveRef = useRef(false);
  const searchInput = useRef<HTMLInputElement>(null);
  const activeText = useMemo(() => new ActiveText(), []);

  const doc = useQuery({
    queryKey: documentKey(id),
    queryFn: () => api.document(id),
    // Followed live; polled only while the event stream is not open.
    refetchInterval: (q) => (q.state.data && busyWith(q.state.data) && !liveRef.current ? 1000 : false),
  });
  const project = useQuery({
    queryKey: projectKey(doc.data?.project_id),
    queryFn: () => api.project(doc.data!.project_id),
    enabled: doc.data !== undefined,
  });
  const memoryId = project.data?.memory_id;
  const caller = useCaller();
  const position = usePosition(id);
  const { list, filter, total, active, activeIndex } = position;
  const qa = useQuery({ queryKey: qaKey(id), queryFn: () => api.documentQa(id), retry: false });

  const { saves, summary, commit, conflictReopen, reopenConflict } = useSaves(id, memoryId);
  const live = useLiveSegments({
    documentId: id,
    saves,
    view,
    active,
    pretranslating: doc.data?.is_pretranslating,
  });
  liveRef.current = live.live;
  const online = useOnline();
  usePrefetchMatches(memoryId, position);
  usePrefetchMtSuggestions(memoryId, position);
  usePrefetchMtRepairs(memoryId, position);
  const [fullTags, toggleFullTags] = useFullTagsChoice();
  const reviewer = mayReview(caller.role);
  const [reviewMode, setReviewMode] = useReviewMode(reviewer, reviewsNow(caller, doc.data));
  const baselines = useBaselines(id, reviewMode);
  const readOnly = active ? readOnlyReason(caller, doc.data, active) : undefined;
  // The whole document out of the caller's stage (the header says why): no Replace, which the server refuses.
  const documentReadOnly = readOnlyReason(caller, doc.data, { is_reviewed: false });
  // Why this segment (not the whole document, which the header explains) may not be changed, said under it:
  // a translator who clicks a signed-off segment reads why typing does nothing.
  const segmentReadOnly = readOnly !== undefined && readOnly !== documentReadOnly ? readOnly : undefined;
  // Sending back is a reviewer's (or manager's) change of the segment: offered where the server takes it.
  const canSendBack = reviewer && active !== undefined && doc.data !== undefined && readOnly === undefined;
  const commands = useCommands({
    position,
    saves,
    commit,
    view,
    memoryId,
    searchInput,
    toggleFullTags,
    qa: qa.data,
    reload: live.reload,
    reviewMode,
    canSendBack,
    canReplace: doc.data !== undefined && documentReadOnly === undefined,
  });
  const terms = useTermCommands({ documentId: id, active, view, caller, reviewMode, readOnly });
  const comments = useQuery({ queryKey: commentsKey(id), queryFn: () => api.comments(id) });
  const unresolvedSegments = useMemo(() => unresolvedSegmentCount(comments.data), [comments.data]);
  const threadsBySegment = useMemo(() => threadCounts(comments.data), [comments.data]);
  const commentsOf = useCallback((sid: number) => threadsBySegment.get(sid), [threadsBySegment]);
  const qaSegments = useMemo(() => qa.data && new Set(qa.data.issues.map((i) => i.position)).size, [qa.data]);

  /** The focus into the active target's editor; answers whether it is there. */
  const focusActive = useCallback(() => {
    const v = view.current;
    if (!v) return false;
    v.focus();
    return v.hasFocus;
  }, []);
  const onFirstRows = useCallback(() => markAfterPaint('tessera:segments-painted'), []);
  const counts = list.counts;
  const confirmed = counts ? counts.confirmed + counts.reviewed : 0;
  const documentTotal = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : 0;

  const editor = active && (
    <>
      <TargetEditor
        key={`${active.id}:${live.generation}:${readOnly ?? ''}`}
        readOnly={readOnly}
        number={active.position + 1}
        lang={active.trglang}
        initial={saves.targetOf(active)}
        autoFocus
        onChange={(text) => activeText.set(text)}
        onBlur={(text) => commit(active, text)}
        onView={(v) => {
          view.current = v;
          if (v) activeText.set(v.state.doc.toString());
        }}
      />
      {segmentReadOnly && <p className="muted read-only-note">Read only: {segmentReadOnly}</p>}
      {reviewMode && baselines && (
        <ActiveTrackedChanges text={activeText} baseline={baselines.get(active.id)} />
      )}
      <QaList
        segment={active}
        text={activeText}
        blocked={commands.qaBlocked === active.id}
        onConfirmAnyway={commands.confirmAnyway}
      />
    </>
  );

  return (
    <FullTagsContext value={fullTags}>
      <main className={reviewMode ? 'editor review-mode' : 'editor'}>
        <EditorHeader
          project={project.data}
          doc={doc.data}
          qa={qa.data}
          confirmed={confirmed}
          total={documentTotal}
          onReplace={doc.data && documentReadOnly === undefined ? commands.openReplace : undefined}
          onHelp={commands.help.show}
          onQaList={commands.qaList.show}
          fullTags={fullTags}
          onToggleFullTags={toggleFullTags}
          reviewMode={reviewMode}
          onToggleReviewMode={
            reviewer
              ? () => {
                  if (view.current) commit(active, view.current.state.doc.toString());
                  setReviewMode(!reviewMode);
                  position.refocus();
                }
              : undefined
          }
          caller={caller}
        />
        <FilterBar
          ref={searchInput}
          filter={filter}
          counts={counts}
          repetitions={list.repetitions}
          total={list.total}
          qaSegments={qaSegments}
          unresolvedSegments={unresolvedSegments}
          onChange={commands.changeFilter}
        />
        <div className="editor-body">
          {list.error ? (
            <p className="form-error">{list.error.message}</p>
          ) : list.total === 0 ? (
            <div className="empty">
              <p>
                {isFiltered(filter) ? 'No segment matches the filter.' : 'This document has no segments.'}
              </p>
            </div>
          ) : (
            <SegmentGrid
              total={total}
              rowAt={list.rowAt}
              activeIndex={activeIndex}
              editor={editor}
              saveOf={(sid) => saves.entry(sid)}
              targetOf={(segment) => saves.targetOf(segment)}
              onActivate={commands.activate}
              onVisiblePages={position.setVisiblePages}
              navigation={position.navigation}
              focusActive={focusActive}
              onFirstRows={onFirstRows}
              commentsOf={commentsOf}
              baselines={reviewMode ? (baselines ?? new Map()) : undefined}
            />
          )}
          <SideBar
            context={{
              documentId: id,
              memoryId,
              segment: active,
              text: activeText,
              notice: commands.notice ?? terms.notice,
              concordance: commands.concordance,
              insertMatch: commands.insertMatch,
              insertMt: commands.insertMt,
              insertRepair: commands.insertRepair,
              insertText: terms.insertText,
              segmentChanged: live.segmentChanged,
              commentRequest: commands.commentRequest,
              sendBack: canSendBack ? commands.sendBack.show : undefined,
              reviewMode,
            }}
          />
        </div>
        <StatusBar
          summary={summary}
          onResolve={reopenConflict}
          onRetry={() => saves.retryFailed()}
          liveNote={live.liveNote}
          live={live.live}
          online={online}
          reviewMode={reviewMode}
          readOnly={readOnly !== undefined}
        />
        <ShortcutHelp open={commands.help.open} onClose={commands.help.close} />
        <SendBackDialog
          open={commands.sendBack.open}
          segment={active}
          onSent={live.segmentChanged}
          onClose={commands.sendBack.close}
        />
        <ConflictDialog
          reopen={conflictReopen}
          onClosed={position.refocus}
          entry={summary.conflicts[0]}
          number={summary.conflicts[0]?.current ? summary.conflicts[0].current.position + 1 : undefined}
          onResolve={(keep, current) => {
            saves.resolve(current.id, keep);
            if (keep === 'theirs' && view.current && active?.id === current.id)
              setTarget(view.current, current.target ?? '');
          }}
        />
        <ReplaceDialog
          documentId={id}
          open={commands.replace.open}
          onClose={commands.replace.close}
          onApplied={live.reload}
        />
        <DocumentQaDialog
          open={commands.qaList.open}
          qa={qa.data}
          onGo={commands.showPosition}
          onClose={commands.qaList.close}
        />
        <AddTermDialog
          request={terms.addTerm.request}
          segment={active}
          memoryId={terms.memoryId}
          onClose={() => {
            terms.addTerm.close();
            position.refocus();
          }}
        />
        <GoToDialog
          open={commands.goTo.open}
          total={documentTotal}
          onGo={commands.goToNumber}
          onClose={commands.goTo.close}
        />
      </main>
    </FullTagsContext>
  );
}
