-- Counters in fixed time windows, shared by every server process using the store: the per-key rate limit
-- and the failed sign-in throttle (on PostgreSQL; one SQLite process keeps its counters in memory).
CREATE TABLE counters (
  key TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
);
