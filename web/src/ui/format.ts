// How values are written on screen: dates, counts, sizes, language pairs, states.
import type { ProjectState, SegmentStatus } from '../api/types.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** A Unix-seconds timestamp as a date. */
export const formatDate = (seconds: number) => dateFormat.format(new Date(seconds * 1000));

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** A Unix-seconds timestamp as a date and time (to the minute). */
export const formatDateTime = (seconds: number) => dateTimeFormat.format(new Date(seconds * 1000));

export const formatCount = (n: number) => n.toLocaleString();

/** A count with its noun, singular for one and plural otherwise: `plural(1, 'match', 'matches')` → "1 match". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** Progress through a file: "42 % · 12.3 MB of 29.1 MB". */
export function bytesProgress(done: number, total: number): string {
  const percent = total === 0 ? 0 : Math.floor((100 * Math.min(done, total)) / total);
  return `${percent} % · ${formatBytes(done)} of ${formatBytes(total)}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(0)} kB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

export const pair = (srclang: string, trglang: string) => `${srclang} → ${trglang}`;

export const PROJECT_STATES: Record<ProjectState, string> = {
  backlog: 'Backlog',
  inProgress: 'In progress',
  inReview: 'In review',
  inQA: 'In QA',
  done: 'Done',
};

export const STATUS_NAMES: Record<SegmentStatus, string> = {
  new: 'New',
  draft: 'Draft',
  pretranslated: 'Pre-translated',
  confirmed: 'Confirmed',
  reviewed: 'Reviewed',
};
