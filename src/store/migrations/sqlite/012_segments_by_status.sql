-- The editor's page of segments filtered by status, and its counts per status: by this index alone.
CREATE INDEX document_segments_status ON document_segments(document_id, status, position);
