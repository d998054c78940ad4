// What the editor's commands do — move, confirm, go to, insert a match, copy the source, insert tags, search the
// concordance, revert, switch full-tag mode, open find and replace or the shortcuts — bound to the action
// table's keys, and the state they leave: a notice, a confirmation QA stopped, the concordance search, which
// dialog is open.
import type { EditorView } from '@codemirror/view';
import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useCallback, useRef, useState } from 'react';
import { matchesKey } from '../../api/keys/memories.ts';
import type { DocumentQa, DocumentSegment, MemoryMatch } from '../../api/types.ts';
import { keysText } from '../../keyboard/shortcut-label.ts';
import { type ActionHandlers, useActionKeys } from '../../keyboard/use-action-keys.ts';
import { projectMatch } from '../matches/map-match-tags.ts';
import { cachedMtRepairs } from '../matches/use-mt-repairs.ts';
import { cachedMtSuggestion } from '../matches/use-mt-suggestion.ts';
import type { Navigation, Position } from '../position/use-position.ts';
import { qaIssues } from '../qa/qa-list.tsx';
import type { SegmentSaves } from '../save/segment-saves.ts';
import { isUnconfirmed, isUnfiltered, type SegmentFilter } from '../segments/segment-list.ts';
import { insertAllTags, insertNextTag, type TagInsertion } from '../tags/missing-tags.ts';
import { setTarget } from '../target/target-editor.tsx';
import { cachedGlossary } from '../terms/use-glossary.ts';
import { joinWithNext, splitAtCaret } from './reshape.ts';

/** A concordance search asked from the keyboard; `at` tells two searches of the same text apart. */
export interface ConcordanceRequest {
  text: string;
  at: number;
}

