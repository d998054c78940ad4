-- Lilt's Files: source files uploaded once, kept in the store in chunks, labelled, their language detected.
CREATE TABLE source_files (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id INTEGER,
  name TEXT NOT NULL,
  file_hash TEXT NOT NULL DEFAULT '',
  size_bytes INTEGER NOT NULL DEFAULT 0,
  detected_lang TEXT NOT NULL DEFAULT 'zxx',
  detected_lang_confidence REAL NOT NULL DEFAULT 0,
  category TEXT NOT NULL DEFAULT 'API',
  -- 'uploading' while the body is stored (by the instance named in owner), then 'stored'.
  state TEXT NOT NULL,
  owner TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX source_files_organization ON source_files(organization_id);

CREATE TABLE source_file_chunks (
  file_id INTEGER NOT NULL REFERENCES source_files(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (file_id, seq)
);

CREATE TABLE source_file_labels (
  file_id INTEGER NOT NULL REFERENCES source_files(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  PRIMARY KEY (file_id, name)
);

-- Lilt's Jobs: one source, many target languages, a project per language pair.
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  src_lang TEXT NOT NULL,
  src_locale TEXT,
  due INTEGER,
  archived INTEGER NOT NULL DEFAULT 0,
  delivered_at INTEGER,
  -- The last export: 'idle' (none yet, or done), 'running', 'failed'; its type and error.
  export_state TEXT NOT NULL DEFAULT 'idle',
  export_type TEXT,
  export_error TEXT,
  -- The task whose file (task_files) is the zip of the last export that succeeded.
  export_task_id INTEGER,
  -- The last leverage analysis (POST /v2/jobs/{id}/stats), as JSON.
  leverage TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX jobs_organization ON jobs(organization_id);

-- Words of a document's segments as the scorer counts them (job statistics).
ALTER TABLE documents ADD COLUMN num_words INTEGER NOT NULL DEFAULT 0;

ALTER TABLE projects ADD COLUMN job_id INTEGER REFERENCES jobs(id);
CREATE INDEX projects_job ON projects(job_id);

-- Why a task failed, as a stable code beside its message (UNSUPPORTED_FILE_TYPE…).
ALTER TABLE tasks ADD COLUMN error_code TEXT;
