-- Context (101 %) matches (docs/MATCHING.md §2.6). A memory entry keeps where its source stood: the unit's
-- key (a key path, msgctxt, resname), and the sources of the segments before and after it. context_hash is
-- the source in that context, '' for an entry stored without one (all entries stored before this); the
-- partial index finds a segment's context matches by it. A rule of one translation per source and context
-- can later be a unique index on (memory_id, context_hash) over the same rows (entries with a context).
ALTER TABLE memory_entries ADD COLUMN context_key TEXT;
ALTER TABLE memory_entries ADD COLUMN context_prev TEXT;
ALTER TABLE memory_entries ADD COLUMN context_next TEXT;
ALTER TABLE memory_entries ADD COLUMN context_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX memory_entries_context ON memory_entries (memory_id, context_hash) WHERE context_hash <> '';

-- A document segment pre-translated from a context match says so, until its target is edited (as its
-- match_score); pre-translation stages it with the match.
ALTER TABLE document_segments ADD COLUMN context_match BIGINT NOT NULL DEFAULT 0;
ALTER TABLE pretranslate_staging ADD COLUMN context_match BIGINT NOT NULL DEFAULT 0;

-- Entries stored before edge whitespace was trimmed on the way in (docs/MATCHING.md §1.1) are rewritten
-- without it by a task per memory (src/modules/memories/trim-edges-task.ts); until it has run, they are
-- indexed and answered trimmed anyway.
INSERT INTO tasks (organization_id, type, state, memory_id, params, created_at)
SELECT organization_id, 'memory_trim_edges', 'queued', id, '{}', CAST(EXTRACT(EPOCH FROM now()) AS BIGINT) FROM memories;
