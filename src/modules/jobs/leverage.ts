// Leverage analysis (POST /v2/jobs/{jobId}/stats): how much of a job each pair's memory already covers, in
// words as the scorer counts them (CJK a word per character) — what a CAT tool's "analysis" shows before any
// work starts, and what translators are paid by.
import type { Static } from 'typebox';
import { repetitionKey } from '../../matching/repetition-key.ts';
import { scoreBand } from '../../matching/score-bands.ts';
import { countWords } from '../../matching/word-count.ts';
import type { Db } from '../../store/db.ts';
import { segmentSources } from '../documents/service.ts';
import type { IndexCache } from '../memories/index-cache.ts';
import { bestScores } from '../memories/service.ts';
import type { projectsOfJob } from '../projects/service.ts';
import type { JobLeverageStats, LeverageBands, ProjectLeverage } from './schemas.ts';

type Bands = Static<typeof LeverageBands>;
type Project = Awaited<ReturnType<typeof projectsOfJob>>[number];

const noBands = (): Bands => ({ exact: 0, fuzzy95: 0, fuzzy85: 0, fuzzy75: 0, repetitions: 0, new: 0 });

/**
 * One pair's analysis. Lilt's three figures count every segment by its best match. The bands count a
 * segment whose identical source came earlier in the job (in any of its files) as a repetition instead:
 * it is translated once, the way Trados and memoQ analyse.
 */
async function analyseProject(
  db: Db,
  indexes: IndexCache,
  project: Project,
): Promise<Static<typeof ProjectLeverage>> {
  const scores = new Map<string, number | null>();
  const bands = noBands();
  let exactWords = 0;
  let fuzzyWords = 0;
  let newWords = 0;
  for (const { id } of project.document) {
    for await (const page of segmentSources(db, id)) {
      const sources = page.map(repetitionKey);
      const unseen = [...new Set(sources.filter((s) => !scores.has(s)))];
      const found = await bestScores({ db, indexes }, project.memory_id, unseen);
      const fresh = new Set(unseen);
      for (const [i, s] of unseen.entries()) scores.set(s, found[i]);
      for (const source of sources) {
        const words = countWords(source);
        const which = scoreBand(scores.get(source) ?? null);
        if (which === 'exact') exactWords += words;
        else if (which === 'new') newWords += words;
        else fuzzyWords += words;
        // The first occurrence in the job takes its band; every later one is a repetition.
        if (fresh.delete(source)) bands[which] += words;
        else bands.repetitions += words;
      }
    }
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
    bands,
  };
}

export async function analyseJob(
  db: Db,
  indexes: IndexCache,
  projects: readonly Project[],
): Promise<Static<typeof JobLeverageStats>> {
  const analysed: Static<typeof ProjectLeverage>[] = [];
  for (const project of projects) analysed.push(await analyseProject(db, indexes, project));
  const bands = noBands();
  for (const p of analysed) for (const k of Object.keys(bands) as (keyof Bands)[]) bands[k] += p.bands[k];
  const sum = (k: 'sourceWords' | 'exactWords' | 'fuzzyWords' | 'newWords') =>
    analysed.reduce((n, p) => n + p[k], 0);
  return {
    sourceWords: sum('sourceWords'),
    exactWords: sum('exactWords'),
    fuzzyWords: sum('fuzzyWords'),
    newWords: sum('newWords'),
    projects: analysed,
    bands,
  };
}
