-- Projects, documents (with their original file) and document segments.
CREATE TABLE projects (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  memory_id INTEGER NOT NULL REFERENCES memories(id),
  name TEXT NOT NULL,
  srclang TEXT NOT NULL,
  trglang TEXT NOT NULL,
  srclocale TEXT,
  trglocale TEXT,
  state TEXT NOT NULL DEFAULT 'backlog',
  due_date INTEGER,
  archived INTEGER NOT NULL DEFAULT 0,
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX projects_organization ON projects(organization_id);

-- import_state and pretranslate_state: 'idle' | 'pending' | 'running' (+ 'succeeded'/'failed' for import).
-- export_started_at marks an export being streamed; an old mark (a process that died) does not count.
CREATE TABLE documents (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  format TEXT NOT NULL,
  srclang TEXT NOT NULL,
  trglang TEXT NOT NULL,
  size_bytes INTEGER NOT NULL DEFAULT 0,
  import_state TEXT NOT NULL,
  import_error TEXT,
  export_started_at INTEGER,
  export_succeeded INTEGER NOT NULL DEFAULT 0,
  export_error TEXT,
  pretranslate_state TEXT NOT NULL DEFAULT 'idle',
  is_review_complete INTEGER NOT NULL DEFAULT 0,
  num_segments INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX documents_project ON documents(project_id);

CREATE TABLE document_files (
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (document_id, seq)
);

-- One row per sentence segment. unit_index ties it to the filter's unit; lead is the text between the
-- previous segment (or the unit's start) and this one, trail the text after the unit's last segment, so
-- that a merge rebuilds each unit exactly.
CREATE TABLE document_segments (
  id INTEGER PRIMARY KEY,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  unit_index INTEGER NOT NULL,
  lead TEXT NOT NULL DEFAULT '',
  trail TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL,
  target TEXT,
  status TEXT NOT NULL DEFAULT 'new',
  match_score INTEGER,
  is_confirmed INTEGER NOT NULL DEFAULT 0,
  is_reviewed INTEGER NOT NULL DEFAULT 0,
  context TEXT,
  notes TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX document_segments_position ON document_segments(document_id, position);
