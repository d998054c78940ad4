// The target editor's formatting marks, the same as everywhere else (marks/formatting-marks.ts): a sign after each
// line break (which stays a line break), over each tab, no-break space, doubled or edge space.
import { type EditorState, type Range, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView, WidgetType } from '@codemirror/view';
import { formattingMarks } from '../marks/formatting-marks.ts';

class LineBreakSign extends WidgetType {
  override eq() {
    return true;
  }

  toDOM() {
    const sign = document.createElement('span');
    sign.className = 'ws-newline-sign';
    sign.setAttribute('role', 'img');
    sign.setAttribute('aria-label', 'line break');
    sign.textContent = '↵';
    return sign;
  }

  override ignoreEvent() {
    return false;
  }
}

const lineBreak = Decoration.widget({ widget: new LineBreakSign(), side: -1 });

function build(state: EditorState): DecorationSet {
  const ranges: Range<Decoration>[] = [];
  for (const m of formattingMarks(state.doc.toString())) {
    // A line break is no character of a line: its sign goes at the end of the line it ends.
    if (m.kind === 'newline') ranges.push(lineBreak.range(m.start));
    else
      ranges.push(
        Decoration.mark({
          class: `ws ws-${m.kind}`,
          attributes: { 'data-sign': m.sign, title: m.label, role: 'img', 'aria-label': m.label },
        }).range(m.start, m.end),
      );
  }
  return Decoration.set(ranges, true);
}

export const targetFormattingMarks = StateField.define<DecorationSet>({
  create: build,
  update: (deco, tr) => (tr.docChanged ? build(tr.state) : deco),
  provide: (field) => EditorView.decorations.from(field),
});
