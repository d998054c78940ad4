// GET /v2/translate/repairs: the segment's fuzzy matches (75–99 %) repaired by MT (repair.ts). One batch
// to the engine for all of them; a match whose differences cannot be located in its target is left out —
// the raw match is always the memory's to offer, never replaced. The memory's learned lexicon (its word
// alignments, modules/terms/learned-lexicon.ts) is the second way to locate a difference: asked about the
// matches' words, it aligns each match (repair-alignment.ts). Like GET /v2/lexicon, the first question
// starts the memory's training in the background: until it is trained, MT alone locates.

import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import { EXACT_SCORE, MIN_SCORE } from '../../matching/score-bands.ts';
import { stemmerOf } from '../../terminology/stemmers.ts';
import { queryMemory, requireMemory } from '../memories/service.ts';
import type { LearnedLexicon } from '../terms/learned-lexicon.ts';
import { applyRepair, planRepair, type RepairPlan } from './repair.ts';
import { alignPair, type LearnedTranslation, wordsToLearn } from './repair-alignment.ts';
import { languageTag, type MtDeps } from './service.ts';

export interface RepairDeps extends MtDeps {
  /** The memories' learned lexicons; without it, MT alone locates the differences. */
  learned?: LearnedLexicon;
}

/** Learned translations of one word asked of the lexicon: as many as alignPair weighs. */
const LEARNED_PER_WORD = 5;

export async function repairedMatches(
  deps: RepairDeps,
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
  // The lexicon's answers for every word of the matches' sources, asked while the engine translates.
  const learning = learnedTranslations(
    deps.learned,
    memory,
    plans.flatMap((p) => wordsToLearn(p.plan.diff.candidate)),
  );
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
  const learned = await learning;
  const stem = stemmerOf(memory.trglang);
  const repairs = [];
  for (const { m, plan } of plans) {
    const alignment = learned
      ? alignPair(plan.diff.candidate, plan.input.matchTarget.normalize('NFC'), learned, stem)
      : null;
    const repair = applyRepair(
      plan,
      plan.texts.map((t) => translated.get(t) ?? null),
      { alignment },
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
      aligned: repair.aligned,
    });
  }
  return { provider, unavailable, repairs };
}

/** The learned translations of the words, or null while the memory's lexicon is not trained (or absent). */
async function learnedTranslations(
  learned: LearnedLexicon | undefined,
  memory: Parameters<LearnedLexicon['translations']>[0],
  words: string[],
): Promise<Map<string, LearnedTranslation[]> | null> {
  if (!learned || words.length === 0) return null;
  const distinct = [...new Set(words)];
  const answers = await Promise.all(distinct.map((w) => learned.translations(memory, w, LEARNED_PER_WORD)));
  if (answers.some((a) => a === null)) return null;
  return new Map(distinct.map((w, i) => [w, answers[i] ?? []]));
}
