-- Every change of a document segment's target or status is kept as a version (GET /v2/segments/history);
-- a segment counts its versions, so that a change is numbered without reading the history.
ALTER TABLE document_segments ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

CREATE TABLE segment_versions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  segment_id INTEGER NOT NULL,
  version INTEGER NOT NULL,
  target TEXT,
  status TEXT NOT NULL,
  username TEXT,
  -- 'edit', 'confirm', 'replace', 'restore', 'pretranslate'.
  origin TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX segment_versions_segment ON segment_versions(segment_id, version);
CREATE INDEX segment_versions_document ON segment_versions(document_id);

-- Who changed a memory entry last (created_by says who added it).
ALTER TABLE memory_entries ADD COLUMN updated_by TEXT;
