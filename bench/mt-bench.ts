// Machine translation through the real `tessera serve` with the live Apertium engine (apertium-apy on a free
// loopback port, as the tests start it): the latency of the editor's suggestion (GET /v2/translate/suggestion)
// against the same texts sent straight to APy — Tessera's overhead is the difference — the cache hit path
// (the same suggestions again), and a tm+mt pre-translation of a 20,000-segment document whose memory holds
// part of its sentences, cold (MT from APy) and again with every MT in the cache.
import { createWriteStream } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { literalToTagged } from '../src/formats/tagged-literal.ts';
import { writeTmx } from '../src/formats/tmx/tmx-writer.ts';
import { segmentSentences } from '../src/text/segment.ts';
import { apertiumInstalled, startApertium } from '../test/helpers/apertium.ts';
import { createContext } from '../test/helpers/context.ts';
import { storeTargets } from '../test/helpers/stores.ts';
import { type Pair, prng, readTmxPairs } from './corpus.ts';
import type { Percentiles } from './engine-bench.ts';
import { type Api, withServer } from './http-bench.ts';
import { percentiles } from './table.ts';

export interface MtBenchOptions {
  dataDir: string;
  workDir: string;
  apiKey: string;
  /** Distinct texts timed on each path. */
  texts?: number;
  segments?: number;
  seed?: number;
  log?: (line: string) => void;
}

export type MtBenchResult =
  | { skipped: string }
  | {
      texts: number;
      /**
       * In one process (the app on SQLite, answering app.inject; APy through a keep-alive node:http client):
       * no process hop but APy's, so that the machine's other load adds as little as it can.
       */
      inject_ms: Percentiles;
      inject_direct_ms: Percentiles;
      overhead_p50_ms: number;
      overhead_p99_ms: number;
      /** The median of the per-text differences (Tessera − direct, the same text a moment apart). */
      paired_overhead_p50_ms: number;
      cache_hit_ms: Percentiles;
      /** GET /healthz by app.inject between the hits: what the machine allows a trivial request. */
      healthz_ms: Percentiles;
      /** Through the real `tessera serve` process: client-observed over one keep-alive connection each. */
      http: { direct_ms: Percentiles; tessera_ms: Percentiles; cache_hit_ms: Percentiles };
      document_segments: number;
      memory_units: number;
      /** The segments the memory matched (≥ 75 %) and those MT translated, by the task's result. */
      tm_segments: number;
      mt_segments: number;
      /** Distinct sources among the MT segments: what APy translated (repetitions come from the cache). */
      mt_distinct_texts: number;
      pretranslate_cold_s: number;
      pretranslate_cold_segments_per_s: number;
      pretranslate_cached_s: number;
      pretranslate_cached_segments_per_s: number;
    };

