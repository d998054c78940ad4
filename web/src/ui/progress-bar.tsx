// A thin progress bar with its figures beside it; a real progressbar for assistive technology.

/** The figures as counts: "1,200 / 4,402". */
const countFigures = (done: number, total: number) => `${done.toLocaleString()} / ${total.toLocaleString()}`;

export function ProgressBar({
  done,
  total,
  label,
  figures = countFigures,
}: {
  done: number;
  total: number;
  label: string;
  /** How the figures are written (bytes of a file: bytesProgress of format.ts); counts by default. */
  figures?: (done: number, total: number) => string;
}) {
  const percent = total === 0 ? 0 : Math.round((100 * done) / total);
  const text = figures(done, total);
  const spoken = figures === countFigures ? `${done.toLocaleString()} of ${total.toLocaleString()}` : text;
  return (
    <div className="progress">
      <div
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={spoken}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="progress-figures">{text}</span>
    </div>
  );
}
