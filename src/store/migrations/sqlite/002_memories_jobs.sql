-- Translation memories, their entries, jobs and the files jobs read.
CREATE TABLE memories (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  srclang TEXT NOT NULL,
  trglang TEXT NOT NULL,
  srclocale TEXT,
  trglocale TEXT,
  version INTEGER NOT NULL DEFAULT 0,
  num_segments INTEGER NOT NULL DEFAULT 0,
  resources TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX memories_organization ON memories(organization_id);

-- rev: the memory version that last wrote the entry; in-process indexes catch up by reading rev > theirs.
CREATE TABLE memory_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  target TEXT NOT NULL,
  pair_hash TEXT NOT NULL,
  resource_name TEXT,
  created_by TEXT,
  rev INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX memory_entries_pair ON memory_entries(memory_id, pair_hash);
CREATE INDEX memory_entries_rev ON memory_entries(memory_id, rev);

-- Deleted entries, so that indexes in other processes drop them too.
CREATE TABLE memory_deletions (
  memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  entry_id INTEGER NOT NULL,
  rev INTEGER NOT NULL
);
CREATE INDEX memory_deletions_rev ON memory_deletions(memory_id, rev);

CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  state TEXT NOT NULL,
  memory_id INTEGER,
  document_id INTEGER,
  params TEXT NOT NULL DEFAULT '{}',
  progress_done INTEGER NOT NULL DEFAULT 0,
  progress_total INTEGER NOT NULL DEFAULT 0,
  result TEXT,
  error TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  worker_id TEXT,
  lease_until INTEGER,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER
);
CREATE INDEX jobs_claim ON jobs(state, id);
CREATE INDEX jobs_memory ON jobs(memory_id, state);

-- A job's input file in 1 MiB chunks, in the store so that any instance's worker can read it.
CREATE TABLE job_files (
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (job_id, seq)
);

-- Units parsed by an import job before they are applied in one transaction (all or nothing).
CREATE TABLE import_staging (
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  source TEXT NOT NULL,
  target TEXT NOT NULL,
  pair_hash TEXT NOT NULL,
  PRIMARY KEY (job_id, seq)
);
