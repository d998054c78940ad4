-- Four roles (src/http/principal.ts): 'member' becomes 'project_manager', and translators and reviewers join.
ALTER TABLE users DROP CONSTRAINT users_role_check;
UPDATE users SET role = 'project_manager' WHERE role = 'member';
ALTER TABLE users ADD CONSTRAINT users_role_check
  CHECK (role IN ('admin', 'project_manager', 'translator', 'reviewer'));
ALTER TABLE users ALTER COLUMN role SET DEFAULT 'project_manager';