/** GET on a keep-alive agent, answering the body and the milliseconds from sending to the last byte. */
function timedGet(agent: Agent, url: URL, headers: Record<string, string> = {}) {
  return new Promise<{ ms: number; status: number; body: string }>((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, agent, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            ms: performance.now() - started,
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Single-sentence sources (the segmenter makes one segment of each), distinct, of 3 to 40 words. */
function sentences(pairs: readonly Pair[]): Pair[] {
  const seen = new Set<string>();
  return pairs.filter((p) => {
    const s = p.source.trim();
    const words = s.split(/\s+/).length;
    if (seen.has(s) || words < 3 || words > 40 || /[\r\n<>&]/.test(s)) return false;
    if (segmentSentences(literalToTagged(s), 'en').length !== 1) return false;
    seen.add(s);
    return true;
  });
}

/**
 * A turn of the event loop between injected requests, untimed, as a server's loop turns between requests
 * that arrive on sockets. Without it, what each `app.inject` leaves for the loop's next turn piles up over
 * a tight loop of them (measured: 10 KB a request, 680 KB for a large answer; none over real HTTP, none with
 * a turn between), and the young generation's collections, copying it, took 23–41 ms each and made the cache
 * hit's p99 the bench's own.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The suggestion's latency measured in one process: each text through `app.inject` (cache missed: the text is
 * new) and straight to APy, alternating which goes first; then the same texts again (the cache hit path).
 */
async function inProcess(apyUrl: string, timed: readonly string[], warm: readonly string[]) {
  const [sqlite] = await storeTargets();
  // The per-key rate limit is not under test (its hook still runs): thousands of requests a minute are sent.
  const ctx = await createContext(sqlite, {
    TESSERA_MT_APERTIUM_URL: apyUrl,
    TESSERA_LOG_LEVEL: 'warn',
    TESSERA_RATE_LIMIT: '10000000',
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const headers = { authorization: `Bearer ${ctx.adminKey}` };
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/v2/memories',
      headers,
      payload: { name: 'en-es', srclang: 'en', trglang: 'es' },
    });
    const memoryId = (created.json() as { id: number }).id;
    const inject = async (text: string) => {
      const started = performance.now();
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/v2/translate/suggestion?memory_id=${memoryId}&source=${encodeURIComponent(text)}`,
        headers,
      });
      const ms = performance.now() - started;
      if (res.statusCode !== 200 || (res.json() as { target: string | null }).target === null) {
        throw new Error(`suggestion answered ${res.statusCode}: ${res.body}`);
      }
      await turn();
      return ms;
    };
    const direct = async (text: string) => {
      const r = await timedGet(agent, apyUrlOf(apyUrl, text));
      if (r.status !== 200) throw new Error(`APy answered ${r.status}: ${r.body}`);
      // The same turn as after Tessera's answer: each path starts with the loop as the other left it.
      await turn();
      return r.ms;
    };
    for (const text of warm) {
      await inject(text);
      await direct(text);
    }
    // Then the warm texts again, now answered from the cache, untimed: the handling both paths share (routing,
    // the key, the memory, the engines, the cache's read) is compiled as a process that has been serving is.
    // V8 optimises its many functions over the first few thousand requests (measured in one process: hits p50
    // 0.30–0.35 ms over the first 3,000, 0.12–0.14 ms after 6,000); without this the timed rounds were also
    // that compilation.
    for (let round = 0; round < 10; round++) for (const text of warm) await inject(text);
    const viaTessera: number[] = [];
    const straight: number[] = [];
    const differences: number[] = [];
    for (const [i, text] of timed.entries()) {
      if (i % 2 === 0) {
        viaTessera.push(await inject(text));
        straight.push(await direct(text));
      } else {
        straight.push(await direct(text));
        viaTessera.push(await inject(text));
      }
      differences.push(viaTessera[i] - straight[i]);
    }
    const hits: number[] = [];
    // The floor: /healthz (no store, no MT) timed the same way between the hits, so that a tail the machine's
    // other work causes shows in both.
    const floor: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const text of timed) {
        hits.push(await inject(text));
        const started = performance.now();
        await ctx.app.inject({ method: 'GET', url: '/healthz' });
        floor.push(performance.now() - started);
        await turn();
      }
    }
    return {
      inject: percentiles(viaTessera),
      // Text by text, the two calls a moment apart: less exposed to the machine's load drifting.
      pairedP50: percentiles(differences).p50,
      direct: percentiles(straight),
      hits: percentiles(hits),
      floor: percentiles(floor),
    };
  } finally {
    agent.destroy();
    await ctx.close();
  }
}

/** APy's translate URL with the provider's own parameters (providers/apertium.ts): html, unknown unmarked. */
function apyUrlOf(base: string, text: string): URL {
  const q = new URLSearchParams({ langpair: 'eng|spa', q: text, format: 'html', markUnknown: 'no' });
  return new URL(`/translate?${q}`, base);
}

async function pretranslate(api: Api, documentId: number) {
  const started = performance.now();
  await api.json('POST', '/v2/documents/pretranslate', { id: [documentId], mode: 'tm+mt' });
  for (;;) {
    const doc = await api.json<{ is_pretranslating: boolean; status: { pretranslation: string } }>(
      'GET',
      `/v2/documents?id=${documentId}`,
    );
    if (!doc.is_pretranslating && doc.status.pretranslation === 'idle') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return (performance.now() - started) / 1000;
}

export async function runMtBench(opts: MtBenchOptions): Promise<MtBenchResult> {
  const log = opts.log ?? (() => {});
  if (!apertiumInstalled()) {
    return {
      skipped:
        'apertium-apy with the eng-spa pair is not installed (apt-get install apertium-apy apertium-eng-spa)',
    };
  }
  const seed = opts.seed ?? 42;
  const rand = prng(seed);
  const pool = sentences(readTmxPairs('en-es.tmx.gz', 'en', 'es'));
  // Shuffled with the seed: the timed texts, then the document's pool.
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  const textCount = Math.min(opts.texts ?? 300, Math.floor(pool.length / 4));
  const timed = pool.slice(0, textCount).map((p) => p.source.trim());
  const docPool = pool.slice(textCount);
  // The document: a sentence a paragraph drawn from the pool (repeating as documents do); the memory holds
  // the first half of the pool, so about half the segments are exact matches and the rest go to MT.
  const segments = opts.segments ?? 20_000;
  const docSources = Array.from({ length: segments }, () => docPool[Math.floor(rand() * docPool.length)]);
  const inMemory = docPool.slice(0, Math.floor(docPool.length / 2));
  const docFile = join(opts.workDir, 'mt-doc.txt');
  await pipeline(
    Readable.from([docSources.map((p) => p.source.trim()).join('\n\n'), '\n']),
    createWriteStream(docFile),
  );
  const tmxFile = join(opts.workDir, 'mt-memory.tmx');
  const header = { srclang: 'en', trglang: 'es', creationTool: 'tessera-bench', creationToolVersion: '1' };
  await pipeline(Readable.from(writeTmx(inMemory, header)), createWriteStream(tmxFile));

  const apertium = await startApertium();
  if (!apertium) return { skipped: 'apertium-apy did not start' };
  try {
    const local = await inProcess(
      apertium.url,
      timed,
      docPool.slice(-400, -100).map((p) => p.source.trim()),
    );
    log(
      `mt: in one process, APy p50 ${local.direct.p50.toFixed(2)} ms, inject p50 ${local.inject.p50.toFixed(2)} ms, hit p50 ${local.hits.p50.toFixed(2)} ms`,
    );
    // The server process below has its own cache: the same texts are new to it.
    return await withServer(
      {
        dataDir: opts.dataDir,
        apiKey: opts.apiKey,
        env: { TESSERA_MT_APERTIUM_URL: apertium.url, TESSERA_MT_CACHE_DAYS: '30' },
      },
      async (server, api) => {
        const memory = await api.json<{ id: number }>('POST', '/v2/memories', {
          name: 'en-es',
          srclang: 'en',
          trglang: 'es',
        });
        const { job_id } = await api.upload<{ job_id: number }>('/v2/memories/import', tmxFile, {
          memory_id: memory.id,
          name: 'mt-memory.tmx',
        });
        await api.waitForTask(job_id);
        const base = new URL(await server.listening());
        const tesseraAgent = new Agent({ keepAlive: true, maxSockets: 1 });
        const apyAgent = new Agent({ keepAlive: true, maxSockets: 1 });
        const auth = { authorization: `Bearer ${opts.apiKey}` };
        const suggestion = (text: string) =>
          new URL(`/v2/translate/suggestion?memory_id=${memory.id}&source=${encodeURIComponent(text)}`, base);
        const direct = (text: string) => apyUrlOf(apertium.url, text);
        try {
          // Warm both paths (APy's pipeline, the server's JIT) on texts that are not timed.
          for (const p of docPool.slice(-30)) {
            await timedGet(apyAgent, direct(p.source));
            await timedGet(tesseraAgent, suggestion(p.source), auth);
          }
          const directMs: number[] = [];
          const tesseraMs: number[] = [];
          // Each text once on each path, which goes first alternating, so that neither path profits from
          // the other having just warmed APy's pipeline for it.
          for (const [i, text] of timed.entries()) {
            const viaTessera = async () => {
              const r = await timedGet(tesseraAgent, suggestion(text), auth);
              const answer = JSON.parse(r.body) as { target: string | null; unavailable: string | null };
              if (r.status !== 200 || answer.target === null) {
                throw new Error(`suggestion answered ${r.status}: ${r.body}`);
              }
              tesseraMs.push(r.ms);
            };
            const viaApy = async () => {
              const r = await timedGet(apyAgent, direct(text));
              if (r.status !== 200) throw new Error(`APy answered ${r.status}: ${r.body}`);
              directMs.push(r.ms);
            };
            if (i % 2 === 0) {
              await viaTessera();
              await viaApy();
            } else {
              await viaApy();
              await viaTessera();
            }
          }
          // The cache hit path: the same texts again, now in the store's cache.
          const hitMs: number[] = [];
          for (let round = 0; round < 3; round++) {
            for (const text of timed) {
              const r = await timedGet(tesseraAgent, suggestion(text), auth);
              if (r.status !== 200) throw new Error(`suggestion answered ${r.status}: ${r.body}`);
              hitMs.push(r.ms);
            }
          }
          const d = percentiles(directMs);
          const t = percentiles(tesseraMs);
          log(
            `mt: APy p50 ${d.p50.toFixed(2)} ms, Tessera p50 ${t.p50.toFixed(2)} ms, hit p50 ${percentiles(hitMs).p50.toFixed(2)} ms`,
          );

          const project = await api.json<{ id: number }>('POST', '/v2/projects', {
            name: 'mt bench',
            memory_id: memory.id,
          });
          const uploaded = await api.upload<{ id: number }>('/v2/documents/files', docFile, {
            name: 'mt-doc.txt',
            project_id: project.id,
          });
          for (;;) {
            const doc = await api.json<{ import_succeeded: boolean; import_error_message: string | null }>(
              'GET',
              `/v2/documents?id=${uploaded.id}`,
            );
            if (doc.import_error_message) throw new Error(doc.import_error_message);
            if (doc.import_succeeded) break;
            await new Promise((r) => setTimeout(r, 50));
          }
          const coldS = await pretranslate(api, uploaded.id);
          log(`mt: tm+mt pre-translation of ${segments} segments in ${coldS.toFixed(1)} s (cold)`);
          const cachedS = await pretranslate(api, uploaded.id);
          log(`mt: again with MT cached in ${cachedS.toFixed(1)} s`);
          const full = await api.json<{
            segments: { source: string; mt_provider: string | null; match_score: number | null }[];
          }>('GET', `/v2/documents?id=${uploaded.id}&with_segments=true`);
          const mtSegments = full.segments.filter((s) => s.mt_provider !== null);
          const tmSegments = full.segments.filter((s) => s.match_score !== null).length;
          // Each distinct text goes to APy once (the engine's cache answers its repetitions).
          const mtTexts = new Set(mtSegments.map((s) => s.source)).size;
          log(
            `mt: ${mtSegments.length} segments by MT, ${mtTexts} distinct texts; ${tmSegments} by the memory`,
          );
          return {
            texts: timed.length,
            inject_ms: local.inject,
            inject_direct_ms: local.direct,
            overhead_p50_ms: local.inject.p50 - local.direct.p50,
            overhead_p99_ms: local.inject.p99 - local.direct.p99,
            paired_overhead_p50_ms: local.pairedP50,
            cache_hit_ms: local.hits,
            healthz_ms: local.floor,
            http: { direct_ms: d, tessera_ms: t, cache_hit_ms: percentiles(hitMs) },
            document_segments: full.segments.length,
            memory_units: inMemory.length,
            tm_segments: tmSegments,
            mt_segments: mtSegments.length,
            mt_distinct_texts: mtTexts,
            pretranslate_cold_s: coldS,
            pretranslate_cold_segments_per_s: full.segments.length / coldS,
            pretranslate_cached_s: cachedS,
            pretranslate_cached_segments_per_s: full.segments.length / cachedS,
          };
        } finally {
          tesseraAgent.destroy();
          apyAgent.destroy();
        }
      },
    );
  } finally {
    await apertium.stop();
  }
}
