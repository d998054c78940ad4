-- A target that came with an uploaded file (XLIFF, PO) is its segment's version 1 (origin 'import'), so that
-- an edit of it can be restored. Segments imported before, never changed since (version 0) and holding a
-- target get that version now; who uploaded them is not known (NULL). A target imported and already edited
-- before this migration was never kept: it cannot be recovered.
INSERT INTO segment_versions (document_id, segment_id, version, target, status, username, origin, created_at)
SELECT s.document_id, s.id, 1, s.target, s.status, NULL, 'import', s.created_at
FROM document_segments s JOIN documents d ON d.id = s.document_id
WHERE s.version = 0 AND s.target IS NOT NULL AND d.format IN ('xliff', 'po');
UPDATE document_segments SET version = 1
WHERE version = 0 AND target IS NOT NULL
  AND document_id IN (SELECT id FROM documents WHERE format IN ('xliff', 'po'));
