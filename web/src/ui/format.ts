// How values are written on screen: dates, counts, sizes, language pairs, states.
import type { ProjectState, SegmentStatus } from '../api/types.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** A Unix-seconds timestamp as a date. */
export const formatDate = (seconds: number) => dateFormat.format(new Date(seconds * 1000));

export const formatCount = (n: number) => n.toLocaleString();

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
