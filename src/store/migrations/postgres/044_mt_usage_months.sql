-- Characters each organization had machine-translated per engine and calendar month (UTC, 'YYYY-MM'): what
-- the monthly limits are checked against, and the Admin screen's usage table. `engine_id` is the row of
-- mt_engines, or 0 for the operator's default engine (`engine` names it); an engine's rows stay when it is
-- removed, so that the month's total still counts what it was sent. mt_usage keeps the running totals.
CREATE TABLE mt_usage_months (
  organization_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  engine_id BIGINT NOT NULL,
  month TEXT NOT NULL,
  engine TEXT NOT NULL,
  characters BIGINT NOT NULL DEFAULT 0,
  cached_characters BIGINT NOT NULL DEFAULT 0,
  requests BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, month, engine_id, engine)
);
