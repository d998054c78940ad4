// The editor's term commands, bound to the action table's keys beside the others (a second listener: the
// first leaves keys it has no handler for): Alt+Shift+N inserts the N-th term of the Terms panel at the cursor,
// Alt+Shift+A opens "Add a term" with the words selected in the source and in the target. Adding a term is a
// project manager's (POST /v2/memories/terms is MANAGERS in the route policy): a translator is told so.
import type { EditorView } from '@codemirror/view';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { Caller, DocumentSegment } from '../../api/types.ts';
import { isManager } from '../../auth/roles.ts';
import { useActionKeys } from '../../keyboard/use-action-keys.ts';
import { insertableTerms, termsOfSource } from './term-choices.ts';
import { useDocumentGlossary } from './use-glossary.ts';

/** What "Add a term" opens with: the words selected in the source and in the target. */
export interface TermRequest {
  source: string;
  target: string;
  /** Bumped by each request, so that the dialog starts afresh. */
  at: number;
}

/**
 * The text last selected in the active segment's source: the selection leaves the source when the translator
 * goes on to select in the target, so it is remembered as it is made.
 */
function useSourceSelection(segmentId: number | undefined) {
  const last = useRef<{ segmentId: number; text: string } | null>(null);
  useEffect(() => {
    const onChange = () => {
      const selection = document.getSelection();
      if (!selection || selection.isCollapsed || !selection.anchorNode) return;
      const node =
        selection.anchorNode instanceof Element ? selection.anchorNode : selection.anchorNode.parentElement;
      const cell = node?.closest('[data-source-of]');
      if (!cell) return;
      const text = selection.toString().replace(/\s+/g, ' ').trim();
      if (text) last.current = { segmentId: Number(cell.getAttribute('data-source-of')), text };
    };
    document.addEventListener('selectionchange', onChange);
    return () => document.removeEventListener('selectionchange', onChange);
  }, []);
  return useCallback(
    () => (last.current && last.current.segmentId === segmentId ? last.current.text : ''),
    [segmentId],
  );
}

export function useTermCommands({
  documentId,
  active,
  view,
  caller,
  reviewMode,
  readOnly,
}: {
  documentId: number;
  active: DocumentSegment | undefined;
  view: RefObject<EditorView | null>;
  caller: Caller;
  reviewMode: boolean;
  /** Why the active target may not be changed, if it may not: no term is inserted then. */
  readOnly: string | undefined;
}) {
  const { glossary, memoryId } = useDocumentGlossary(documentId);
  const [notice, setNotice] = useState<string | null>(null);
  const [request, setRequest] = useState<TermRequest | null>(null);
  const sourceSelection = useSourceSelection(active?.id);
  const mayAdd = isManager(caller.role);

  // A notice is about the segment it was given on.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared when the active segment changes
  useEffect(() => setNotice(null), [active?.id]);

  /** Puts text at the cursor of the active target (in place of its selection). */
  const insertText = useCallback(
    (text: string) => {
      const v = view.current;
      if (!v || readOnly !== undefined) return;
      v.dispatch(v.state.replaceSelection(text));
      v.focus();
    },
    [view, readOnly],
  );

  useActionKeys(
    {
      insertTerm: (n) => {
        if (!active) return;
        const term = insertableTerms(termsOfSource(glossary, active.source))[n - 1];
        if (term) insertText(term.text);
        else setNotice(`The Terms panel has no term ${n} to insert.`);
      },
      addTerm: () => {
        if (!active) return;
        if (!mayAdd) {
          setNotice(
            'Adding a term to the termbase needs the project manager role: ask your project manager.',
          );
          return;
        }
        if (memoryId === undefined) {
          setNotice('The project has no memory to add the term to.');
          return;
        }
        const v = view.current;
        const range = v?.state.selection.main;
        const target = v && range && !range.empty ? v.state.sliceDoc(range.from, range.to).trim() : '';
        setRequest({ source: sourceSelection(), target, at: Date.now() });
      },
    },
    reviewMode ? 'review' : 'translate',
  );

  return {
    insertText,
    notice,
    mayAdd,
    memoryId,
    addTerm: { request, close: () => setRequest(null) },
  };
}