export function useCommands({
  position,
  saves,
  commit,
  view,
  memoryId,
  searchInput,
  toggleFullTags,
  qa,
  reload,
  reviewMode = false,
  canSendBack = false,
  canReplace = true,
}: {
  position: Position;
  saves: SegmentSaves;
  commit: (segment: DocumentSegment | undefined, text: string) => void;
  /** The target editor of the active segment. */
  view: RefObject<EditorView | null>;
  memoryId: number | undefined;
  /** The filter bar's search field (Find in document). */
  searchInput: RefObject<HTMLInputElement | null>;
  /** Switches tag chips between their number and their full markup. */
  toggleFullTags: () => void;
  /** The document's QA report (F8, the QA list). */
  qa: DocumentQa | undefined;
  /** Reads the pages again and gives the active editor its text (after a join or a split). */
  reload: () => Promise<void>;
  /** Review mode: Ctrl+Enter sets Reviewed (docs/EDITOR.md, Review mode). */
  reviewMode?: boolean;
  /** Whether the caller may send the active segment back (Alt+Shift+R does nothing otherwise). */
  canSendBack?: boolean;
  /** Whether the document is in the caller's stage: Replace changes targets, which the server refuses otherwise. */
  canReplace?: boolean;
}) {
  const queryClient = useQueryClient();
  const { list, total, active, activeIndex, select, readPageOf, applyFilter, refocus } = position;
  const [notice, setNotice] = useState<string | null>(null);
  const [concordance, setConcordance] = useState<ConcordanceRequest | null>(null);
  /** The segment whose confirmation QA errors stopped (until "Confirm anyway" or another segment). */
  const [qaBlocked, setQaBlocked] = useState<number | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [goToOpen, setGoToOpen] = useState(false);
  const [replaceOpen, setReplaceOpen] = useState(false);
  const [qaListOpen, setQaListOpen] = useState(false);
  const [sendBackOpen, setSendBackOpen] = useState(false);
  const [commentRequest, setCommentRequest] = useState(0);

  const moveTo = useCallback(
    (index: number, how?: Navigation) => {
      if (index < 0 || index >= total) return;
      if (view.current) commit(active, view.current.state.doc.toString());
      performance.mark('tessera:segment-move', { detail: { index } });
      setNotice(null);
      select(index, how);
    },
    [total, commit, active, view, select],
  );

  // Stable for the grid's rows, which re-render only when what they show changes.
  const latestMove = useRef(moveTo);
  latestMove.current = moveTo;
  const activate = useCallback((index: number, how: Navigation) => latestMove.current(index, how), []);

  /** Another filter; `focus` false leaves the focus where it is (the search field being typed in). */
  const changeFilter = useCallback(
    (next: SegmentFilter, focus = true) => {
      if (view.current) commit(active, view.current.state.doc.toString());
      setNotice(null);
      applyFilter(next, focus);
    },
    [commit, active, view, applyFilter],
  );

  const goToNumber = useCallback(
    async (n: number) => {
      const index = await list.locate(total, n - 1);
      moveTo(index);
      readPageOf(index);
    },
    [list, total, moveTo, readPageOf],
  );

  /**
   * The segment at `position` (a QA issue's): in this list when its filter keeps it (none, or only segments with
   * QA issues), else with the filter cleared.
   */
  const showPosition = (at: number) => {
    const { filter } = position;
    if (
      isUnfiltered(filter) ||
      (filter.qa && !filter.q && !filter.repeated && filter.statuses.length === 0)
    ) {
      goToNumber(at + 1);
      return;
    }
    if (view.current) commit(active, view.current.state.doc.toString());
    applyFilter({ statuses: [], q: '', repeated: false }, true, at);
  };

  const applyInsertion = (insertion: TagInsertion | null) => {
    const v = view.current;
    if (!v) return;
    if (!insertion) {
      setNotice('Every tag of the source is in the target.');
      return;
    }
    v.dispatch({
      changes: insertion.changes,
      selection: { anchor: insertion.cursor },
      filter: false,
      userEvent: 'input',
    });
    v.focus();
  };

  const insertMatch = (match: MemoryMatch | undefined) => {
    if (!match || !active || !view.current) return;
    const mapped = projectMatch(match.source, match.target, active.source, active.trglang);
    setTarget(view.current, mapped.target);
    view.current.focus();
    setNotice(
      mapped.dropped.length > 0
        ? `${mapped.dropped.length} tag(s) of the match have no place in this segment: ${keysText('insertNextTag')} inserts what is missing.`
        : null,
    );
  };

  const insertMt = (target: string | null | undefined) => {
    if (!target || !active || !view.current) return;
    setTarget(view.current, target);
    view.current.focus();
    setNotice(null);
  };

  /** Confirms the active segment and moves to the next unconfirmed one; QA errors stop it unless forced. */
  const confirm = async (force: boolean) => {
    if (!active || !view.current) return;
    const text = view.current.state.doc.toString();
    if (text.trim() === '') {
      setNotice('The target is empty: nothing to confirm.');
      return;
    }
    const glossary = cachedGlossary(queryClient, active.document_id);
    if (!force && qaIssues(active, text, 'confirmed', glossary).some((i) => i.severity === 'error')) {
      setQaBlocked(active.id);
      return;
    }
    if (force) console.info(`Segment ${active.position + 1} confirmed despite QA errors`);
    setQaBlocked(null);
    saves.save({ id: active.id, target: text, is_confirmed: true }, active.updated_at);
    const index = await list.findAfter(activeIndex, total, (s) => isUnconfirmed(s) && s.id !== active.id);
    if (index === null) setNotice('Confirmed. No unconfirmed segment after this one.');
    else moveTo(index);
  };

  /**
   * Review mode's Ctrl+Enter: the segment reviewed (and so confirmed) with the target as it stands — the
   * reviewer's edits included — and on to the next segment not reviewed yet. QA errors stop it as they stop a
   * confirmation.
   */
  const review = async (force: boolean) => {
    if (!active || !view.current) return;
    const text = view.current.state.doc.toString();
    if (text.trim() === '') {
      setNotice('The target is empty: nothing to review.');
      return;
    }
    const glossary = cachedGlossary(queryClient, active.document_id);
    if (!force && qaIssues(active, text, 'reviewed', glossary).some((i) => i.severity === 'error')) {
      setQaBlocked(active.id);
      return;
    }
    setQaBlocked(null);
    saves.save({ id: active.id, target: text, is_confirmed: true, is_reviewed: true }, active.updated_at);
    const index = await list.findAfter(
      activeIndex,
      total,
      (s) => s.status !== 'reviewed' && s.id !== active.id,
    );
    if (index === null) setNotice('Reviewed. No segment after this one is left to review.');
    else moveTo(index);
  };

  const openReplace = () => {
    if (!canReplace) return;
    if (view.current && active) commit(active, view.current.state.doc.toString());
    setReplaceOpen(true);
  };

  /** Send back: what is typed is saved first, so that the segment is sent back as it stands. */
  const openSendBack = () => {
    if (!active || !canSendBack) return;
    if (view.current) commit(active, view.current.state.doc.toString());
    setSendBackOpen(true);
  };

  const handlers: ActionHandlers = {
    nextSegment: () => moveTo(activeIndex + 1),
    previousSegment: () => moveTo(activeIndex - 1),
    nextUnconfirmed: async () => {
      const index = await list.findAfter(activeIndex, total, isUnconfirmed);
      if (index === null) setNotice('No unconfirmed segment after this one.');
      else moveTo(index);
    },
    confirmAndNext: () => confirm(false),
    reviewAndNext: () => review(false),
    unreview: () => {
      if (!active || !view.current) return;
      const text = view.current.state.doc.toString();
      // The same text stays confirmed; another one is a new target, which unconfirms as any edit does.
      saves.save(
        text === active.target
          ? { id: active.id, target: text, is_confirmed: true, is_reviewed: false }
          : { id: active.id, target: text, is_reviewed: false },
        active.updated_at,
      );
    },
    saveAndNext: () => moveTo(activeIndex + 1),
    unconfirm: () => {
      if (active && view.current)
        saves.save(
          { id: active.id, target: view.current.state.doc.toString(), is_confirmed: false },
          active.updated_at,
        );
    },
    goToSegment: () => setGoToOpen(true),
    nextQaIssue: () => {
      const next = qa?.issues.find((i) => i.position > (active?.position ?? -1));
      if (next) showPosition(next.position);
      else setNotice(qa ? 'No QA issue after this segment.' : 'The document is being checked.');
    },
    findInDocument: () => searchInput.current?.focus(),
    findReplace: () => openReplace(),
    insertMatch: (n) => {
      if (!active || memoryId === undefined) return;
      insertMatch(
        queryClient.getQueryData<MemoryMatch[]>(matchesKey(memoryId, active.source, active.id))?.[n - 1],
      );
    },
    insertMt: () => {
      if (!active || memoryId === undefined) return;
      insertMt(cachedMtSuggestion(queryClient, memoryId, active.source)?.target);
    },
    insertRepair: () => {
      if (!active || memoryId === undefined) return;
      // The repair is the match's target patched: its tags are the match's, mapped like an inserted match's
      // would be only when they differ from this source's — the repair keeps them where the match had them.
      insertMt(cachedMtRepairs(queryClient, memoryId, active.source)?.repairs[0]?.target);
    },
    copySource: () => {
      if (active && view.current) setTarget(view.current, active.source);
    },
    insertNextTag: () => {
      const v = view.current;
      if (active && v)
        applyInsertion(insertNextTag(active.source, v.state.doc.toString(), v.state.selection.main));
    },
    insertAllTags: () => {
      const v = view.current;
      if (active && v)
        applyInsertion(insertAllTags(active.source, v.state.doc.toString(), v.state.selection.main.head));
    },
    concordance: () => {
      const v = view.current;
      if (!v) return;
      const { from, to, head } = v.state.selection.main;
      const word = from === to ? v.state.wordAt(head) : null;
      const text =
        from !== to ? v.state.sliceDoc(from, to) : word ? v.state.sliceDoc(word.from, word.to) : '';
      if (text.trim()) setConcordance({ text: text.trim(), at: Date.now() });
    },
    revert: () => {
      if (!active || !view.current) return;
      setTarget(view.current, active.target ?? '');
      saves.discard(active.id);
    },
    toggleFullTags: () => toggleFullTags(),
    joinSegments: () => active && joinWithNext({ saves, view, reload, notify: setNotice }, active),
    splitSegment: () => active && splitAtCaret({ saves, view, reload, notify: setNotice }, active),
    commentOnSegment: () => setCommentRequest((n) => n + 1),
    rejectSegment: () => openSendBack(),
    help: () => setHelpOpen(true),
  };
  useActionKeys(handlers, reviewMode ? 'review' : 'translate');

  return {
    notice,
    concordance,
    qaBlocked,
    activate,
    changeFilter,
    goToNumber,
    insertMatch,
    insertMt: (target: string) => insertMt(target),
    insertRepair: (target: string) => insertMt(target),
    confirm,
    /** What "Confirm anyway" does in this mode. */
    confirmAnyway: () => (reviewMode ? review(true) : confirm(true)),
    openReplace,
    // A dialog closed: the focus goes back into the active target (where it came from).
    help: {
      open: helpOpen,
      show: () => setHelpOpen(true),
      close: () => {
        setHelpOpen(false);
        refocus();
      },
    },
    goTo: {
      open: goToOpen,
      close: () => {
        setGoToOpen(false);
        refocus();
      },
    },
    replace: {
      open: replaceOpen,
      close: () => {
        setReplaceOpen(false);
        refocus();
      },
    },
    qaList: {
      open: qaListOpen,
      show: () => setQaListOpen(true),
      close: () => {
        setQaListOpen(false);
        refocus();
      },
    },
    commentRequest,
    sendBack: {
      open: sendBackOpen,
      show: openSendBack,
      close: () => {
        setSendBackOpen(false);
        refocus();
      },
    },
    showPosition,
    refocus,
  };
}
