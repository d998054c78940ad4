// SQL for an organization's machine translation settings: the one owner of mt_engines and mt_limits.
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

export interface EngineRow {
  id: number;
  organization_id: number;
  kind: string;
  label: string;
  position: number;
  enabled: number;
  /** JSON object of the plain fields. */
  settings: string;
  /** The secret fields as sealed JSON (secret-box.ts), or null when the kind has none set. */
  secrets: string | null;
  monthly_limit: number | null;
  version: number;
  created_at: number;
  updated_at: number;
}

function numbers(r: EngineRow): EngineRow {
  return {
    ...r,
    id: Number(r.id),
    organization_id: Number(r.organization_id),
    position: Number(r.position),
    enabled: Number(r.enabled),
    monthly_limit: r.monthly_limit === null ? null : Number(r.monthly_limit),
    version: Number(r.version),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

/** The organization's engines in the order they are asked. */
export async function enginesOf(db: Queryable, organizationId: number): Promise<EngineRow[]> {
  const rows = await db.all<EngineRow>(
    'SELECT * FROM mt_engines WHERE organization_id = ? ORDER BY position, id',
    [organizationId],
  );
  return rows.map(numbers);
}

export async function findEngine(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<EngineRow | undefined> {
  const row = await db.get<EngineRow>('SELECT * FROM mt_engines WHERE id = ? AND organization_id = ?', [
    id,
    organizationId,
  ]);
  return row && numbers(row);
}

export async function insertEngine(
  db: Queryable,
  e: Pick<
    EngineRow,
    'organization_id' | 'kind' | 'label' | 'enabled' | 'settings' | 'secrets' | 'monthly_limit'
  >,
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO mt_engines (organization_id, kind, label, position, enabled, settings, secrets, monthly_limit,
       version, created_at, updated_at)
     VALUES (?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM mt_engines WHERE organization_id = ?),
       ?, ?, ?, ?, 1, ?, ?)
     RETURNING id`,
    [
      e.organization_id,
      e.kind,
      e.label,
      e.organization_id,
      e.enabled,
      e.settings,
      e.secrets,
      e.monthly_limit,
      now,
      now,
    ],
  );
  return Number(row!.id);
}

/** Writes an engine's changeable fields and counts a new version (server processes rebuild its provider). */
export async function updateEngine(
  db: Queryable,
  organizationId: number,
  id: number,
  e: Pick<EngineRow, 'label' | 'enabled' | 'settings' | 'secrets' | 'monthly_limit'>,
): Promise<void> {
  await db.run(
    `UPDATE mt_engines SET label = ?, enabled = ?, settings = ?, secrets = ?, monthly_limit = ?,
       version = version + 1, updated_at = ?
     WHERE id = ? AND organization_id = ?`,
    [e.label, e.enabled, e.settings, e.secrets, e.monthly_limit, nowSeconds(), id, organizationId],
  );
}

export async function setPosition(
  db: Queryable,
  organizationId: number,
  id: number,
  position: number,
): Promise<void> {
  await db.run('UPDATE mt_engines SET position = ? WHERE id = ? AND organization_id = ?', [
    position,
    id,
    organizationId,
  ]);
}

export async function deleteEngine(db: Queryable, organizationId: number, id: number): Promise<boolean> {
  const rows = await db.all<{ id: number }>(
    'DELETE FROM mt_engines WHERE id = ? AND organization_id = ? RETURNING id',
    [id, organizationId],
  );
  return rows.length > 0;
}

/** The organization's monthly character limit over all its engines, or null for none. */
export async function organizationLimit(db: Queryable, organizationId: number): Promise<number | null> {
  const row = await db.get<{ monthly_limit: number | null }>(
    'SELECT monthly_limit FROM mt_limits WHERE organization_id = ?',
    [organizationId],
  );
  return row?.monthly_limit == null ? null : Number(row.monthly_limit);
}

export async function setOrganizationLimit(
  db: Queryable,
  organizationId: number,
  limit: number | null,
): Promise<void> {
  await db.run(
    `INSERT INTO mt_limits (organization_id, monthly_limit) VALUES (?, ?)
     ON CONFLICT (organization_id) DO UPDATE SET monthly_limit = excluded.monthly_limit`,
    [organizationId, limit],
  );
}
