// Previous/next paging of a table of `total` rows shown `pageSize` at a time, from `offset`.

export function Pager({
  label,
  offset,
  pageSize,
  total,
  onOffset,
}: {
  /** The navigation's accessible name: "Entry pages". */
  label: string;
  offset: number;
  pageSize: number;
  total: number;
  onOffset: (offset: number) => void;
}) {
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="button small"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - pageSize))}
      >
        Previous page
      </button>
      <span className="muted">
        {(offset + 1).toLocaleString()}–{Math.min(offset + pageSize, total).toLocaleString()} of{' '}
        {total.toLocaleString()}
      </span>
      <button
        type="button"
        className="button small"
        disabled={offset + pageSize >= total}
        onClick={() => onOffset(offset + pageSize)}
      >
        Next page
      </button>
    </nav>
  );
}
