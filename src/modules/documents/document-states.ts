// A document's three state machines — import, pre-translation, export — their named transitions, and the one
// definition of "busy" that refuses an export or a second operation while another is under way.

/** A document's place in its project's workflow; `done` once its last stage is finished. */
export const STAGES = Object.freeze({
  translate: 'translate',
  review: 'review',
  review2: 'review2',
  done: 'done',
} as const);
export type Stage = (typeof STAGES)[keyof typeof STAGES];

export const IMPORT_STATES = Object.freeze({
  /** The upload is being stored: the document is invisible and no worker may parse it yet. */
  uploading: 'uploading',
  /** Stored whole; its parse task is queued. */
  pending: 'pending',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
} as const);
export type ImportState = (typeof IMPORT_STATES)[keyof typeof IMPORT_STATES];

export const PRETRANSLATE_STATES = Object.freeze({
  idle: 'idle',
  pending: 'pending',
  running: 'running',
} as const);
export type PretranslateState = (typeof PRETRANSLATE_STATES)[keyof typeof PRETRANSLATE_STATES];

/** What a segment's status column says; the editor filters by it. */
export const SEGMENT_STATUSES = Object.freeze({
  new: 'new',
  /** Has a target nobody confirmed yet. */
  draft: 'draft',
  /** Filled by pre-translation from a memory match, not yet confirmed. */
  pretranslated: 'pretranslated',
  confirmed: 'confirmed',
  reviewed: 'reviewed',
} as const);
export type SegmentStatus = (typeof SEGMENT_STATUSES)[keyof typeof SEGMENT_STATUSES];

/** The status a segment edited by hand (or imported) has. */
export function segmentStatus(s: {
  target: string | null;
  confirmed: boolean;
  reviewed: boolean;
}): SegmentStatus {
  if (s.reviewed) return SEGMENT_STATUSES.reviewed;
  if (s.confirmed) return SEGMENT_STATUSES.confirmed;
  return s.target ? SEGMENT_STATUSES.draft : SEGMENT_STATUSES.new;
}

/** A change of state allowed only from the listed states; the repository applies it as a guarded UPDATE. */
export interface Transition<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}

const I = IMPORT_STATES;
export const IMPORT = Object.freeze({
  stored: { from: [I.uploading], to: I.pending },
  // From running too: a task re-run after its worker died finds the document still running.
  started: { from: [I.pending, I.running], to: I.running },
  interrupted: { from: [I.running], to: I.pending },
  succeeded: { from: [I.running], to: I.succeeded },
  failed: { from: [I.pending, I.running], to: I.failed },
} satisfies Record<string, Transition<ImportState>>);

const P = PRETRANSLATE_STATES;
export const PRETRANSLATION = Object.freeze({
  requested: { from: [P.idle], to: P.pending },
  started: { from: [P.pending, P.running], to: P.running },
  interrupted: { from: [P.running], to: P.pending },
  finished: { from: [P.pending, P.running], to: P.idle },
} satisfies Record<string, Transition<PretranslateState>>);

/** The columns the state machines live in. */
export interface DocumentStates {
  id: number;
  import_state: ImportState;
  pretranslate_state: PretranslateState;
  export_started_at: number | null;
}

export function isImporting(doc: Pick<DocumentStates, 'import_state'>): boolean {
  return doc.import_state === I.uploading || doc.import_state === I.pending || doc.import_state === I.running;
}

/**
 * An export holds a mark (export_started_at, with the instance streaming it as owner) while it runs; a mark
 * whose owner died is released by the instances' sweep (src/tasks/instance-keeper.ts).
 */
export function isExporting(doc: Pick<DocumentStates, 'export_started_at'>): boolean {
  return doc.export_started_at !== null;
}

export function isPretranslating(doc: Pick<DocumentStates, 'pretranslate_state'>): boolean {
  return doc.pretranslate_state !== P.idle;
}

/**
 * Why the document cannot be exported now, or null when it can. A failed import is not "busy" (nothing will
 * change it); the caller refuses that case on its own.
 */
export function busyReason(doc: DocumentStates): string | null {
  if (isImporting(doc)) return `Document ${doc.id} is being imported; retry when import_in_progress is false`;
  if (doc.import_state === I.failed) return null;
  if (isPretranslating(doc)) {
    return `Document ${doc.id} is being pre-translated; retry when status.pretranslation is idle`;
  }
  if (isExporting(doc)) return `Document ${doc.id} is being exported; retry when export_in_progress is false`;
  return null;
}

export function isBusy(doc: DocumentStates): boolean {
  return busyReason(doc) !== null;
}
