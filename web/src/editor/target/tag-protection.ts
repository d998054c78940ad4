// CodeMirror extensions that make inline tags and placeholders unbreakable: each is drawn as a chip (a replace
// widget: a tag by its number or, in full-tag mode, its native markup; a placeholder by its own text), the cursor
// steps over it as one unit (atomic ranges), edits typed by hand never cut one (tag-editing.ts), and the chip
// next to the cursor shows what it stands for in a tooltip — keyboard users see a tag's code as a mouse hover
// shows it.
import { type EditorState, Facet, type Range, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  EditorView,
  showTooltip,
  type Tooltip,
  WidgetType,
} from '@codemirror/view';
import { type TagLabel, tagLabels } from '@server/text/tag-labels.ts';
import { placedTags, protectedUnits } from '../tags/tag-parts.ts';
import { safeTagEditing } from './tag-editing.ts';

/** Whether chips show their full markup (the page's full-tag mode). */
export const fullTags = Facet.define<boolean, boolean>({ combine: (values) => values.some(Boolean) });

class ChipWidget extends WidgetType {
  constructor(
    readonly label: TagLabel,
    readonly full: boolean,
  ) {
    super();
  }

  override eq(other: ChipWidget) {
    return (
      other.full === this.full &&
      other.label.text === this.label.text &&
      other.label.title === this.label.title &&
      other.label.full === this.label.full
    );
  }

  toDOM() {
    const chip = document.createElement('span');
    chip.setAttribute('role', 'img');
    if (this.label.placeholder) {
      chip.className = 'placeholder';
      chip.textContent = this.label.text;
      chip.title = 'placeholder';
      chip.setAttribute('aria-label', `placeholder ${this.label.text}`);
      return chip;
    }
    chip.className = `tag-chip ${this.label.role}${this.full ? ' full' : ''}`;
    chip.textContent = this.full ? this.label.full : this.label.text;
    chip.title = this.label.title;
    chip.setAttribute('aria-label', `tag ${this.label.text}`);
    return chip;
  }
}

interface Chip {
  from: number;
  to: number;
  label: TagLabel;
}

/** Every unit of the text with the label its chip shows. */
function chipsOf(text: string): Chip[] {
  const tags = placedTags(text);
  const labels = tagLabels(tags.map((t) => t.part));
  const byFrom = new Map(tags.map((t, i) => [t.from, labels[i]]));
  return protectedUnits(text).map((u) => ({
    from: u.from,
    to: u.to,
    label: byFrom.get(u.from) ?? {
      text: text.slice(u.from, u.to),
      title: 'placeholder',
      full: text.slice(u.from, u.to),
      role: 'alone',
      placeholder: true,
    },
  }));
}

interface ChipState {
  chips: Chip[];
  decorations: DecorationSet;
}

function build(state: EditorState): ChipState {
  const chips = chipsOf(state.doc.toString());
  const full = state.facet(fullTags);
  const ranges: Range<Decoration>[] = chips.map((c) =>
    Decoration.replace({ widget: new ChipWidget(c.label, full) }).range(c.from, c.to),
  );
  return { chips, decorations: Decoration.set(ranges) };
}

const chipField = StateField.define<ChipState>({
  create: build,
  update: (value, tr) =>
    tr.docChanged || tr.startState.facet(fullTags) !== tr.state.facet(fullTags) ? build(tr.state) : value,
  provide: (field) => [
    EditorView.decorations.from(field, (v) => v.decorations),
    EditorView.atomicRanges.of((view) => view.state.field(field).decorations),
  ],
});

/** The chip just before the cursor, else the one just after it: what the tooltip names. */
function chipAtCursor(state: EditorState): Chip | undefined {
  const { main } = state.selection;
  if (!main.empty) return undefined;
  const { chips } = state.field(chipField);
  return chips.find((c) => c.to === main.head) ?? chips.find((c) => c.from === main.head);
}

function describe(chip: Chip, full: boolean): string | null {
  if (chip.label.placeholder) return `Placeholder ${chip.label.text}`;
  // In full-tag mode the chip already shows its markup; the tooltip adds nothing unless the title says more.
  if (full && chip.label.title === chip.label.full) return null;
  return `Tag ${chip.label.text}: ${chip.label.title}`;
}

interface ChipTooltip extends Tooltip {
  text: string;
}

/** The editor lost the focus: its tooltip goes. */
const hideTooltip = StateEffect.define<null>();

/**
 * Shown when the person moves the cursor next to a chip (keys or mouse); gone with the next edit, a move away,
 * or the focus leaving the editor.
 */
const cursorTooltip = StateField.define<ChipTooltip | null>({
  create: () => null,
  update: (value, tr) => {
    if (tr.effects.some((e) => e.is(hideTooltip))) return null;
    if (!tr.docChanged && !tr.selection && !tr.reconfigured) return value;
    if (tr.docChanged || !tr.isUserEvent('select')) return null;
    const chip = chipAtCursor(tr.state);
    const text = chip && describe(chip, tr.state.facet(fullTags));
    if (!chip || !text) return null;
    if (value && value.pos === chip.from && value.text === text) return value;
    return {
      pos: chip.from,
      above: true,
      text,
      create: () => {
        const dom = document.createElement('div');
        dom.className = 'chip-tooltip';
        dom.setAttribute('role', 'tooltip');
        dom.textContent = text;
        return { dom };
      },
    };
  },
  provide: (field) => showTooltip.from(field),
});

export const tagProtection = [
  chipField,
  safeTagEditing,
  cursorTooltip,
  EditorView.focusChangeEffect.of((_state, focusing) => (focusing ? null : hideTooltip.of(null))),
];
