// Leverage bench over HTTP (issue 25): a software-string catalog whose every message is in the memory word for
// word — single sentences and multi-sentence messages, made of the real memory's pairs (consecutive units
// joined into one message, as catalogs hold them) — imported into a project and pre-translated. How many
// segments and words are exactly leveraged (100 % or 101 %) with the per-format default (a PO entry is one
// segment) against segmentation forced to sentences (the cut before issue 25); and the same messages as prose
// paragraphs, where TM-driven segmentation keeps a paragraph the memory holds whole.
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { writeTmx } from '../src/formats/tmx/tmx-writer.ts';
import { countWords } from '../src/matching/word-count.ts';
import { type Pair, prng, readTmxPairs } from './corpus.ts';
import { type Api, withServer } from './http-bench.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LeverageBenchOptions {
  dataDir: string;
  workDir: string;
  apiKey: string;
  /** Messages of the catalog. */
  messages?: number;
  seed?: number;
  log?: (line: string) => void;
}

/** Exact leverage of one document: segments and words at 100 % or 101 %, of all. */
export interface Leverage {
  segments: number;
  exact_segments: number;
  words: number;
  exact_words: number;
}

export interface LeverageBenchResult {
  messages: number;
  multi_sentence_messages: number;
  memory_entries: number;
  /** The PO catalog, per-format default (one segment per entry) and forced to sentences. */
  po_default: Leverage;
  po_sentence: Leverage;
  /** The same messages as paragraphs of a text file: sentences with TM-driven segmentation, and without. */
  text_default: Leverage;
  text_sentence: Leverage;
}

/** A message that is a sentence: what a catalog entry of one sentence looks like. */
const SENTENCE = /^[A-Z][^\n\r"\\<>&]*[a-z][^\n\r"\\<>&]*[.!?]$/;

/**
 * The catalog's messages, each in the memory: single-sentence units of the real memory as they are, and
 * every third message two or three consecutive units joined into one multi-sentence message (its translation
 * the units' translations joined), deterministic for a seed.
 */
export function catalogMessages(pairs: readonly Pair[], count: number, seed: number): Pair[] {
  const rand = prng(seed);
  const sentences = pairs.filter(
    (p) => SENTENCE.test(p.source) && p.target.trim() !== '' && !/[\n\r]/.test(p.target),
  );
  const seen = new Set<string>();
  const messages: Pair[] = [];
  for (let i = 0; messages.length < count && i < sentences.length; ) {
    const take = messages.length % 3 === 2 ? 2 + Math.floor(rand() * 2) : 1;
    const parts = sentences.slice(i, i + take);
    i += take;
    const message = {
      source: parts.map((p) => p.source).join(' '),
      target: parts.map((p) => p.target.trim()).join(' '),
    };
    if (seen.has(message.source)) continue;
    seen.add(message.source);
    messages.push(message);
  }
  return messages;
}

const poString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function poCatalog(messages: readonly Pair[]): string {
  const head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: de\\n"\n';
  return `${head}\n${messages.map((m) => `msgid ${poString(m.source)}\nmsgstr ""\n`).join('\n')}`;
}

interface DocumentView {
  id: number;
  import_in_progress: boolean;
  import_succeeded: boolean;
  import_error_message: string | null;
  is_pretranslating: boolean;
  status: { pretranslation: string };
  segments?: { source: string; match_score: number | null }[];
}

/** Uploads a file into the project pre-translated with auto-accept; answers its exact leverage once done. */
async function leverageOf(api: Api, projectId: number, file: string, name: string): Promise<Leverage> {
  const uploaded = await api.upload<{ id: number }>('/v2/documents/files', file, {
    name,
    project_id: projectId,
    pretranslate: 'TM',
    auto_accept: true,
  });
  let doc: DocumentView;
  for (;;) {
    doc = await api.json<DocumentView>('GET', `/v2/documents?id=${uploaded.id}`);
    if (!doc.import_in_progress && !doc.import_succeeded)
      throw new Error(`import failed: ${doc.import_error_message}`);
    if (doc.import_succeeded && !doc.is_pretranslating && doc.status.pretranslation === 'idle') break;
    await sleep(50);
  }
  const full = await api.json<DocumentView>('GET', `/v2/documents?id=${uploaded.id}&with_segments=true`);
  const result: Leverage = { segments: 0, exact_segments: 0, words: 0, exact_words: 0 };
  for (const s of full.segments ?? []) {
    const words = countWords(s.source);
    result.segments++;
    result.words += words;
    // A context match (101 %) is stored as 100 with context_match set: both count.
    if (s.match_score === 100) {
      result.exact_segments++;
      result.exact_words += words;
    }
  }
  return result;
}

export async function runLeverageBench(opts: LeverageBenchOptions): Promise<LeverageBenchResult> {
  const log = opts.log ?? (() => {});
  const pairs = readTmxPairs('en-de.tmx.gz', 'en', 'de');
  const messages = catalogMessages(pairs, opts.messages ?? 600, opts.seed ?? 42);
  const multi = messages.filter((m) => /[.!?] [A-Z]/.test(m.source)).length;
  // The memory holds every message word for word: the whole catalog, as the adduser trial had it.
  const tmxFile = join(opts.workDir, 'leverage.tmx');
  await pipeline(
    Readable.from(
      writeTmx(messages, {
        srclang: 'en',
        trglang: 'de',
        creationTool: 'tessera-bench',
        creationToolVersion: '1',
      }),
    ),
    createWriteStream(tmxFile),
  );
  const poFile = join(opts.workDir, 'catalog.po');
  writeFileSync(poFile, poCatalog(messages));
  const textFile = join(opts.workDir, 'catalog.txt');
  writeFileSync(textFile, `${messages.map((m) => m.source).join('\n\n')}\n`);
  log(
    `leverage: a catalog of ${messages.length} messages (${multi} of several sentences), all in the memory`,
  );

  return withServer({ dataDir: opts.dataDir, apiKey: opts.apiKey }, async (_server, api) => {
    const memory = await api.json<{ id: number }>('POST', '/v2/memories', {
      name: 'catalog',
      srclang: 'en',
      trglang: 'de',
    });
    const { job_id } = await api.upload<{ job_id: number }>('/v2/memories/import', tmxFile, {
      memory_id: memory.id,
      name: 'leverage.tmx',
    });
    await api.waitForTask(job_id);
    const [imported] = await api.json<{ num_segments: number }[]>('GET', `/v2/memories?id=${memory.id}`);
    const project = async (segmentation: string) =>
      (
        await api.json<{ id: number }>('POST', '/v2/projects', {
          name: `leverage ${segmentation}`,
          memory_id: memory.id,
          segmentation,
        })
      ).id;
    const auto = await project('auto');
    const sentence = await project('sentence');
    const result: LeverageBenchResult = {
      messages: messages.length,
      multi_sentence_messages: multi,
      memory_entries: imported.num_segments,
      po_default: await leverageOf(api, auto, poFile, 'catalog.po'),
      po_sentence: await leverageOf(api, sentence, poFile, 'catalog.po'),
      text_default: await leverageOf(api, auto, textFile, 'catalog.txt'),
      text_sentence: await leverageOf(api, sentence, textFile, 'catalog.txt'),
    };
    const share = (l: Leverage) =>
      `${l.exact_segments}/${l.segments} segments, ${l.exact_words}/${l.words} words exact`;
    log(`leverage: PO default ${share(result.po_default)}; forced to sentences ${share(result.po_sentence)}`);
    log(
      `leverage: text default ${share(result.text_default)}; forced to sentences ${share(result.text_sentence)}`,
    );
    return result;
  });
}
