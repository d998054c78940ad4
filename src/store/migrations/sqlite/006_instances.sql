-- The server processes sharing the store, each beating its heartbeat while alive. What a process holds —
-- an upload being stored, an export being streamed, a running job — names it as owner, so that when it
-- dies (its heartbeat stops) the others release what it held instead of waiting out a timeout.
CREATE TABLE instances (
  id TEXT PRIMARY KEY,
  started_at INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
);

-- The instance storing the document's upload (import_state 'uploading') or streaming its export.
ALTER TABLE documents ADD COLUMN owner TEXT;
