// The target editor of the segment being translated: CodeMirror 6 with unbreakable tag chips, named
// "Target N" for assistive technology (and the tests), reporting its text as it changes and when focus leaves.
import { history, historyKeymap, standardKeymap } from '@codemirror/commands';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { tagProtection } from './tag-protection.ts';

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
}: TargetEditorProps) {
  const parent = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onChange, onBlur, onView });
  callbacks.current = { onChange, onBlur, onView };

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
          EditorView.contentAttributes.of({ 'aria-label': `Target ${number}`, lang, spellcheck: 'true' }),
          tagProtection,
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
    callbacks.current.onView(view);
    if (autoFocus) {
      view.focus();
      view.dispatch({ selection: { anchor: view.state.doc.length } });
    }
    return () => {
      callbacks.current.onView(null);
      view.destroy();
    };
  }, []);

  return <div ref={parent} className="target-editor" />;
}
