-- Catching an index up reads the entries past its version in (rev, id) order, a page at a time: by this index
-- alone (by the old (memory_id, rev) one the planner preferred walking every entry in id order).
DROP INDEX memory_entries_rev;
CREATE INDEX memory_entries_rev ON memory_entries(memory_id, rev, id);
