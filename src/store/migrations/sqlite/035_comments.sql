-- Comments (GET/POST/PUT/DELETE /v2/comments, Lilt's comments resource): on a segment, or on the whole document
-- when segment_id is null. A reply names the first comment of its thread (parent_id); a thread is resolved on
-- its first comment. user_id and username say who wrote it (the name stays when the user is deleted);
-- mentions is a JSON list of the usernames the text @mentions; segment_version is the segment's version
-- the comment was written on (Lilt's segment_revision_id). A comment goes with its document or segment.
CREATE TABLE comments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  segment_id INTEGER REFERENCES document_segments(id) ON DELETE CASCADE,
  parent_id INTEGER REFERENCES comments(id) ON DELETE CASCADE,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  username TEXT NOT NULL,
  text TEXT NOT NULL,
  annotations TEXT,
  mentions TEXT,
  is_resolved INTEGER NOT NULL DEFAULT 0,
  segment_version INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX comments_document ON comments(document_id, segment_id);
CREATE INDEX comments_segment ON comments(segment_id);
CREATE INDEX comments_parent ON comments(parent_id);
