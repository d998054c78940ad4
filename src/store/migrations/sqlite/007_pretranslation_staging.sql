-- Matches a pre-translation job found, staged until it applies them all in one transaction with its own
-- success: a pre-translation killed part-way leaves no segment changed (all or nothing).
CREATE TABLE pretranslate_staging (
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  segment_id INTEGER NOT NULL,
  target TEXT NOT NULL,
  score INTEGER NOT NULL,
  confirm INTEGER NOT NULL,
  repairs TEXT,
  PRIMARY KEY (job_id, seq)
);

-- The placeables pre-translation put in place of the match's (auto-propagation), as a JSON list of
-- {from, to, kind}: the editor shows what was changed in the memory's target.
ALTER TABLE document_segments ADD COLUMN repairs TEXT;
