// Document bench over HTTP: a 20,000-segment text file uploaded, pre-translated against en-de, exported both ways.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { literalToTagged } from '../src/formats/tagged-literal.ts';
import { segmentSentences } from '../src/text/segment.ts';
import { buildCorpus, corpusInUse, prng, readTmxPairs } from './corpus.ts';
import { type Api, HttpError, withServer } from './http-bench.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface BenchDocument {
  text: string;
  paragraphs: number;
  /** Sentence segments the server's segmenter makes of it. */
  segments: number;
}

/**
 * Plain text of exactly `segments` English sentences, one to three sources a paragraph, paragraphs apart by
 * a blank line. The sources are the real en-de ones and seeded variants of them (as many again), so
 * pre-translation meets exact matches, fuzzy matches and misses. Counted with the server's own segmenter.
 */
export function buildDocument(segments: number, seed: number): BenchDocument {
  const pairs = buildCorpus(2 * readTmxPairs('en-de.tmx.gz', 'en', 'de').length, seed);
  const rand = prng(seed);
  const sources = pairs.map((p) => p.source.trim()).filter((s) => s !== '' && !/[\r\n]/.test(s));
  const paragraphs: string[] = [];
  let count = 0;
  while (count < segments) {
    const take = 1 + Math.floor(rand() * 3);
    const parts: string[] = [];
    for (let i = 0; i < take; i++) {
      const s = sources[Math.floor(rand() * sources.length)];
      parts.push(s);
      // A source without closing punctuation would run into the next one as a single sentence.
      if (!/[.!?]$/.test(s)) break;
    }
    const paragraph = parts.join(' ');
    const n = segmentSentences(literalToTagged(paragraph), 'en').length;
    if (n === 0 || count + n > segments) continue;
    paragraphs.push(paragraph);
    count += n;
  }
  return { text: `${paragraphs.join('\n\n')}\n`, paragraphs: paragraphs.length, segments: count };
}

interface DocumentView {
  id: number;
  num_segments: number;
  import_in_progress: boolean;
  import_succeeded: boolean;
  import_error_message: string | null;
  is_pretranslating: boolean;
  status: { pretranslation: string };
  segments?: { target: string | null; match_score: number | null }[];
}

export interface DocumentBenchOptions {
  dataDir: string;
  workDir: string;
  apiKey: string;
  segments?: number;
  seed?: number;
  log?: (line: string) => void;
}

export type DocumentBenchResult =
  | { skipped: string }
  | {
      memory_units: number;
      memory_import_s: number;
      document_segments: number;
      document_paragraphs: number;
      document_mb: number;
      /** Upload start to import_succeeded. */
      upload_s: number;
      upload_segments_per_s: number;
      /** POST pretranslate to status.pretranslation idle. */
      pretranslate_s: number;
      pretranslate_segments_per_s: number;
      pretranslated: number;
      exact_matches: number;
      xliff_export_s: number;
      xliff_mb: number;
      original_export_s: number;
      original_mb: number;
    };

/** Polls the document until `done` says so; answers the last view. */
async function pollDocument(
  api: Api,
  id: number,
  done: (d: DocumentView) => boolean,
  everyMs = 20,
): Promise<DocumentView> {
  for (;;) {
    const doc = await api.json<DocumentView>('GET', `/v2/documents?id=${id}`);
    if (doc.import_error_message) throw new Error(`document ${id}: ${doc.import_error_message}`);
    if (done(doc)) return doc;
    await sleep(everyMs);
  }
}

async function timedExport(api: Api, id: number, xliff: boolean): Promise<{ s: number; mb: number }> {
  const started = performance.now();
  const res = await api.request('GET', `/v2/documents/files?id=${id}&is_xliff=${xliff}`);
  const s = (performance.now() - started) / 1000;
  if (res.status !== 200) throw new HttpError(res.status, `export answered ${res.status}: ${res.body}`);
  return { s, mb: res.body.length / 2 ** 20 };
}

