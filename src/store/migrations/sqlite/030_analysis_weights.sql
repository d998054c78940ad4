-- The weights of the leverage analysis (docs/FILES-AND-JOBS.md, Analysis): the share of a new word's price that
-- a word of each match band costs, in percent, one row per organization that changed them (the defaults in
-- src/modules/jobs/weights.ts otherwise). A JSON object keyed by band, so that a band added later needs no
-- migration: a missing key takes its default.
CREATE TABLE analysis_weights (
  organization_id INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  weights         TEXT    NOT NULL,
  updated_by      INTEGER,
  updated_at      INTEGER NOT NULL
);
