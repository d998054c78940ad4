-- In-app notifications (GET /v2/notifications): what concerns one user — a mention in a comment, an assignment,
-- a hand-off — with a short text and the web application's path to what it is about. Read or not per
-- notification; they go with their user.
CREATE TABLE notifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  link TEXT,
  actor TEXT,
  is_read INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX notifications_user ON notifications(user_id, is_read, id);
