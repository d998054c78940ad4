// Progress of the API commands on stderr: a bar on a terminal; elsewhere plain lines, on each change of state
// and every few seconds.
import { SingleBar } from 'cli-progress';

/** Between changes of state, plain lines (logs, CI) come this often at most. */
const PLAIN_EVERY_MS = 2000;
/** Rate and time left are measured over the last few seconds, so that a stall or a burst shows soon. */
const RATE_WINDOW_MS = 5000;

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)}s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** One phase of a command's work counted in bytes against a known total: an upload, a task reading a file. */
export class ByteProgress {
  private readonly bar: SingleBar | undefined;
  private readonly samples: { at: number; done: number }[] = [];
  private readonly started = Date.now();
  private done = 0;
  private total = 0;
  private state = '';
  private lastLine = Date.now();

  constructor(private readonly label: string) {
    this.bar = process.stderr.isTTY
      ? new SingleBar({
          format: `${label} [{bar}] {percentage}% {value}/{total}{figures}`,
          formatValue: (v, _options, type) =>
            type === 'value' || type === 'total' ? formatBytes(v) : String(v),
          stream: process.stderr,
        })
      : undefined;
  }

  update(done: number, total: number, state = ''): void {
    const now = Date.now();
    const changed = state !== this.state;
    this.done = done;
    this.total = total;
    this.state = state;
    this.samples.push({ at: now, done });
    while (this.samples.length > 2 && now - this.samples[0]!.at > RATE_WINDOW_MS) this.samples.shift();
    if (this.bar) {
      this.draw(this.bar);
    } else if (changed || now - this.lastLine >= PLAIN_EVERY_MS) {
      this.writeLine();
      this.lastLine = now;
    }
  }

  /**
   * Ends the phase, with its last figures when they are new: the bar stays as last drawn; elsewhere one
   * closing line with the time it took.
   */
  finish(done = this.done, total = this.total, state = this.state): void {
    this.done = done;
    this.total = total;
    this.state = state;
    if (this.bar) {
      this.draw(this.bar);
      this.bar.stop();
    } else if (this.samples.length > 0) {
      this.writeLine(`in ${formatDuration((Date.now() - this.started) / 1000)}`);
    }
  }

  private draw(bar: SingleBar): void {
    // Started at the first figures, so that a failure before them (no such file) leaves no empty bar.
    if (!bar.isActive) bar.start(this.total, this.done, this.figures());
    bar.setTotal(this.total);
    bar.update(this.done, this.figures());
  }

  private writeLine(tail = this.rateAndLeft().join(', ')): void {
    const percent = this.total > 0 ? Math.floor((100 * this.done) / this.total) : 100;
    const parts = [
      this.state,
      `${formatBytes(this.done)}/${formatBytes(this.total)} (${percent}%)`,
      tail,
    ].filter(Boolean);
    process.stderr.write(`${this.label}: ${parts.join(', ')}\n`);
  }

  private figures(): { figures: string } {
    const parts = [...this.rateAndLeft(), this.state].filter(Boolean);
    return { figures: parts.map((part) => ` | ${part}`).join('') };
  }

  /** The bytes a second over the window and the time left at that rate; nothing before there is a rate. */
  private rateAndLeft(): string[] {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < 500 || last.done <= first.done) return [];
    const perSecond = ((last.done - first.done) * 1000) / (last.at - first.at);
    const rate = `${formatBytes(Math.round(perSecond))}/s`;
    const remaining = this.total - this.done;
    return remaining > 0 ? [rate, `${formatDuration(remaining / perSecond)} left`] : [rate];
  }
}

/** A phase whose progress has no figures (a document being parsed or pre-translated): its state only. */
export class StateProgress {
  private readonly bar: SingleBar | undefined;
  private state = '';
  private lastLine = 0;

  constructor(private readonly label: string) {
    // Cleared when done: the command's answer on stdout says how it ended.
    this.bar = process.stderr.isTTY
      ? new SingleBar({ format: `${label}: {state}`, stream: process.stderr, clearOnComplete: true })
      : undefined;
    this.bar?.start(1, 0, { state: '…' });
  }

  update(state: string): void {
    const now = Date.now();
    if (this.bar) this.bar.update({ state });
    else if (state !== this.state || now - this.lastLine >= PLAIN_EVERY_MS) {
      process.stderr.write(`${this.label}: ${state}\n`);
      this.lastLine = now;
    }
    this.state = state;
  }

  finish(): void {
    this.bar?.stop();
  }
}
