// GET /v2/lexicon for the learned lexicon's tests: a memory's lexicon is trained in the background after the
// first question, so a test asks until the answer holds a learned translation.
import assert from 'node:assert/strict';
import type { client } from './api.ts';

/** One translation of Lilt's LexiconEntry, with Tessera's `origin`. */
export interface LexiconTranslation {
  source: string;
  target: string;
  frequency: number;
  status: string | null;
  origin: string;
  memory_id: number;
}

/** The translations GET /v2/lexicon answers for `query`, as they are now. */
export async function lexicon(
  api: ReturnType<typeof client>,
  memoryId: number,
  query: string,
  langs = 'srclang=en&trglang=de',
): Promise<LexiconTranslation[]> {
  const res = await api.get(`/v2/lexicon?memory_id=${memoryId}&${langs}&query=${encodeURIComponent(query)}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json()[0].translations as LexiconTranslation[];
}

/** Asks until the memory's lexicon answers with a learned translation (at most 15 s). */
export async function learned(
  api: ReturnType<typeof client>,
  memoryId: number,
  query: string,
  langs = 'srclang=en&trglang=de',
): Promise<LexiconTranslation[]> {
  for (let i = 0; i < 600; i++) {
    const answer = await lexicon(api, memoryId, query, langs);
    if (answer.some((t) => t.origin === 'memory')) return answer;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the lexicon never learned "${query}"`);
}
