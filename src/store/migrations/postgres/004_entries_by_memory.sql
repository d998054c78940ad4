-- Entries of one memory in id order: full index loads and exports walk this.
CREATE INDEX memory_entries_memory_id ON memory_entries(memory_id, id);
