-- Find and replace in a document (POST /v2/documents/replace): each application is a batch that can be
-- undone while its segments have not changed since (their version is the one the replace left).
CREATE TABLE replace_batches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  username TEXT,
  created_at INTEGER NOT NULL,
  undone_at INTEGER
);
CREATE INDEX replace_batches_document ON replace_batches(document_id);

CREATE TABLE replace_changes (
  batch_id INTEGER NOT NULL REFERENCES replace_batches(id) ON DELETE CASCADE,
  segment_id INTEGER NOT NULL,
  before_target TEXT,
  after_target TEXT,
  after_version INTEGER NOT NULL,
  PRIMARY KEY (batch_id, segment_id)
);

-- Live events follow the tasks of the documents they watch.
CREATE INDEX tasks_document ON tasks(document_id, state);
