-- Repetitions (docs/API.md, docs/EDITOR.md): the hash of a segment's repetition key
-- (documents/repetition-hash.ts), set at import; rows written before, or by code that does not set it, are
-- filled when their project is next read (documents/repetitions.ts).
ALTER TABLE document_segments ADD COLUMN source_hash TEXT;
CREATE INDEX document_segments_repetition ON document_segments (document_id, source_hash);

-- Whether confirming a segment fills its project's unconfirmed repetitions (on by default).
ALTER TABLE projects ADD COLUMN propagate_repetitions BIGINT NOT NULL DEFAULT 1;

-- The segments a confirmation filled, with what they held before: withdrawing that confirmation (unconfirm,
-- an edit, a restore of the origin segment) puts back those not changed since (version = after_version).
CREATE TABLE propagated_segments (
  origin_segment_id BIGINT  NOT NULL,
  origin_version    BIGINT  NOT NULL,
  segment_id        BIGINT  NOT NULL,
  document_id       BIGINT  NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  before_target     TEXT,
  before_status     TEXT    NOT NULL,
  after_version     BIGINT  NOT NULL,
  created_at        BIGINT  NOT NULL
);
CREATE INDEX propagated_segments_origin ON propagated_segments (origin_segment_id, origin_version);
CREATE INDEX propagated_segments_segment ON propagated_segments (segment_id);
CREATE INDEX propagated_segments_document ON propagated_segments (document_id);

-- A source changed in place (a join or split of segments) loses its hash, which the next read fills again.
-- (One line each: the migration runner splits statements at a semicolon that ends a line.)
CREATE FUNCTION document_segments_source_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.source_hash := NULL; RETURN NEW; END $$;
CREATE TRIGGER document_segments_source_hash BEFORE UPDATE OF source ON document_segments FOR EACH ROW WHEN (OLD.source IS DISTINCT FROM NEW.source) EXECUTE FUNCTION document_segments_source_changed();
