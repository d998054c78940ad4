-- Terminology (src/modules/terms): a memory's termbase. A concept holds one or more terms, in one or more
-- languages; the concept carries what is said of the whole entry (its domain, a note, the id a TBX file gave
-- it), each term its own usage: status (preferred, admitted, deprecated, forbidden), case sensitivity, part of
-- speech, the definition of its language section, a context example and a note. Both go with their memory.
-- text_key is the term's text lower-cased (by the server, Unicode-aware, the same on both stores) for search.
CREATE TABLE term_concepts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  external_id TEXT,
  domain TEXT,
  note TEXT,
  created_by TEXT,
  updated_by TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX term_concepts_memory ON term_concepts(memory_id, id);
CREATE TABLE terms (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  concept_id INTEGER NOT NULL REFERENCES term_concepts(id) ON DELETE CASCADE,
  lang TEXT NOT NULL,
  text TEXT NOT NULL,
  text_key TEXT NOT NULL,
  status TEXT NOT NULL,
  case_sensitive INTEGER NOT NULL DEFAULT 0,
  part_of_speech TEXT,
  definition TEXT,
  context TEXT,
  note TEXT,
  position INTEGER NOT NULL DEFAULT 0,
  created_by TEXT,
  updated_by TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX terms_concept ON terms(concept_id, position);
CREATE INDEX terms_memory_key ON terms(memory_id, text_key);
