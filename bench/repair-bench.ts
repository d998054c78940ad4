// Fuzzy-match repair measured on held-out real data: entries of the en-es memory are held out one at a time,
// their best 75–99 % match found in the rest (the engine's score), and three suggestions compared with the
// held-out translation — the raw match's target, the full-sentence MT of the held-out source, and the match
// repaired by MT (src/modules/mt/repair.ts) — by character edit distance and chrF, per score band. The
// repair is measured twice on the same MT answers: located by MT alone, and with the memory's word
// alignments as the second way (repair-alignment.ts), from a lexicon trained on the entries not held out.
import { type PreparedText, prepareText, scoreAtLeast } from '../src/matching/score.ts';
import { ApertiumProvider } from '../src/modules/mt/providers/apertium.ts';
import { type ApplyOptions, applyRepair, type PlanOptions, planRepair } from '../src/modules/mt/repair.ts';
import { alignPair, type LearnedTranslation, wordsToLearn } from '../src/modules/mt/repair-alignment.ts';
import { stemmerOf } from '../src/terminology/stemmers.ts';
import { WordAligner } from '../src/terminology/word-alignment.ts';
import { maskForMt, unmaskMt } from '../src/text/mt-masking.ts';
import { startApertium } from '../test/helpers/apertium.ts';
import { charEditDistance, chrF } from './chrf.ts';
import { prng, readTmxPairs } from './corpus.ts';

export const BANDS = [
  { name: '75–84', min: 75, max: 84 },
  { name: '85–94', min: 85, max: 94 },
  { name: '95–99', min: 95, max: 99 },
] as const;

interface Figures {
  edits: number;
  chrf: number;
}

export interface BandResult {
  band: string;
  /** Held-out entries whose best match falls in the band. */
  n: number;
  raw: Figures;
  mt: Figures;
  /** Where a repair was offered: how many, and raw and repaired on those entries. */
  offered: number;
  rawWhereOffered: Figures;
  repaired: Figures;
  /** Over all n: the repair where offered, else the raw match (what the translator's first suggestion is). */
  offeredOrRaw: Figures;
  /** The same, located by MT alone (without the memory's word alignments). */
  mtOnly: { offered: number; rawWhereOffered: Figures; repaired: Figures; offeredOrRaw: Figures };
  /** Entries only the alignments repair, and entries whose repair they changed (choosing among MT's places). */
  addedByAlignment: number;
  changedByAlignment: number;
  /** On the entries only the alignments repair: raw and repaired. */
  added: { raw: Figures; repaired: Figures };
}

export interface RepairBench {
  memory_entries: number;
  held_out_scanned: number;
  mt_requests: number;
  /** Pairs the lexicon behind the alignments was trained on (the memory less the held-out entries), and how long. */
  lexicon_pairs: number;
  lexicon_seconds: number;
  seconds: number;
  bands: BandResult[];
}

interface Case {
  /** The held-out entry's index in the memory. */
  index: number;
  source: string;
  reference: string;
  match: { source: string; target: string; score: number };
}

