-- The QA errors a target had when a version confirmed it (GET /v2/segments/history, qa_errors): a JSON list
-- of their messages, NULL for a version that confirmed nothing or found none.
ALTER TABLE segment_versions ADD COLUMN qa_errors TEXT;
