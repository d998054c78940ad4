-- Four roles (src/http/principal.ts): 'member' becomes 'project_manager', and translators and reviewers join.
-- SQLite cannot change a CHECK constraint in place; the column is carried over through a spare one (DROP
-- COLUMN keeps every other table's foreign keys to users, which rebuilding the table would not).
ALTER TABLE users ADD COLUMN role_before TEXT;
UPDATE users SET role_before = role;
ALTER TABLE users DROP COLUMN role;
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'project_manager'
  CHECK (role IN ('admin', 'project_manager', 'translator', 'reviewer'));
UPDATE users SET role = CASE role_before WHEN 'admin' THEN 'admin' ELSE 'project_manager' END;
ALTER TABLE users DROP COLUMN role_before;
