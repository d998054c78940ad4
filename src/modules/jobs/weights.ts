// The weights of the leverage analysis: what share of a new word's price a word of each band costs. The
// defaults follow the common grid of CAT tools' analyses (Trados's and memoQ's weighted counts): a context
// (101 %) match needs no work, an exact match a glance, a fuzzy match the more work the lower it scores, a
// repetition is translated once and checked, a machine translation draft is post-edited (72 %, MateCat's
// default "MT" rate); an organization sets its own (PUT /v2/analysis/weights).
import type { Static } from 'typebox';
import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Db } from '../../store/db.ts';
import {
  LEVERAGE_BANDS,
  type LeverageBand,
  type LeverageWeights,
  type UpdateWeightsBody,
} from './schemas.ts';
import * as repo from './weights-repository.ts';

export type Weights = Static<typeof LeverageWeights>;

export const DEFAULT_WEIGHTS: Readonly<Weights> = Object.freeze({
  context: 0,
  exact: 10,
  fuzzy95: 30,
  fuzzy85: 60,
  fuzzy75: 80,
  repetitions: 10,
  mt: 72,
  new: 100,
});

/** Words weighed by band, to one decimal: the count a price per word is applied to. */
export function weighedWords(bands: Record<LeverageBand, number>, weights: Weights): number {
  const sum = LEVERAGE_BANDS.reduce((n, b) => n + (bands[b] * weights[b]) / 100, 0);
  return Math.round(sum * 10) / 10;
}

/** The organization's weights: its own where it set them, the defaults elsewhere. */
export async function weightsOf(
  db: Db,
  organizationId: number,
): Promise<{ weights: Weights; custom: boolean }> {
  const stored = await repo.findWeights(db, organizationId);
  if (stored === undefined) return { weights: { ...DEFAULT_WEIGHTS }, custom: false };
  const saved = JSON.parse(stored) as Partial<Weights>;
  const weights = { ...DEFAULT_WEIGHTS };
  for (const band of LEVERAGE_BANDS) if (typeof saved[band] === 'number') weights[band] = saved[band];
  return { weights, custom: true };
}

/** GET /v2/analysis/weights. */
export async function getWeights(db: Db, principal: Principal) {
  return { ...(await weightsOf(db, principal.organizationId)), defaults: { ...DEFAULT_WEIGHTS } };
}

/** PUT /v2/analysis/weights: an admin changes some bands' weights (the rest stay), or resets them all. */
export async function updateWeights(db: Db, principal: Principal, body: Static<typeof UpdateWeightsBody>) {
  if (principal.role !== 'admin') throw errors.forbidden('Only an admin can change the analysis weights');
  if (body.reset) {
    await repo.deleteWeights(db, principal.organizationId);
  } else {
    if (!body.weights || Object.keys(body.weights).length === 0) throw errors.missingParameter('weights');
    const { weights } = await weightsOf(db, principal.organizationId);
    for (const band of LEVERAGE_BANDS) {
      const value = body.weights[band];
      if (value !== undefined) weights[band] = Math.round(value * 100) / 100;
    }
    await repo.saveWeights(db, principal.organizationId, principal.userId, JSON.stringify(weights));
  }
  return getWeights(db, principal);
}
