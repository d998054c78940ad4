-- How a project's documents are segmented: 'auto' (each format's default: software strings one segment per
-- entry, prose by sentence, a unit the memory holds whole kept whole), 'sentence' or 'paragraph'; and the
-- project's own segmentation rules (SRX 2.0, kept as JSON), NULL for the built-in ones.
ALTER TABLE projects ADD COLUMN segmentation TEXT NOT NULL DEFAULT 'auto';
ALTER TABLE projects ADD COLUMN segmentation_rules TEXT;
