// The resources of the Tessera REST API v2 as the web application reads them (shared/design/API.md).

export type Role = 'admin' | 'member';

export interface Caller {
  user_id: number;
  username: string;
  role: Role;
  organization_id: number;
}

export interface Languages {
  source_to_target: Record<string, Record<string, boolean>>;
  code_to_name: Record<string, string>;
}

export interface Memory {
  id: number;
  name: string;
  srclang: string;
  trglang: string;
  is_processing: boolean | null;
  version: number;
  num_segments: number;
  /** The names of the files imported; null before any. */
  resources: string[] | null;
  created_at: number;
  updated_at: number;
  last_import?: { task_id: number; state: string; error: string | null; error_code: string | null } | null;
}

export type ProjectState = 'backlog' | 'inProgress' | 'inReview' | 'inQA' | 'done';

export interface TesseraDocument {
  id: number;
  project_id: number;
  name: string;
  srclang: string;
  trglang: string;
  import_in_progress: boolean;
  import_succeeded: boolean;
  import_error_message: string | null;
  export_in_progress: boolean;
  is_pretranslating: boolean;
  status: { pretranslation: 'idle' | 'pending' | 'running' | string };
  created_at: number;
  updated_at: number;
  num_segments: number;
  num_confirmed: number;
  format: string;
}

export interface Project {
  id: number;
  name: string;
  memory_id: number;
  srclang: string;
  trglang: string;
  state: ProjectState;
  due_date: number | null;
  archived: boolean;
  created_at: number;
  updated_at: number;
  document: TesseraDocument[];
}

export const SEGMENT_STATUSES = ['new', 'draft', 'pretranslated', 'confirmed', 'reviewed'] as const;
export type SegmentStatus = (typeof SEGMENT_STATUSES)[number];

export interface Repair {
  from: string;
  to: string;
  kind: string;
}

export interface DocumentSegment {
  id: number;
  document_id: number;
  source: string;
  target: string | null;
  srclang: string;
  trglang: string;
  is_confirmed: boolean;
  is_reviewed: boolean;
  created_at: number;
  updated_at: number;
  status: SegmentStatus;
  match_score: number | null;
  /** 0-based; the editor shows position + 1. */
  position: number;
  context: string | null;
  repairs: Repair[] | null;
}

export interface SegmentsPage {
  total: number;
  offset: number;
  limit: number;
  counts: Record<SegmentStatus, number>;
  segments: DocumentSegment[];
}

export interface Penalty {
  kind: string;
  points: number;
}

export interface MemoryMatch {
  source: string;
  target: string;
  score: number;
  metadata: {
    segment_id: number;
    resource_name: string | null;
    created_at: number;
    updated_at: number;
    created_by: string | null;
    match_type: 'exact' | 'fuzzy';
    penalties: Penalty[];
  };
}

export interface ConcordanceHit {
  source: string;
  target: string;
  side: 'source' | 'target';
  offsets: [number, number][];
  metadata: MemoryMatch['metadata'];
}

export interface User {
  id: number;
  username: string;
  email: string | null;
  role: Role;
  created_at: number;
  /** Once the server records it (PUT /v2/users). */
  disabled?: boolean;
}

export interface ApiKeyRow {
  id: number;
  name: string;
  username: string;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked: boolean;
}

export interface CreatedKey {
  id: number;
  name: string;
  key: string;
}

export interface Task {
  id: number;
  type: string;
  state: 'queued' | 'running' | 'succeeded' | 'failed' | string;
  progress: { done: number; total: number };
  result: unknown;
  error: string | null;
  error_code: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface MemoryEntry {
  id: number;
  source: string;
  target: string;
  created_at: number;
  updated_at: number;
  created_by: string | null;
  updated_by: string | null;
}

export interface MemoryEntriesPage {
  total: number;
  entries: MemoryEntry[];
}

export type QaSeverity = 'error' | 'warning';

export interface QaIssue {
  code: string;
  severity: QaSeverity;
  message: string;
  start?: number;
  end?: number;
}

export interface DocumentQa {
  document_id: number;
  counts: { error: number; warning: number };
  issues: { segment_id: number; position: number; code: string; severity: QaSeverity; message: string }[];
}

export interface ReplaceRequest {
  id: number;
  find: string;
  replace: string;
  regex?: boolean;
  case_sensitive?: boolean;
  field?: 'source' | 'target';
  statuses?: SegmentStatus[];
  dry_run?: boolean;
}

export interface ReplaceResult {
  batch_id: number | string | null;
  changed: number;
  changes: { segment_id: number; position: number; before: string; after: string }[];
}

export interface SegmentVersion {
  version: number;
  target: string | null;
  status: SegmentStatus | string;
  user: string | null;
  created_at: number;
  origin: string | null;
}

export interface SegmentHistory {
  segment_id: number;
  versions: SegmentVersion[];
}

/** A Lilt job: one source, several target languages, a project per language pair. */
export interface Job {
  id: number;
  name: string;
  creationStatus: 'PENDING' | 'COMPLETE' | 'FAILED';
  status: 'active' | 'delivered' | 'archived';
  due: string | null;
  deliveredAt: string | null;
  /** 1 while an export runs, 0 when idle, -2 when the last export failed. */
  isProcessing: number;
  stats: {
    sourceWords: number;
    numProjects: number;
    percentTranslated: number;
    percentReviewed: number;
    projects: { id: number; name: string; trgLang: string }[];
  };
  srcLang: string;
  processingErrorMsg: string | null;
  createdAt: string;
}

/** POST /v2/jobs: Lilt's fields (camelCase). */
export interface CreateJobRequest {
  name: string;
  fileIds: number[];
  srcLang: string;
  due?: string | null;
  languagePairs: { trgLang: string; memoryId: number; pretranslate?: boolean; autoAccept?: boolean }[];
}

/** A source file uploaded for jobs (POST /v2/files). */
export interface SourceFile {
  id: number;
  name: string;
  /** ISO 639-1; "und" when undetermined. */
  detected_lang: string;
  detected_lang_confidence: number;
}

export interface JobLeverage {
  sourceWords: number;
  exactWords: number;
  fuzzyWords: number;
  newWords: number;
  projects: {
    id: number;
    srcLang: string;
    trgLang: string;
    sourceWords: number;
    exactWords: number;
    fuzzyWords: number;
    newWords: number;
  }[];
}
