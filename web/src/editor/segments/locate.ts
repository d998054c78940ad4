// Where a segment number falls in a filtered list: the list is sorted by position, so a binary search over its
// pages finds it in a few page reads whatever the document's length.

/** Rows a page of the editor's list holds. */
export const PAGE_SIZE = 100;

/** The lowest index in the sorted positions of a filtered list whose position is at least `position`. */
export async function lowerBound(
  total: number,
  pageAt: (page: number) => Promise<readonly { position: number }[]>,
  position: number,
): Promise<number> {
  let lo = 0;
  let hi = Math.ceil(total / PAGE_SIZE) - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const rows = await pageAt(mid);
    if (rows.length > 0 && rows[rows.length - 1].position < position) lo = mid + 1;
    else hi = mid;
  }
  if (total === 0) return 0;
  const rows = await pageAt(lo);
  const within = rows.findIndex((r) => r.position >= position);
  return within < 0 ? Math.min(total - 1, lo * PAGE_SIZE + rows.length) : lo * PAGE_SIZE + within;
}
