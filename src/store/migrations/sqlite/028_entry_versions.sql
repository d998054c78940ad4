-- One translation per source and context (docs/MATCHING.md §2.7). A confirmation whose source already has an
-- entry in the same context replaces that entry's target rather than adding a second 100 % entry, unless the
-- memory allows several translations per source (multiple_translations, off by default: memoQ's and
-- Trados's default too). What the entry held before is kept here: its source and target, who wrote them and
-- when, and who replaced them and when (GET /v2/memories/entries/history). Rows go with their entry.
ALTER TABLE memories ADD COLUMN multiple_translations INTEGER NOT NULL DEFAULT 0;
CREATE TABLE memory_entry_versions (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  memory_id   INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  entry_id    INTEGER NOT NULL,
  source      TEXT    NOT NULL,
  target      TEXT    NOT NULL,
  written_by  TEXT,
  written_at  BIGINT  NOT NULL,
  replaced_by TEXT,
  replaced_at BIGINT  NOT NULL
);
CREATE INDEX memory_entry_versions_entry ON memory_entry_versions (entry_id, id);