export async function runDocumentBench(opts: DocumentBenchOptions): Promise<DocumentBenchResult> {
  const log = opts.log ?? (() => {});
  const seed = opts.seed ?? 42;
  const doc = buildDocument(opts.segments ?? 20_000, seed);
  const docFile = join(opts.workDir, 'doc.txt');
  writeFileSync(docFile, doc.text);
  log(`documents: ${doc.segments} segments in ${doc.paragraphs} paragraphs`);

  return withServer({ dataDir: opts.dataDir, apiKey: opts.apiKey }, async (_server, api) => {
    const memory = await api.json<{ id: number }>('POST', '/v2/memories', {
      name: 'en-de',
      srclang: 'en',
      trglang: 'de',
    });
    let started = performance.now();
    const { job_id } = await api.upload<{ job_id: number }>(
      '/v2/memories/import',
      join(corpusInUse().dir, 'en-de.tmx.gz'),
      { memory_id: memory.id, name: 'en-de.tmx.gz' },
    );
    const task = await api.waitForTask(job_id);
    const memoryImportS = (performance.now() - started) / 1000;
    const counts = task.result as { imported: number; duplicates: number; skipped: number };
    const memoryUnits = counts.imported + counts.duplicates + counts.skipped;

    const project = await api.request('POST', '/v2/projects', {
      json: { name: 'bench', memory_id: memory.id },
    });
    if (project.status === 404) return { skipped: 'POST /v2/projects answered 404 (no document routes yet)' };
    if (project.status !== 200) throw new HttpError(project.status, `POST /v2/projects: ${project.body}`);
    const projectId = (JSON.parse(project.body.toString('utf8')) as { id: number }).id;

    started = performance.now();
    let uploaded: DocumentView;
    try {
      uploaded = await api.upload<DocumentView>('/v2/documents/files', docFile, {
        name: 'doc.txt',
        project_id: projectId,
      });
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) {
        return { skipped: 'POST /v2/documents/files answered 404 (no document upload route yet)' };
      }
      throw err;
    }
    const parsed = await pollDocument(api, uploaded.id, (d) => d.import_succeeded);
    const uploadS = (performance.now() - started) / 1000;
    log(`documents: ${parsed.num_segments} segments parsed in ${uploadS.toFixed(2)} s`);

    started = performance.now();
    await api.json('POST', '/v2/documents/pretranslate', { id: [uploaded.id] });
    await pollDocument(api, uploaded.id, (d) => !d.is_pretranslating && d.status.pretranslation === 'idle');
    const pretranslateS = (performance.now() - started) / 1000;
    log(`documents: pre-translated in ${pretranslateS.toFixed(2)} s`);

    const full = await api.json<DocumentView>('GET', `/v2/documents?id=${uploaded.id}&with_segments=true`);
    const segments = full.segments ?? [];
    const xliff = await timedExport(api, uploaded.id, true);
    const original = await timedExport(api, uploaded.id, false);
    log(`documents: XLIFF export ${xliff.s.toFixed(2)} s, original ${original.s.toFixed(2)} s`);

    return {
      memory_units: memoryUnits,
      memory_import_s: memoryImportS,
      document_segments: parsed.num_segments,
      document_paragraphs: doc.paragraphs,
      document_mb: Buffer.byteLength(doc.text) / 2 ** 20,
      upload_s: uploadS,
      upload_segments_per_s: parsed.num_segments / uploadS,
      pretranslate_s: pretranslateS,
      pretranslate_segments_per_s: parsed.num_segments / pretranslateS,
      pretranslated: segments.filter((s) => s.target !== null).length,
      exact_matches: segments.filter((s) => s.match_score === 100).length,
      xliff_export_s: xliff.s,
      xliff_mb: xliff.mb,
      original_export_s: original.s,
      original_mb: original.mb,
    };
  });
}
