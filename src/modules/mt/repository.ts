// SQL for machine translation: the one owner of mt_cache, mt_usage and mt_usage_months.
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

export interface CacheKey {
  provider: string;
  sourceLang: string;
  targetLang: string;
}

/** The cached translations of these text hashes written since `since` (epoch seconds), by hash. */
export async function cachedTranslations(
  db: Queryable,
  key: CacheKey,
  hashes: string[],
  since: number,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (hashes.length === 0) return found;
  const rows = await db.all<{ text_hash: string; translation: string }>(
    `SELECT text_hash, translation FROM mt_cache
     WHERE provider = ? AND source_lang = ? AND target_lang = ? AND created_at >= ?
       AND text_hash IN (${hashes.map(() => '?').join(', ')})`,
    [key.provider, key.sourceLang, key.targetLang, since, ...hashes],
  );
  for (const r of rows) found.set(r.text_hash, r.translation);
  return found;
}

/** Stores translations, replacing an expired one of the same text. */
export async function cacheTranslations(
  db: Queryable,
  key: CacheKey,
  entries: { hash: string; translation: string }[],
): Promise<void> {
  const now = nowSeconds();
  for (const e of entries) {
    await db.run(
      `INSERT INTO mt_cache (provider, source_lang, target_lang, text_hash, translation, created_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (provider, source_lang, target_lang, text_hash)
       DO UPDATE SET translation = excluded.translation, created_at = excluded.created_at`,
      [key.provider, key.sourceLang, key.targetLang, e.hash, e.translation, now],
    );
  }
}

/** Removes the cache's entries written before `before`; answers how many. */
export async function deleteExpiredCache(db: Queryable, before: number): Promise<number> {
  const rows = await db.all<{ text_hash: string }>(
    'DELETE FROM mt_cache WHERE created_at < ? RETURNING text_hash',
    [before],
  );
  return rows.length;
}

export async function addUsage(
  db: Queryable,
  organizationId: number,
  provider: string,
  usage: { characters: number; cachedCharacters: number; requests: number },
): Promise<void> {
  await db.run(
    `INSERT INTO mt_usage (organization_id, provider, characters, cached_characters, requests)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, provider) DO UPDATE SET
       characters = mt_usage.characters + excluded.characters,
       cached_characters = mt_usage.cached_characters + excluded.cached_characters,
       requests = mt_usage.requests + excluded.requests`,
    [organizationId, provider, usage.characters, usage.cachedCharacters, usage.requests],
  );
}

export interface UsageRow {
  provider: string;
  characters: number;
  cached_characters: number;
  requests: number;
}

export async function usageOf(db: Queryable, organizationId: number): Promise<UsageRow[]> {
  const rows = await db.all<UsageRow>(
    `SELECT provider, characters, cached_characters, requests FROM mt_usage
     WHERE organization_id = ? ORDER BY provider`,
    [organizationId],
  );
  return rows.map((r) => ({
    provider: r.provider,
    characters: Number(r.characters),
    cached_characters: Number(r.cached_characters),
    requests: Number(r.requests),
  }));
}

/** The calendar month (UTC) of a time in milliseconds, as mt_usage_months keys it: '2026-11'. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** Counts calls on the month's row of an engine (0 and its name for the operator's default). */
export async function addMonthUsage(
  db: Queryable,
  organizationId: number,
  month: string,
  engine: { id: number; name: string },
  usage: { characters: number; cachedCharacters: number; requests: number },
): Promise<void> {
  await db.run(
    `INSERT INTO mt_usage_months (organization_id, engine_id, month, engine, characters, cached_characters,
       requests)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, month, engine_id, engine) DO UPDATE SET
       characters = mt_usage_months.characters + excluded.characters,
       cached_characters = mt_usage_months.cached_characters + excluded.cached_characters,
       requests = mt_usage_months.requests + excluded.requests`,
    [organizationId, engine.id, month, engine.name, usage.characters, usage.cachedCharacters, usage.requests],
  );
}

export interface MonthUsageRow {
  engine_id: number;
  engine: string;
  characters: number;
  cached_characters: number;
  requests: number;
}

/** What the organization's engines were sent in a month, per engine. */
export async function monthUsageOf(
  db: Queryable,
  organizationId: number,
  month: string,
): Promise<MonthUsageRow[]> {
  const rows = await db.all<MonthUsageRow>(
    `SELECT engine_id, engine, characters, cached_characters, requests FROM mt_usage_months
     WHERE organization_id = ? AND month = ? ORDER BY engine_id, engine`,
    [organizationId, month],
  );
  return rows.map((r) => ({
    engine_id: Number(r.engine_id),
    engine: r.engine,
    characters: Number(r.characters),
    cached_characters: Number(r.cached_characters),
    requests: Number(r.requests),
  }));
}
