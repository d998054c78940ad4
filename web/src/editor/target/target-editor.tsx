// The target editor of the segment being translated: CodeMirror 6 with unbreakable tag and placeholder chips and
// formatting marks, named "Target N" for assistive technology (and the tests), reporting its text as it changes
// and when focus leaves.
import { history, historyKeymap, standardKeymap } from '@codemirror/commands';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { useFullTags } from '../tags/tag-display.ts';
import { targetFormattingMarks } from './formatting-marks.ts';
import { fullTags, tagProtection } from './tag-protection.ts';

/** The nonce the page's Content-Security-Policy allows styles with (src/http/web-app.ts puts it in a meta). */
const styleNonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';

export interface TargetEditorProps {
  number: number;
  lang: string;
  initial: string;
  autoFocus: boolean;
  onChange: (text: string) => void;
  onBlur: (text: string) => void;
  /** The view, for the editor's commands (insert a match, a tag, revert). */
  onView: (view: EditorView | null) => void;
  /**
   * Why the caller may not change this target (another stage's document, a locked segment), or undefined: the
   * editor then takes the focus and moves, but no typing (aria-readonly, the reason as its description).
   */
  readOnly?: string;
}

/** Replaces the whole target; the editor's own edits may place tags, so they skip the tag filter. */
export function setTarget(view: EditorView, text: string) {
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    selection: { anchor: text.length },
    filter: false,
    userEvent: 'input.replace',
  });
}

export function TargetEditor({
  number,
  lang,
  initial,
  autoFocus,
  onChange,
  onBlur,
  onView,
  readOnly,
}: TargetEditorProps) {
  const parent = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onChange, onBlur, onView });
  callbacks.current = { onChange, onBlur, onView };
  const full = useFullTags();
  const tagMode = useRef({ compartment: new Compartment(), view: null as EditorView | null, full });

  // The view lives as long as this segment is the one being edited; props read at creation are fixed for it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new view per segment, not per render
  useEffect(() => {
    const view = new EditorView({
      parent: parent.current!,
      state: EditorState.create({
        doc: initial,
        extensions: [
          EditorView.cspNonce.of(styleNonce),
          history(),
          keymap.of([...historyKeymap, ...standardKeymap]),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({
            'aria-label': `Target ${number}`,
            lang,
            spellcheck: 'true',
            ...(readOnly ? { 'aria-readonly': 'true', title: readOnly } : {}),
          }),
          EditorState.readOnly.of(readOnly !== undefined),
          tagMode.current.compartment.of(fullTags.of(full)),
          tagProtection,
          targetFormattingMarks,
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
          EditorView.domEventHandlers({
            blur: (_event, v) => {
              callbacks.current.onBlur(v.state.doc.toString());
            },
          }),
        ],
      }),
    });
    tagMode.current.view = view;
    callbacks.current.onView(view);
    // Takes the focus only when nothing else holds it (the previous segment's editor has just gone): never
    // from the search field being typed in or an open dialog. The grid asks for it after a move.
    const free = !document.activeElement || document.activeElement === document.body;
    if (autoFocus && free) {
      view.focus();
      view.dispatch({ selection: { anchor: view.state.doc.length } });
    }
    return () => {
      tagMode.current.view = null;
      callbacks.current.onView(null);
      view.destroy();
    };
  }, []);

  // Full-tag mode switched while this segment is open: its chips redraw.
  useEffect(() => {
    const { view, compartment } = tagMode.current;
    if (!view || tagMode.current.full === full) return;
    tagMode.current.full = full;
    view.dispatch({ effects: compartment.reconfigure(fullTags.of(full)) });
  }, [full]);

  return <div ref={parent} className="target-editor" />;
}
