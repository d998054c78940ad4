// CodeMirror extensions that make inline tags unbreakable: each tag is drawn as a chip (a replace widget), the
// cursor steps over it as one unit (atomic ranges), and no edit typed by hand may change its characters (a
// change filter). The editor's own commands (insert a match, a missing tag, revert) pass `filter: false`.
import { EditorState, type Range, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView, WidgetType } from '@codemirror/view';
import { placedTags, type TagLabel, tagLabels } from '../tags/tag-parts.ts';

class TagChipWidget extends WidgetType {
  constructor(readonly label: TagLabel) {
    super();
  }

  override eq(other: TagChipWidget) {
    return other.label.text === this.label.text && other.label.title === this.label.title;
  }

  toDOM() {
    const chip = document.createElement('span');
    chip.className = `tag-chip ${this.label.role}`;
    chip.textContent = this.label.text;
    chip.title = this.label.title;
    chip.setAttribute('role', 'img');
    chip.setAttribute('aria-label', `tag ${this.label.text}`);
    return chip;
  }
}

function chips(text: string): DecorationSet {
  const tags = placedTags(text);
  if (tags.length === 0) return Decoration.none;
  const labels = tagLabels(tags.map((t) => t.part));
  const ranges: Range<Decoration>[] = tags.map((t, i) =>
    Decoration.replace({ widget: new TagChipWidget(labels[i]) }).range(t.from, t.to),
  );
  return Decoration.set(ranges);
}

const tagChips = StateField.define<DecorationSet>({
  create: (state) => chips(state.doc.toString()),
  update: (deco, tr) => (tr.docChanged ? chips(tr.state.doc.toString()) : deco),
  provide: (field) => [
    EditorView.decorations.from(field),
    EditorView.atomicRanges.of((view) => view.state.field(field)),
  ],
});

/**
 * Changes that reach into a tag are dropped; the rest of the same edit goes through (select all and type: the
 * text is replaced, the tags stay). Text typed right before or after a chip is an insertion at the range's
 * edge, which the filter lets through.
 */
const keepTags = EditorState.changeFilter.of((tr) => {
  const tags = placedTags(tr.startState.doc.toString());
  return tags.length === 0 ? true : tags.flatMap((t) => [t.from, t.to]);
});

/**
 * A deletion that the filter above emptied (Backspace against a chip) does nothing at all: without this the
 * cursor would still jump over the chip, and the next Backspace would eat the text before it.
 */
const stayAtTags = EditorState.transactionFilter.of((tr) =>
  tr.isUserEvent('delete') && !tr.docChanged ? [] : tr,
);

export const tagProtection = [tagChips, keepTags, stayAtTags];
