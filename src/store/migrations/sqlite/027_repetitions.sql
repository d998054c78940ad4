-- Repetitions (docs/API.md, docs/EDITOR.md): the hash of a segment's repetition key
-- (documents/repetition-hash.ts), set at import; rows written before, or by code that does not set it, are
-- filled when their project is next read (documents/repetitions.ts).
ALTER TABLE document_segments ADD COLUMN source_hash TEXT;
CREATE INDEX document_segments_repetition ON document_segments (document_id, source_hash);

-- Whether confirming a segment fills its project's unconfirmed repetitions (on by default).
ALTER TABLE projects ADD COLUMN propagate_repetitions INTEGER NOT NULL DEFAULT 1;

-- The segments a confirmation filled, with what they held before: withdrawing that confirmation (unconfirm,
-- an edit, a restore of the origin segment) puts back those not changed since (version = after_version).
CREATE TABLE propagated_segments (
  origin_segment_id INTEGER NOT NULL,
  origin_version    INTEGER NOT NULL,
  segment_id        INTEGER NOT NULL,
  document_id       INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  before_target     TEXT,
  before_status     TEXT    NOT NULL,
  after_version     INTEGER NOT NULL,
  created_at        INTEGER NOT NULL
);
CREATE INDEX propagated_segments_origin ON propagated_segments (origin_segment_id, origin_version);
CREATE INDEX propagated_segments_segment ON propagated_segments (segment_id);
CREATE INDEX propagated_segments_document ON propagated_segments (document_id);

-- A source changed in place (a join or split of segments) loses its hash, which the next read fills again.
CREATE TRIGGER document_segments_source_hash AFTER UPDATE OF source ON document_segments FOR EACH ROW WHEN OLD.source IS NOT NEW.source BEGIN UPDATE document_segments SET source_hash = NULL WHERE id = NEW.id; END;
