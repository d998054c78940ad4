-- How many units the format filter found in the original: a merge takes exactly one translation per unit,
-- including units that hold no segment (whitespace-only ones), and appended segments start after them.
ALTER TABLE documents ADD COLUMN num_units BIGINT NOT NULL DEFAULT 0;
