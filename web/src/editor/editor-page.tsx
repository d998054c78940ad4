// The translation editor (/documents/:id?seg=N&status=…&q=…): the segment grid, the target editor of the active
// segment, matches, concordance, filters and the status bar, all driven from the keyboard through the action
// table. The URL always says where one is, so a link opens the same segment with the same filter.
import type { EditorView } from '@codemirror/view';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type FormEvent,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { Link } from 'wouter';
import { api } from '../api/client.ts';
import {
  type Caller,
  type DocumentSegment,
  type MemoryMatch,
  SEGMENT_STATUSES,
  type SegmentStatus,
  type SegmentsPage,
} from '../api/types.ts';
import { ariaKeys, keysText, tooltip } from '../keyboard/shortcut-label.ts';
import { type ActionHandlers, useActionKeys } from '../keyboard/use-action-keys.ts';
import { type SegmentEvent, useLiveEvents } from '../live/use-live-events.ts';
import { useOnline } from '../live/use-online.ts';
import { busyWith } from '../projects/document-state.ts';
import { ExportButtons } from '../projects/export-buttons.tsx';
import { pair } from '../ui/format.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { ActiveText } from './active-text.ts';
import { ConcordancePanel } from './concordance/concordance-panel.tsx';
import { FilterBar } from './filters/filter-bar.tsx';
import { ShortcutHelp } from './help/shortcut-help.tsx';
import { HistoryPanel, historyKey } from './history/history-panel.tsx';
import { mapMatchTags } from './matches/map-match-tags.ts';
import { MatchesPanel } from './matches/matches-panel.tsx';
import { forgetMatches, PREFETCH_AHEAD, prefetchMatches } from './matches/use-matches.ts';
import { QaList, qaIssues } from './qa/qa-list.tsx';
import { ReplaceDialog } from './replace/replace-dialog.tsx';
import { ConflictDialog } from './save/conflict-dialog.tsx';
import { SegmentSaves } from './save/segment-saves.ts';
import { SegmentInfo } from './segment-info.tsx';
import { PAGE_SIZE } from './segments/locate.ts';
import { SegmentGrid } from './segments/segment-grid.tsx';
import {
  countsKey,
  isUnconfirmed,
  type SegmentFilter,
  useSegmentList,
  writeSegment,
} from './segments/segment-list.ts';
import { insertAllTags, insertNextTag, type TagInsertion } from './tags/missing-tags.ts';
import { setTarget, TargetEditor } from './target/target-editor.tsx';

interface UrlState {
  /** Segment number (position + 1), when the link names one. */
  seg: number | null;
  filter: SegmentFilter;
}

function readUrl(): UrlState {
  const params = new URLSearchParams(window.location.search);
  const seg = Number(params.get('seg'));
  const statuses = (params.get('status') ?? '')
    .split(',')
    .filter((s): s is SegmentStatus => (SEGMENT_STATUSES as readonly string[]).includes(s));
  return {
    seg: Number.isInteger(seg) && seg > 0 ? seg : null,
    filter: { statuses, q: params.get('q') ?? '' },
  };
}

function writeUrl(id: number, seg: number | undefined, filter: SegmentFilter) {
  const params = new URLSearchParams();
  if (seg !== undefined) params.set('seg', String(seg));
  if (filter.statuses.length > 0) params.set('status', filter.statuses.join(','));
  if (filter.q) params.set('q', filter.q);
  const search = params.toString();
  const url = `/documents/${id}${search ? `?${search}` : ''}`;
  if (url !== window.location.pathname + window.location.search) window.history.replaceState(null, '', url);
}

/** After the frame that shows the change: what a person sees, as a performance mark. */
function markAfterPaint(name: string, detail?: unknown) {
  requestAnimationFrame(() => setTimeout(() => performance.mark(name, { detail })));
}

function GoToDialog({
  open,
  total,
  onGo,
  onClose,
}: {
  open: boolean;
  total: number;
  onGo: (n: number) => void;
  onClose: () => void;
}) {
  return (
    <ModalDialog title="Go to segment" open={open} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const n = Number(new FormData(e.currentTarget).get('n'));
          onClose();
          if (n >= 1) onGo(n);
        }}
      >
        <label className="field">
          <span>Segment number</span>
          <input name="n" type="number" min={1} max={total} required autoFocus />
        </label>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary">
            Go
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

