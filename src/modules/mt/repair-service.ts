// GET /v2/translate/repairs: the segment's fuzzy matches (75–99 %) repaired by MT (repair.ts). One batch
// to the engine for all of them; a match whose differences cannot be located in its target is left out —
// the raw match is always the memory's to offer, never replaced.

import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import { EXACT_SCORE, MIN_SCORE } from '../../matching/score-bands.ts';
import { queryMemory, requireMemory } from '../memories/service.ts';
import { applyRepair, planRepair, type RepairPlan } from './repair.ts';
import { languageTag, type MtDeps } from './service.ts';

export async function repairedMatches(
  deps: MtDeps,
  principal: Principal,
  input: { memory_id: number; source: string; n?: number },
) {
  const memory = await requireMemory(deps.db, principal, input.memory_id);
  if (input.source.trim() === '') throw errors.missingParameter('source');
  const matches = (
    await queryMemory(deps, principal, { id: memory.id, query: input.source, n: input.n ?? 3 })
  ).filter((m) => m.score >= MIN_SCORE && m.score < EXACT_SCORE);
  const plans = matches
    .map((m) => ({
      m,
      plan: planRepair({ source: input.source, matchSource: m.source, matchTarget: m.target }),
    }))
    .filter((p): p is { m: (typeof matches)[number]; plan: RepairPlan } => p.plan !== null);
  const texts = [...new Set(plans.flatMap((p) => p.plan.texts))];
  let provider: string | null = null;
  let unavailable: string | null = null;
  const translated = new Map<string, string | null>();
  if (texts.length > 0) {
    const source = languageTag(memory.srclang, memory.srclocale);
    const target = languageTag(memory.trglang, memory.trglocale);
    const termbase = await deps.mt.termbases.of(deps.db, principal.organizationId, memory.id, source, target);
    const result = await deps.mt.translate(deps.db, principal.organizationId, texts, source, target, {
      termbase,
    });
    provider = result.unavailable === null ? result.provider : null;
    unavailable = result.unavailable;
    for (const [i, text] of texts.entries()) translated.set(text, result.translations[i]);
  }
  const repairs = [];
  for (const { m, plan } of plans) {
    const repair = applyRepair(
      plan,
      plan.texts.map((t) => translated.get(t) ?? null),
    );
    if (repair === null) continue;
    repairs.push({
      score: m.score,
      match_source: m.source,
      match_target: m.target,
      target: repair.target,
      changes: repair.changes,
      differences: repair.differences,
      patched: repair.patched,
    });
  }
  return { provider, unavailable, repairs };
}
