// Joining the active segment with the next and splitting it at the cursor (POST /v2/segments/join, /split):
// where the cursor is in the source (the selection the translator made by clicking in it) and in the target
// (the editor's), the target saved first when it holds unsaved text, and the pages read again after.
import type { EditorView } from '@codemirror/view';
import { ApiError, api } from '../../api/client.ts';
import type { DocumentSegment } from '../../api/types.ts';
import type { SegmentSaves } from '../save/segment-saves.ts';

/**
 * The offset in the tagged source of the caret the translator put in the active segment's source cell (its
 * text runs carry `data-from`, their offset in the tagged string), or null when the selection is elsewhere.
 */
export function sourceCaret(segmentId: number): number | null {
  const cell = document.querySelector(`[data-source-of="${segmentId}"]`);
  const selection = window.getSelection();
  if (!cell || !selection || selection.rangeCount === 0) return null;
  const node = selection.focusNode;
  if (!node || !cell.contains(node)) return null;
  const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement;
  const runElement = element?.closest('[data-from]');
  if (!runElement || !cell.contains(runElement)) return null;
  const before = document.createRange();
  before.selectNodeContents(runElement);
  before.setEnd(node, selection.focusOffset);
  return Number(runElement.getAttribute('data-from')) + before.toString().length;
}

export interface ReshapeDeps {
  saves: SegmentSaves;
  view: { current: EditorView | null };
  /** Reads the pages again and gives the active editor its new text. */
  reload: () => Promise<void>;
  notify: (message: string | null) => void;
}

/** The active segment's target saved when the editor holds other text; answers it as saved, or null. */
async function saved(deps: ReshapeDeps, active: DocumentSegment): Promise<DocumentSegment | null> {
  const text = deps.view.current?.state.doc.toString();
  if (text === undefined || text === (active.target ?? '')) return active;
  return deps.saves.save({ id: active.id, target: text }, active.updated_at);
}

function refused(deps: ReshapeDeps, err: unknown) {
  deps.notify(err instanceof ApiError ? err.message : String(err));
}

/** Joins the active segment with the next one of its paragraph or entry. */
export async function joinWithNext(deps: ReshapeDeps, active: DocumentSegment) {
  const current = await saved(deps, active);
  if (!current) return deps.notify('The target could not be saved: nothing was joined.');
  try {
    await api.joinSegments({ id: current.id, expected_updated_at: current.updated_at });
    deps.notify(`Segments ${active.position + 1} and ${active.position + 2} joined: confirm the whole.`);
    await deps.reload();
  } catch (err) {
    refused(deps, err);
  }
}

/** Splits the active segment where the caret is in its source (and in its target, when it has one). */
export async function splitAtCaret(deps: ReshapeDeps, active: DocumentSegment) {
  const offset = sourceCaret(active.id);
  if (offset === null) {
    return deps.notify('Click in the source where the segment is to be split, then split.');
  }
  const current = await saved(deps, active);
  if (!current) return deps.notify('The target could not be saved: nothing was split.');
  const hasTarget = (current.target ?? '').trim() !== '';
  const targetOffset = hasTarget ? deps.view.current?.state.selection.main.head : undefined;
  try {
    await api.splitSegment({
      id: current.id,
      offset,
      target_offset: targetOffset,
      expected_updated_at: current.updated_at,
    });
    deps.notify(
      hasTarget
        ? `Segment ${active.position + 1} split at the cursor, its target where the target's cursor was.`
        : `Segment ${active.position + 1} split at the cursor.`,
    );
    await deps.reload();
  } catch (err) {
    refused(deps, err);
  }
}
