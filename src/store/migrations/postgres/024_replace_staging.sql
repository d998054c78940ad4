-- A find and replace stages its changes a slice at a time, then applies them in one transaction: until then
-- its batch is staged (applied_at NULL), invisible to undo, and removed if the replace fails.
ALTER TABLE replace_batches ADD COLUMN applied_at BIGINT;
UPDATE replace_batches SET applied_at = created_at;
