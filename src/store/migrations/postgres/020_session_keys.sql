-- The API key a session was signed in with (NULL for a password): the session ends when the key is revoked.
ALTER TABLE sessions ADD COLUMN api_key_id BIGINT REFERENCES api_keys(id) ON DELETE CASCADE;
CREATE INDEX sessions_api_key ON sessions(api_key_id);
