// Leverage analysis (POST /v2/jobs/{jobId}/stats, GET /v2/projects/quote): how much of each language pair the
// pair's memory already covers, per file and per pair, in words as the scorer counts them (CJK a word per
// character) — what a CAT tool's "analysis" shows before any work starts, and what translators are paid by.
import type { Static } from 'typebox';
import { repetitionKey } from '../../matching/repetition-key.ts';
import { scoreBand } from '../../matching/score-bands.ts';
import { countWords } from '../../matching/word-count.ts';
import type { Db } from '../../store/db.ts';
import { segmentsInContext } from '../documents/service.ts';
import type { IndexCache } from '../memories/index-cache.ts';
import { bestScoresInContext, searchMemo } from '../memories/service.ts';
import type { projectsOfJob } from '../projects/service.ts';
import {
  type FileLeverage,
  type JobLeverageStats,
  LEVERAGE_BANDS,
  type LeverageBand,
  type LeverageBands,
  type ProjectLeverage,
} from './schemas.ts';
import { type Weights, weighedWords } from './weights.ts';

type Bands = Static<typeof LeverageBands>;
type Project = Awaited<ReturnType<typeof projectsOfJob>>[number];

/**
 * Which machine translation engine serves a language pair for an organization (null: none), as the engines'
 * pairs name it — asked once per pair; nothing is translated.
 */
export type MtProviderOf = (organizationId: number, source: string, target: string) => Promise<string | null>;

const noBands = (): Bands => Object.fromEntries(LEVERAGE_BANDS.map((b) => [b, 0])) as Bands;

/** Words and segments counted by band. */
class Tally {
  readonly bands = noBands();
  readonly bandSegments = noBands();
  words = 0;
  segments = 0;

  add(band: LeverageBand, words: number) {
    this.bands[band] += words;
    this.bandSegments[band]++;
    this.words += words;
    this.segments++;
  }

  addAll(other: Tally) {
    for (const b of LEVERAGE_BANDS) {
      this.bands[b] += other.bands[b];
      this.bandSegments[b] += other.bandSegments[b];
    }
    this.words += other.words;
    this.segments += other.segments;
  }
}

/**
 * One pair's analysis. Lilt's three figures (exact, fuzzy, new) count every segment by its best match. The
 * bands count each segment once, the way Trados and memoQ analyse:
 * - a context (101 %) match — the memory holds the source where this segment stands (its key, or the same
 *   segments before and after it), found as pre-translation finds it — is 101 % even when it repeats, since
 *   its context is its own (memoQ ranks 101 % before repetitions);
 * - otherwise a segment whose identical source came earlier in the pair (in any of the job's files) is a
 *   repetition: it is translated once;
 * - otherwise its best match's band (100 %, 95–99 %, 85–94 %, 75–84 %, or new below 75 %), but a segment
 *   below 75 % that holds a machine translation draft (pre-translated by MT, not confirmed or edited since)
 *   is MT: its translator post-edits rather than translates (MateCat's "MT" band).
 * And, when an engine serves the pair (`mtProvider`), the new words it could draft (mtAvailableWords).
 */
export async function analyseProject(
  db: Db,
  indexes: IndexCache,
  project: Project,
  weights: Weights,
  mtProvider: string | null = null,
): Promise<Static<typeof ProjectLeverage>> {
  const seen = new Set<string>();
  // One memory query per distinct source across the pair's files.
  const memo = searchMemo();
  const pair = new Tally();
  const files: Static<typeof FileLeverage>[] = [];
  let exactWords = 0;
  let fuzzyWords = 0;
  let newWords = 0;
  for (const doc of project.document) {
    const file = new Tally();
    for await (const page of segmentsInContext(db, doc)) {
      const found = await bestScoresInContext({ db, indexes }, project.memory_id, page, memo);
      for (const [i, segment] of page.entries()) {
        const words = countWords(segment.source);
        const match = found[i];
        const which = scoreBand(match?.score ?? null);
        if (which === 'exact') exactWords += words;
        else if (which === 'new') newWords += words;
        else fuzzyWords += words;
        const key = repetitionKey(segment.source);
        const repeated = seen.has(key);
        seen.add(key);
        file.add(
          match?.contextMatch
            ? 'context'
            : repeated
              ? 'repetitions'
              : which === 'new' && segment.mtDraft
                ? 'mt'
                : which,
          words,
        );
      }
    }
    pair.addAll(file);
    files.push({
      documentId: doc.id,
      name: doc.name,
      sourceWords: file.words,
      segments: file.segments,
      bands: file.bands,
      bandSegments: file.bandSegments,
      weightedWords: weighedWords(file.bands, weights),
      mtAvailableWords: mtProvider === null ? 0 : file.bands.new,
    });
  }
  return {
    id: project.id,
    sourceWords: exactWords + fuzzyWords + newWords,
    exactWords,
    fuzzyWords,
    newWords,
    srcLang: project.srclang,
    trgLang: project.trglang,
    memoryId: project.memory_id,
    bands: pair.bands,
    segments: pair.segments,
    bandSegments: pair.bandSegments,
    weightedWords: weighedWords(pair.bands, weights),
    mtProvider,
    mtAvailableWords: mtProvider === null ? 0 : pair.bands.new,
    files,
  };
}

export async function analyseJob(
  db: Db,
  indexes: IndexCache,
  projects: readonly Project[],
  weights: Weights,
  mtProviders: readonly (string | null)[] = [],
): Promise<Static<typeof JobLeverageStats>> {
  const analysed: Static<typeof ProjectLeverage>[] = [];
  for (const [i, project] of projects.entries()) {
    analysed.push(await analyseProject(db, indexes, project, weights, mtProviders[i] ?? null));
  }
  const bands = noBands();
  const bandSegments = noBands();
  for (const p of analysed) {
    for (const b of LEVERAGE_BANDS) {
      bands[b] += p.bands[b];
      bandSegments[b] += p.bandSegments[b];
    }
  }
  const sum = (
    k: 'sourceWords' | 'exactWords' | 'fuzzyWords' | 'newWords' | 'segments' | 'mtAvailableWords',
  ) => analysed.reduce((n, p) => n + p[k], 0);
  return {
    sourceWords: sum('sourceWords'),
    exactWords: sum('exactWords'),
    fuzzyWords: sum('fuzzyWords'),
    newWords: sum('newWords'),
    projects: analysed,
    bands,
    segments: sum('segments'),
    bandSegments,
    weightedWords: weighedWords(bands, weights),
    weights,
    mtAvailableWords: sum('mtAvailableWords'),
  };
}
