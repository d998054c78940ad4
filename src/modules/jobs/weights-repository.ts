// SQL for the leverage analysis's weights: one row per organization that changed them.
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

/** The organization's weights as stored (a JSON object of band → percent), or undefined: the defaults. */
export async function findWeights(db: Queryable, organizationId: number): Promise<string | undefined> {
  const row = await db.get<{ weights: string }>(
    'SELECT weights FROM analysis_weights WHERE organization_id = ?',
    [organizationId],
  );
  return row?.weights;
}

export async function saveWeights(db: Queryable, organizationId: number, userId: number, weights: string) {
  await db.run(
    `INSERT INTO analysis_weights (organization_id, weights, updated_by, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (organization_id) DO UPDATE SET weights = excluded.weights, updated_by = excluded.updated_by,
       updated_at = excluded.updated_at`,
    [organizationId, weights, userId, nowSeconds()],
  );
}

export async function deleteWeights(db: Queryable, organizationId: number) {
  await db.run('DELETE FROM analysis_weights WHERE organization_id = ?', [organizationId]);
}