/** The best match of each held-out entry in the rest of the memory, kept while its band still wants entries. */
export function heldOutCases(
  pairs: { source: string; target: string }[],
  perBand: number,
  seed: number,
): { cases: Case[]; scanned: number } {
  const prepared: PreparedText[] = pairs.map((p) => prepareText(p.source));
  // Postings of distinct words: a 75 % match shares at least half of the longer text's words, which
  // leaves the score to be computed for a few candidates only.
  const postings = new Map<string, number[]>();
  for (const [i, p] of prepared.entries()) {
    for (const w of new Set(p.content)) {
      let list = postings.get(w);
      if (!list) postings.set(w, (list = []));
      list.push(i);
    }
  }
  const rand = prng(seed);
  const order = pairs.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const wanted = BANDS.map(() => perBand);
  const cases: Case[] = [];
  let scanned = 0;
  for (const i of order) {
    if (wanted.every((w) => w === 0)) break;
    scanned++;
    const q = prepared[i];
    if (q.content.length < 3) continue;
    const shared = new Map<number, number>();
    for (const w of new Set(q.content)) {
      const list = postings.get(w)!;
      // Very common words say little and cost most: "the", "%s".
      if (list.length > 5000) continue;
      for (const j of list) shared.set(j, (shared.get(j) ?? 0) + 1);
    }
    let best: { j: number; score: number } | null = null;
    for (const [j, count] of shared) {
      if (j === i || count * 2 < q.content.length) continue;
      // The rest of the memory: an entry with the same source is the held-out one's exact match, not a fuzzy one.
      if (prepared[j].nfc === q.nfc) {
        best = null;
        break;
      }
      const s = scoreAtLeast(q, prepared[j], 75);
      if (s && (best === null || s.score > best.score)) best = { j, score: s.score };
    }
    if (best === null || best.score > 99) continue;
    const band = BANDS.findIndex((b) => best.score >= b.min && best.score <= b.max);
    if (band < 0 || wanted[band] === 0) continue;
    // The same text on both sides is a memory of untranslated strings: nothing to measure.
    if (pairs[i].target === pairs[i].source) continue;
    wanted[band]--;
    const m = pairs[best.j];
    cases.push({
      index: i,
      source: pairs[i].source,
      reference: pairs[i].target,
      match: { ...m, score: best.score },
    });
  }
  return { cases, scanned };
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

function figures(suggestions: string[], references: string[]): Figures {
  return {
    edits: mean(suggestions.map((s, i) => charEditDistance(s, references[i]))),
    chrf: mean(suggestions.map((s, i) => chrF(s, references[i]))),
  };
}

export async function runRepairBench(options: {
  perBand: number;
  seed: number;
  apertiumUrl?: string;
  /** The repair's options (the defaults without): for trying variants of the algorithm. */
  plan?: PlanOptions;
  apply?: ApplyOptions;
  log: (line: string) => void;
}): Promise<RepairBench> {
  const { log } = options;
  const started = performance.now();
  const pairs = readTmxPairs('en-es.tmx.gz', 'en', 'es');
  const { cases, scanned } = heldOutCases(pairs, options.perBand, options.seed);
  log(
    `repair: ${cases.length} held-out entries with a 75–99 % match (${scanned} scanned of ${pairs.length})`,
  );
  // The lexicon as the server learns it (lexicon-worker.ts), from the memory without the held-out entries:
  // a match that is itself held out is aligned from what the others taught.
  const lexiconStarted = performance.now();
  const heldOut = new Set(cases.map((c) => c.index));
  const training = pairs.filter((_, i) => !heldOut.has(i));
  const aligner = new WordAligner();
  aligner.train(training);
  const lexiconSeconds = (performance.now() - lexiconStarted) / 1000;
  log(`repair: lexicon trained on ${training.length} pairs in ${lexiconSeconds.toFixed(1)} s`);
  const stem = stemmerOf('es');
  const learnedWords = new Map<string, LearnedTranslation[]>();
  const learnedOf = (source: string) => {
    for (const w of wordsToLearn(source)) {
      if (!learnedWords.has(w)) learnedWords.set(w, aligner.translations(w, { n: 5, stem }));
    }
    return learnedWords;
  };
  const apertium = options.apertiumUrl ? null : await startApertium();
  const url = options.apertiumUrl ?? apertium?.url;
  if (!url) throw new Error('the repair section needs apertium-apy (eng-spa) or --apertium-url');
  const provider = new ApertiumProvider(url);
  let requests = 0;
  // What the engine does around a provider (engine.ts): tags and placeholders masked, restored after.
  const translate = async (texts: string[]): Promise<(string | null)[]> => {
    const masks = texts.map((t) => maskForMt(t));
    requests += texts.length;
    const answers = await provider.translate(
      masks.map((m) => m.masked),
      'en',
      'es',
      AbortSignal.timeout(60_000),
    );
    return answers.map((a, i) => unmaskMt(texts[i], masks[i], a));
  };
  try {
    const rows: {
      band: number;
      c: Case;
      mt: string;
      repaired: string | null;
      mtOnly: string | null;
    }[] = [];
    for (const [k, c] of cases.entries()) {
      const plan = planRepair(
        { source: c.source, matchSource: c.match.source, matchTarget: c.match.target },
        options.plan,
      );
      const texts = [c.source, ...(plan?.texts ?? [])];
      const answers = await translate(texts);
      const mtOnly = plan ? applyRepair(plan, answers.slice(1), options.apply) : null;
      const alignment = plan
        ? alignPair(
            plan.diff.candidate,
            c.match.target.normalize('NFC'),
            learnedOf(plan.diff.candidate),
            stem,
          )
        : null;
      const repair = plan ? applyRepair(plan, answers.slice(1), { ...options.apply, alignment }) : null;
      const band = BANDS.findIndex((b) => c.match.score >= b.min && c.match.score <= b.max);
      rows.push({
        band,
        c,
        mt: answers[0] ?? '',
        repaired: repair?.target ?? null,
        mtOnly: mtOnly?.target ?? null,
      });
      if ((k + 1) % 100 === 0) log(`repair: ${k + 1}/${cases.length} repaired`);
    }
    const bands = BANDS.map((b, band) => {
      const mine = rows.filter((r) => r.band === band);
      const refs = mine.map((r) => r.c.reference);
      const offered = mine.filter((r) => r.repaired !== null);
      const offeredRefs = offered.map((r) => r.c.reference);
      const added = mine.filter((r) => r.mtOnly === null && r.repaired !== null);
      return {
        band: b.name,
        n: mine.length,
        raw: figures(
          mine.map((r) => r.c.match.target),
          refs,
        ),
        mt: figures(
          mine.map((r) => r.mt),
          refs,
        ),
        offered: offered.length,
        rawWhereOffered: figures(
          offered.map((r) => r.c.match.target),
          offeredRefs,
        ),
        repaired: figures(
          offered.map((r) => r.repaired!),
          offeredRefs,
        ),
        offeredOrRaw: figures(
          mine.map((r) => r.repaired ?? r.c.match.target),
          refs,
        ),
        mtOnly: (() => {
          const byMt = mine.filter((r) => r.mtOnly !== null);
          return {
            offered: byMt.length,
            rawWhereOffered: figures(
              byMt.map((r) => r.c.match.target),
              byMt.map((r) => r.c.reference),
            ),
            repaired: figures(
              byMt.map((r) => r.mtOnly!),
              byMt.map((r) => r.c.reference),
            ),
            offeredOrRaw: figures(
              mine.map((r) => r.mtOnly ?? r.c.match.target),
              refs,
            ),
          };
        })(),
        addedByAlignment: added.length,
        changedByAlignment: mine.filter((r) => r.mtOnly !== null && r.repaired !== r.mtOnly).length,
        added: {
          raw: figures(
            added.map((r) => r.c.match.target),
            added.map((r) => r.c.reference),
          ),
          repaired: figures(
            added.map((r) => r.repaired!),
            added.map((r) => r.c.reference),
          ),
        },
      };
    });
    return {
      memory_entries: pairs.length,
      held_out_scanned: scanned,
      mt_requests: requests,
      lexicon_pairs: training.length,
      lexicon_seconds: lexiconSeconds,
      seconds: (performance.now() - started) / 1000,
      bands,
    };
  } finally {
    await apertium?.stop();
  }
}
