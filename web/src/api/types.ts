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
  is_processing: boolean;
  version: number;
  num_segments: number;
  resources: string[];
  created_at: number;
  updated_at: number;
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
