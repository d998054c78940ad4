-- GET /v2/memories/sync with when=deleted reports deleted entries with their text, so a deletion keeps what
-- the entry held and when it went. Deletions logged before this migration have no text (NULL): they cannot
-- be reported and are left out of such a sync.
ALTER TABLE memory_deletions ADD COLUMN source TEXT;
ALTER TABLE memory_deletions ADD COLUMN target TEXT;
ALTER TABLE memory_deletions ADD COLUMN created_by TEXT;
ALTER TABLE memory_deletions ADD COLUMN created_at BIGINT;
ALTER TABLE memory_deletions ADD COLUMN updated_at BIGINT;
ALTER TABLE memory_deletions ADD COLUMN deleted_at BIGINT;
ALTER TABLE memory_deletions ADD COLUMN context_key TEXT;
ALTER TABLE memory_deletions ADD COLUMN context_prev TEXT;
ALTER TABLE memory_deletions ADD COLUMN context_next TEXT;
ALTER TABLE memory_deletions ADD COLUMN context_hash TEXT;
CREATE INDEX memory_deletions_deleted_at ON memory_deletions(memory_id, deleted_at, entry_id);
-- A sync by time walks the entries in the window only, not the whole memory.
CREATE INDEX memory_entries_created_at ON memory_entries(memory_id, created_at, id);
CREATE INDEX memory_entries_updated_at ON memory_entries(memory_id, updated_at, id);
