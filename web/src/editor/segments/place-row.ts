// Where the list scrolls to show the active row: a third down the list after a move, so that the rows before it
// stay in sight and the row, its editor and its QA lines never sit at the bottom edge behind the status bar; or
// only as far as needed after a click. Pure, for the grid and its unit test.

export interface RowBox {
  start: number;
  size: number;
}

export interface Viewport {
  /** The list's scroll offset now. */
  top: number;
  /** The height of its visible area. */
  height: number;
  /** The height of the whole list. */
  total: number;
  align: 'third' | 'nearest';
}

/** Room left above a row brought to the top, so that its edge is seen. */
const MARGIN = 8;

/** The scroll offset that shows `row` as asked, within the list's bounds. */
export function placeRow(row: RowBox, view: Viewport): number {
  const max = Math.max(0, view.total - view.height);
  const clamp = (offset: number) => Math.round(Math.min(max, Math.max(0, offset)));
  const third = Math.round(view.height / 3);
  // A row taller than what is below the third starts near the top instead: as much of it as fits is seen.
  const tall = row.size > view.height - third - MARGIN;
  if (view.align === 'third') return clamp(row.start - (tall ? MARGIN : third));
  const end = row.start + row.size;
  if (row.start >= view.top && end <= view.top + view.height) return clamp(view.top);
  if (row.start < view.top || row.size > view.height - 2 * MARGIN) return clamp(row.start - MARGIN);
  return clamp(end - view.height + MARGIN);
}
