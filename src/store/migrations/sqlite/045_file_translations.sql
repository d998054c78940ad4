-- Lilt's Instant Translate (src/modules/file-translations): an uploaded source file translated whole with a
-- memory's matches and machine translation, in the background; the translated file, in its original format,
-- kept in chunks until the translation (or its file, or its memory) is deleted.
CREATE TABLE file_translations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  file_id INTEGER NOT NULL REFERENCES source_files(id) ON DELETE CASCADE,
  memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  with_tm INTEGER NOT NULL,
  -- Lilt's statuses: 'InProgress', then 'ReadyForDownload' or 'Failed' (with error_msg).
  status TEXT NOT NULL,
  error_msg TEXT,
  -- The translated file's name and media type, once written.
  result_name TEXT,
  media_type TEXT,
  segments INTEGER NOT NULL DEFAULT 0,
  tm_segments INTEGER NOT NULL DEFAULT 0,
  mt_segments INTEGER NOT NULL DEFAULT 0,
  -- Segments left in the source language: the engine's translation lost their tags, or its placeholders
  -- would not run in a format that has no mark for a draft.
  source_segments INTEGER NOT NULL DEFAULT 0,
  mt_provider TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX file_translations_organization ON file_translations(organization_id, created_at);

CREATE TABLE file_translation_chunks (
  translation_id INTEGER NOT NULL REFERENCES file_translations(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (translation_id, seq)
);
