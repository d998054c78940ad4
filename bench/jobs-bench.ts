// Jobs bench over HTTP against the bench memory: a 20,000-segment source file uploaded once, a job made of it
// on the memory, its leverage analysis (POST /v2/jobs/{id}/stats: every segment matched by the real engine),
// and the zip export of the job.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDocument } from './document-bench.ts';
import { withServer } from './http-bench.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface JobsBenchOptions {
  dataDir: string;
  workDir: string;
  memoryId: number;
  apiKey: string;
  segments: number;
  seed: number;
  log?: (line: string) => void;
}

interface Bands {
  context: number;
  exact: number;
  fuzzy95: number;
  fuzzy85: number;
  fuzzy75: number;
  repetitions: number;
  new: number;
}

export interface JobsBenchResult {
  segments: number;
  source_words: number;
  memory_entries: number;
  /** POST /v2/jobs to creationStatus COMPLETE (the document parsed). */
  create_s: number;
  /** The analysis, first and second run (the second meets the same index: nothing changed). */
  stats_s: number;
  stats_again_s: number;
  segments_per_s: number;
  bands: Bands;
  /** GET export?type=files to isProcessing 0, and the zip's size. */
  export_s: number;
  zip_kb: number;
}

export async function runJobsBench(opts: JobsBenchOptions): Promise<JobsBenchResult> {
  const log = opts.log ?? (() => {});
  const doc = buildDocument(opts.segments, opts.seed + 7);
  const file = join(opts.workDir, 'job-source.txt');
  writeFileSync(file, doc.text);
  return withServer({ dataDir: opts.dataDir, apiKey: opts.apiKey }, async (server, api) => {
    const base = await server.listening();
    while ((await fetch(`${base}/readyz`)).status !== 200) await sleep(100);
    const [memory] = await api.json<{ num_segments: number }[]>('GET', `/v2/memories?id=${opts.memoryId}`);

    const uploaded = await api.upload<{ id: number }>('/v2/files', file, { name: 'job-source.txt' });
    log(`jobs: creating a job of ${doc.segments} segments on memory ${opts.memoryId}`);
    let started = performance.now();
    const job = await api.json<{ id: number }>('POST', '/v2/jobs', {
      name: 'Bench job',
      fileIds: [uploaded.id],
      srcLang: 'en',
      languagePairs: [{ trgLang: 'de', memoryId: opts.memoryId }],
    });
    for (;;) {
      const view = await api.json<{ creationStatus: string; processingErrorMsg: string | null }>(
        'GET',
        `/v2/jobs/${job.id}`,
      );
      if (view.creationStatus === 'FAILED')
        throw new Error(`job creation failed: ${view.processingErrorMsg}`);
      if (view.creationStatus === 'COMPLETE') break;
      await sleep(50);
    }
    const createS = (performance.now() - started) / 1000;

    type Stats = {
      sourceWords: number;
      exactWords: number;
      fuzzyWords: number;
      newWords: number;
      bands: Bands;
    };
    started = performance.now();
    const stats = await api.json<Stats>('POST', `/v2/jobs/${job.id}/stats`);
    const statsS = (performance.now() - started) / 1000;
    started = performance.now();
    await api.json<Stats>('POST', `/v2/jobs/${job.id}/stats`);
    const statsAgainS = (performance.now() - started) / 1000;
    if (stats.exactWords + stats.fuzzyWords + stats.newWords !== stats.sourceWords) {
      throw new Error(`the analysis does not add up: ${JSON.stringify(stats)}`);
    }
    log(
      `jobs: analysed in ${statsS.toFixed(2)} s (again ${statsAgainS.toFixed(2)} s): ${JSON.stringify(stats.bands)}`,
    );

    started = performance.now();
    await api.json('GET', `/v2/jobs/${job.id}/export?type=files`);
    for (;;) {
      const view = await api.json<{ isProcessing: number; processingErrorMsg: string | null }>(
        'GET',
        `/v2/jobs/${job.id}`,
      );
      if (view.isProcessing === -2) throw new Error(`export failed: ${view.processingErrorMsg}`);
      if (view.isProcessing === 0) break;
      await sleep(50);
    }
    const exportS = (performance.now() - started) / 1000;
    const zip = await api.request('GET', `/v2/jobs/${job.id}/download`);
    return {
      segments: doc.segments,
      source_words: stats.sourceWords,
      memory_entries: memory.num_segments,
      create_s: createS,
      stats_s: statsS,
      stats_again_s: statsAgainS,
      segments_per_s: doc.segments / statsS,
      bands: stats.bands,
      export_s: exportS,
      zip_kb: zip.body.length / 1024,
    };
  });
}
