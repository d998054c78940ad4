-- Workflow (docs/API.md, Workflow): a project's template (src/modules/projects/workflow-templates.ts; 1, translate
-- only, is what every project did before), a document's stage in it, who is assigned to each stage, and
-- segments a project manager locked.
ALTER TABLE projects ADD COLUMN workflow_template_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE documents ADD COLUMN stage TEXT NOT NULL DEFAULT 'translate';
CREATE TABLE document_assignments (
  document_id     INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  stage           TEXT    NOT NULL,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  due_at          INTEGER,
  assigned_at     INTEGER NOT NULL,
  PRIMARY KEY (document_id, stage)
);
CREATE INDEX document_assignments_user ON document_assignments (user_id);
ALTER TABLE document_segments ADD COLUMN locked INTEGER NOT NULL DEFAULT 0;
