-- Every Document answer counts its confirmed segments: by this index, without reading each segment.
CREATE INDEX document_segments_confirmed ON document_segments(document_id, is_confirmed);
