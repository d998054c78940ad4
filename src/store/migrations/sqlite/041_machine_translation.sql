-- Machine translation (src/modules/mt). The cache: an engine's answer to a masked text between two
-- languages, kept for TESSERA_MT_CACHE_DAYS days, so that the same sentence is paid for and waited for once.
-- Keyed by the engine, the pair and a hash of the text (texts run to 5000 characters: too long for a key).
CREATE TABLE mt_cache (
  provider TEXT NOT NULL,
  source_lang TEXT NOT NULL,
  target_lang TEXT NOT NULL,
  text_hash TEXT NOT NULL,
  translation TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (provider, source_lang, target_lang, text_hash)
);
CREATE INDEX mt_cache_created ON mt_cache(created_at);
-- Characters each organization had translated, per engine: those sent to the engine, and those answered
-- from the cache.
CREATE TABLE mt_usage (
  organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  characters INTEGER NOT NULL DEFAULT 0,
  cached_characters INTEGER NOT NULL DEFAULT 0,
  requests INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, provider)
);
