-- Quality evaluation (docs/API.md, Quality): a reviewer's annotation of an error on a document segment, with an
-- MQM-Core category and a severity (src/text/qa/mqm.ts); the target it was found in is kept, so that the report
-- reads what the reviewer saw even after the translator fixed it. Deleted with the segment (a join or a split
-- removes a segment) and with the document.
CREATE TABLE quality_annotations (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  document_id     INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  segment_id      INTEGER NOT NULL REFERENCES document_segments(id) ON DELETE CASCADE,
  category        TEXT    NOT NULL,
  severity        TEXT    NOT NULL,
  note            TEXT    NOT NULL DEFAULT '',
  target          TEXT,
  created_by      INTEGER,
  username        TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE INDEX quality_annotations_document ON quality_annotations(document_id, segment_id);
CREATE INDEX quality_annotations_segment ON quality_annotations(segment_id);

-- A project's pass threshold in MQM penalty points per 1,000 words; a project without a row has the default.
CREATE TABLE quality_thresholds (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  threshold  REAL    NOT NULL,
  updated_by INTEGER,
  updated_at INTEGER NOT NULL
);