export default function EditorPage({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const initial = useMemo(readUrl, []);
  const [filter, setFilter] = useState<SegmentFilter>(initial.filter);
  const unfiltered = initial.filter.statuses.length === 0 && !initial.filter.q;
  const [activeIndex, setActiveIndex] = useState(initial.seg !== null && unfiltered ? initial.seg - 1 : 0);
  const [firstPage, setFirstPage] = useState(Math.floor(activeIndex / PAGE_SIZE));
  const [visiblePages, setVisiblePages] = useState<number[]>([]);
  const [scrollRequest, setScrollRequest] = useState(0);
  const [helpOpen, setHelpOpen] = useState(false);
  const [goToOpen, setGoToOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [concordance, setConcordance] = useState<{ text: string; at: number } | null>(null);
  /** The segment whose confirmation QA errors stopped (until "Confirm anyway" or another segment). */
  const [qaBlocked, setQaBlocked] = useState<number | null>(null);
  const [replaceOpen, setReplaceOpen] = useState(false);
  const [conflictReopen, setConflictReopen] = useState(0);
  /** Bumped when segments change under the editor (replace, restore): the active editor reads its text again. */
  const [generation, setGeneration] = useState(0);
  const view = useRef<EditorView | null>(null);
  const liveRef = useRef(false);
  const searchInput = useRef<HTMLInputElement>(null);
  const activeText = useMemo(() => new ActiveText(), []);

  const doc = useQuery({
    queryKey: ['document', id],
    queryFn: () => api.document(id),
    // Followed live; polled only while the event stream is not open.
    refetchInterval: (q) => (q.state.data && busyWith(q.state.data) && !liveRef.current ? 1000 : false),
  });
  const project = useQuery({
    queryKey: ['project', doc.data?.project_id],
    queryFn: () => api.project(doc.data!.project_id),
    enabled: doc.data !== undefined,
  });
  const memoryId = project.data?.memory_id;
  const list = useSegmentList(id, filter, firstPage, visiblePages);
  const qa = useQuery({ queryKey: ['qa', id], queryFn: () => api.documentQa(id), retry: false });

  /** Segments changed on the server under the editor: read them again. */
  const segmentsChanged = useCallback(async () => {
    queryClient.invalidateQueries({ queryKey: countsKey(id) });
    queryClient.invalidateQueries({ queryKey: ['document', id] });
    queryClient.invalidateQueries({ queryKey: ['qa', id] });
    // The active editor takes its text from the pages read again.
    await queryClient.invalidateQueries({ queryKey: ['segments', id] });
    setGeneration((n) => n + 1);
  }, [queryClient, id]);
  const total = list.total ?? 0;

  // Pre-translation rewrites segments: once it ends, the pages are read again.
  const pretranslating = doc.data?.is_pretranslating;
  useEffect(() => {
    if (pretranslating === false) queryClient.invalidateQueries({ queryKey: ['segments', id] });
  }, [pretranslating, queryClient, id]);

  const memoryRef = useRef(memoryId);
  memoryRef.current = memoryId;
  // One per document for the page's life: it holds what is typed and not yet saved.
  const saves = useMemo(
    () =>
      new SegmentSaves(
        (segment, request) => {
          writeSegment(queryClient, segment);
          queryClient.invalidateQueries({ queryKey: countsKey(segment.document_id) });
          queryClient.invalidateQueries({ queryKey: ['document', segment.document_id] });
          queryClient.invalidateQueries({ queryKey: ['qa', segment.document_id] });
          queryClient.invalidateQueries({ queryKey: historyKey(segment.id) });
          if (request.is_confirmed !== undefined) {
            queryClient.invalidateQueries({ queryKey: ['project'] });
            if (memoryRef.current !== undefined) forgetMatches(queryClient, memoryRef.current);
          }
        },
        { documentId: id, user: queryClient.getQueryData<Caller>(['me'])?.username },
      ),
    [queryClient, id],
  );
  useSyncExternalStore(saves.subscribe, saves.snapshot);
  const summary = saves.summary();

  // What the outbox kept from an earlier visit (a reload, a crash, a lost connection) is sent again, and again
  // whenever the network is back; while edits wait, every ten seconds too (a server that was down).
  useEffect(() => {
    saves.replay();
    const replay = () => saves.replay();
    window.addEventListener('online', replay);
    return () => window.removeEventListener('online', replay);
  }, [saves]);
  // Live: another person's change of a segment shows at once (unless this editor holds unsaved edits of it,
  // which the save's conflict check then settles), and is announced.
  const [liveNote, setLiveNote] = useState('');
  const onLiveSegment = (event: SegmentEvent) => {
    if (event.document_id !== id || saves.hasUnsaved(event.segment_id)) return;
    const v = view.current;
    // Typed here and not yet saved: the save must meet the other change as a conflict, not overwrite it.
    if (v && active?.id === event.segment_id && v.state.doc.toString() !== saves.targetOf(active)) {
      saves.pin(active.id, active.updated_at);
      return;
    }
    let changed: DocumentSegment | undefined;
    let before: string | null = null;
    queryClient.setQueriesData<SegmentsPage>({ queryKey: ['segments', id] }, (page) => {
      if (!page?.segments.some((s) => s.id === event.segment_id)) return page;
      return {
        ...page,
        segments: page.segments.map((s) => {
          if (s.id !== event.segment_id) return s;
          before = s.target;
          changed = {
            ...s,
            target: event.target,
            status: event.status as SegmentStatus,
            is_confirmed: event.status === 'confirmed' || event.status === 'reviewed',
            is_reviewed: event.status === 'reviewed',
            updated_at: event.updated_at,
          };
          return changed;
        }),
      };
    });
    saves.rebase({ id: event.segment_id, updated_at: event.updated_at });
    queryClient.invalidateQueries({ queryKey: countsKey(id) });
    queryClient.invalidateQueries({ queryKey: ['qa', id] });
    const shown = v?.state.doc.toString();
    if (v && active?.id === event.segment_id && shown === (before ?? '') && shown !== (event.target ?? ''))
      setTarget(v, event.target ?? '');
    const me = queryClient.getQueryData<Caller>(['me']);
    if (changed && event.user && event.user !== me?.username) {
      const seg = changed as DocumentSegment;
      setLiveNote(`Segment ${seg.position + 1} ${event.status} by ${event.user}`);
    }
  };
  const live = useLiveEvents(
    { document_id: id },
    {
      segment: onLiveSegment,
      document: (event) => {
        if (event.document_id !== id) return;
        queryClient.invalidateQueries({ queryKey: ['document', id] });
        if (event.reload) queryClient.invalidateQueries({ queryKey: ['segments', id] });
      },
      task: (event) => {
        if (event.document_id === id) queryClient.invalidateQueries({ queryKey: ['document', id] });
      },
    },
  );

  liveRef.current = live;
  const online = useOnline();
  const waiting = summary.pending > 0;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => saves.replay(), 10_000);
    return () => clearInterval(timer);
  }, [waiting, saves]);

  const active = list.rowAt(activeIndex);

  // A link to a segment of a filtered list: find where it is in the list once the list's length is known.
  const located = useRef(initial.seg === null || unfiltered);
  useEffect(() => {
    if (located.current || list.total === undefined) return;
    located.current = true;
    list.locate(list.total, initial.seg! - 1).then((index) => {
      setActiveIndex(index);
      setFirstPage(Math.floor(index / PAGE_SIZE));
      setScrollRequest((n) => n + 1);
    });
  }, [list, initial.seg]);

  useEffect(() => {
    if (located.current) writeUrl(id, active ? active.position + 1 : undefined, filter);
  }, [id, active, filter]);

  // The next segments' matches, so that moving down paints from the cache.
  useEffect(() => {
    if (memoryId === undefined || !active) return;
    const next: string[] = [];
    for (let i = activeIndex + 1; i <= activeIndex + PREFETCH_AHEAD && i < total; i++) {
      const row = list.rowAt(i);
      if (row) next.push(row.source);
    }
    prefetchMatches(queryClient, memoryId, next);
  }, [memoryId, active, activeIndex, total, list, queryClient]);

  /** Saves the target of a segment when it differs from what is saved (or being saved). */
  const commit = useCallback(
    (segment: DocumentSegment | undefined, text: string) => {
      if (segment && text !== saves.targetOf(segment))
        saves.save({ id: segment.id, target: text }, segment.updated_at);
    },
    [saves],
  );

  const moveTo = useCallback(
    (index: number) => {
      if (index < 0 || index >= total) return;
      if (view.current) commit(active, view.current.state.doc.toString());
      performance.mark('tessera:segment-move', { detail: { index } });
      setNotice(null);
      setActiveIndex(index);
      setScrollRequest((n) => n + 1);
    },
    [total, commit, active],
  );

  // Stable for the grid's rows, which re-render only when what they show changes.
  const latestMove = useRef(moveTo);
  latestMove.current = moveTo;
  const activate = useCallback((index: number) => latestMove.current(index), []);

  const changeFilter = useCallback(
    (next: SegmentFilter) => {
      if (view.current) commit(active, view.current.state.doc.toString());
      setFilter(next);
      setActiveIndex(0);
      setFirstPage(0);
      setScrollRequest((n) => n + 1);
    },
    [commit, active],
  );

  const goToNumber = useCallback(
    async (n: number) => {
      const index = await list.locate(total, n - 1);
      moveTo(index);
      setFirstPage(Math.floor(index / PAGE_SIZE));
    },
    [list, total, moveTo],
  );

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
    const mapped = mapMatchTags(match.source, match.target, active.source);
    setTarget(view.current, mapped.target);
    view.current.focus();
    setNotice(
      mapped.dropped.length > 0
        ? `${mapped.dropped.length} tag(s) of the match have no place in this segment: ${keysText('insertNextTag')} inserts what is missing.`
        : null,
    );
  };

  /** Confirms the active segment and moves to the next unconfirmed one; QA errors stop it unless forced. */
  const confirm = async (force: boolean) => {
    if (!active || !view.current) return;
    const text = view.current.state.doc.toString();
    if (text.trim() === '') {
      setNotice('The target is empty: nothing to confirm.');
      return;
    }
    if (!force && qaIssues(active, text, 'confirmed').some((i) => i.severity === 'error')) {
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

  const openReplace = () => {
    if (view.current && active) commit(active, view.current.state.doc.toString());
    setReplaceOpen(true);
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
    saveAndNext: () => moveTo(activeIndex + 1),
    unconfirm: () => {
      if (active && view.current)
        saves.save(
          { id: active.id, target: view.current.state.doc.toString(), is_confirmed: false },
          active.updated_at,
        );
    },
    goToSegment: () => setGoToOpen(true),
    findInDocument: () => searchInput.current?.focus(),
    findReplace: () => openReplace(),
    insertMatch: (n) => {
      if (!active || memoryId === undefined) return;
      insertMatch(queryClient.getQueryData<MemoryMatch[]>(['matches', memoryId, active.source])?.[n - 1]);
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
    help: () => setHelpOpen(true),
  };
  useActionKeys(handlers);

  const onFirstRows = useCallback(() => markAfterPaint('tessera:segments-painted'), []);
  const counts = list.counts;
  const confirmed = counts ? counts.confirmed + counts.reviewed : 0;
  const documentTotal = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : 0;
  const d = doc.data;

  const editor = active && (
    <>
      <TargetEditor
        key={`${active.id}:${generation}`}
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
      <QaList
        segment={active}
        text={activeText}
        blocked={qaBlocked === active.id}
        onConfirmAnyway={() => confirm(true)}
      />
    </>
  );

  return (
    <main className="editor">
      <header className="editor-head">
        <nav className="breadcrumbs" aria-label="Breadcrumbs">
          <Link href="/projects">Projects</Link>
          <span aria-hidden="true">/</span>
          {project.data ? (
            <Link href={`/projects/${project.data.id}`}>{project.data.name}</Link>
          ) : (
            <span>…</span>
          )}
          <span aria-hidden="true">/</span>
        </nav>
        <h1 className="editor-title">{d?.name ?? 'Document'}</h1>
        {d && <span className="mono muted">{pair(d.srclang, d.trglang)}</span>}
        <div className="editor-progress">
          <ProgressBar done={confirmed} total={documentTotal} label="Segments confirmed" />
        </div>
        {d && busyWith(d) && <span className="state-badge busy">{busyWith(d)}…</span>}
        {qa.data && (
          <span
            className={qa.data.counts.error > 0 ? 'qa-count has-errors' : 'qa-count'}
            title="QA issues of the document's segments"
          >
            QA: {qa.data.counts.error} {qa.data.counts.error === 1 ? 'error' : 'errors'},{' '}
            {qa.data.counts.warning} {qa.data.counts.warning === 1 ? 'warning' : 'warnings'}
          </span>
        )}
        <div className="head-actions">
          <button
            type="button"
            className="button small"
            onClick={openReplace}
            title={tooltip('findReplace')}
            aria-keyshortcuts={ariaKeys('findReplace')}
          >
            Replace…
          </button>
          {d && <ExportButtons doc={d} />}
          <button
            type="button"
            className="button small quiet"
            onClick={() => setHelpOpen(true)}
            title={tooltip('help')}
            aria-keyshortcuts="F1"
          >
            Shortcuts
          </button>
        </div>
      </header>
      <FilterBar
        ref={searchInput}
        filter={filter}
        counts={counts}
        total={list.total}
        onChange={changeFilter}
      />
      <div className="editor-body">
        {list.error ? (
          <p className="form-error">{list.error.message}</p>
        ) : list.total === 0 ? (
          <div className="empty">
            <p>
              {filter.statuses.length > 0 || filter.q
                ? 'No segment matches the filter.'
                : 'This document has no segments.'}
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
            onActivate={activate}
            onVisiblePages={setVisiblePages}
            scrollRequest={scrollRequest}
            onFirstRows={onFirstRows}
          />
        )}
        <aside className="side" aria-label="Translation aids">
          <SegmentInfo segment={active} text={activeText} />
          {notice && (
            <p className="notice" role="status">
              {notice}
            </p>
          )}
          <MatchesPanel
            memoryId={memoryId}
            source={active?.source}
            segmentNumber={active ? active.position + 1 : undefined}
            onInsert={insertMatch}
          />
          <ConcordancePanel memoryId={memoryId} request={concordance} />
          <HistoryPanel
            segment={active}
            onRestored={(segment) => {
              writeSegment(queryClient, segment);
              if (view.current && active?.id === segment.id) setTarget(view.current, segment.target ?? '');
              queryClient.invalidateQueries({ queryKey: countsKey(id) });
              queryClient.invalidateQueries({ queryKey: ['qa', id] });
            }}
          />
        </aside>
      </div>
      <footer className="status-bar">
        <span
          role="status"
          className={
            summary.failed.length || summary.conflicts.length || summary.pending
              ? 'save-summary failed'
              : 'save-summary'
          }
        >
          {summary.conflicts.length > 0
            ? `${summary.conflicts.length} in conflict`
            : summary.failed.length > 0
              ? `${summary.failed.length} not saved: ${summary.failed[0].error}`
              : summary.pending > 0
                ? `${summary.pending} pending (offline)`
                : summary.saving > 0
                  ? `Saving ${summary.saving}…`
                  : 'All changes saved'}
        </span>
        {summary.conflicts.length > 0 && (
          <button type="button" className="button small" onClick={() => setConflictReopen((n) => n + 1)}>
            Resolve
          </button>
        )}
        {summary.failed.length > 0 && (
          <button type="button" className="button small" onClick={() => saves.retryFailed()}>
            Retry
          </button>
        )}
        <span className="visually-hidden" role="status">
          {liveNote}
        </span>
        {online ? (
          <span className="live-state muted" title="Changes by others show as they are made">
            {live ? 'Live' : ''}
          </span>
        ) : (
          <span className="offline-note">
            Offline: edits are kept here and sent when the connection is back
          </span>
        )}
        <span className="spacer" />
        <span className="muted">
          {tooltip('confirmAndNext').replace(/ \(.*/, '')}: <kbd>{keysText('confirmAndNext')}</kbd> · Next:{' '}
          <kbd>{keysText('nextSegment')}</kbd> · Matches: <kbd>{keysText('insertMatch')}</kbd> · All
          shortcuts: <kbd>{keysText('help')}</kbd>
        </span>
      </footer>
      <ShortcutHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
      <ConflictDialog
        reopen={conflictReopen}
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
        open={replaceOpen}
        onClose={() => setReplaceOpen(false)}
        onApplied={segmentsChanged}
      />
      <GoToDialog
        open={goToOpen}
        total={documentTotal}
        onGo={goToNumber}
        onClose={() => setGoToOpen(false)}
      />
    </main>
  );
}
