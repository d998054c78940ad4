-- An organization's machine translation engines (src/modules/mt/settings-*.ts), asked in `position` order
-- before the operator's default. `settings` is a JSON object of the kind's plain fields (its registry entry
-- says which); `secrets` the kind's secret fields as JSON encrypted with AES-256-GCM (src/modules/mt/
-- secret-box.ts), never answered or logged. `version` grows with every change, so that each server process
-- rebuilds its provider for the row when it sees a newer one. `monthly_limit`: characters the engine may be
-- sent in a calendar month (UTC), or null for no limit.
CREATE TABLE mt_engines (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  label TEXT NOT NULL,
  position INTEGER NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  settings TEXT NOT NULL,
  secrets TEXT,
  monthly_limit INTEGER,
  version INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX mt_engines_organization ON mt_engines(organization_id, position);
-- An organization's limit on the characters all its engines (the operator's default included) may be sent
-- in a calendar month (UTC); no row, or a null limit, is no limit.
CREATE TABLE mt_limits (
  organization_id INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  monthly_limit INTEGER
);
