// Runs every path a search takes — exact, fuzzy with one and two edits, case and number changes, unrelated
// text, wordless text, CJK, concordance — on a small private index, before the server says it is ready.
//
// Why: loading a saved index runs none of the search code. Without this the first queries of each kind
// ran in V8's interpreter and baseline code, and an optimising compile landed in the middle of real traffic
// (at ten million entries a late compile of the refresh path put 0.5–0.8 ms into the unrelated class's p99).
// Optimised code is per function, not per index, so a private index of a few thousand synthetic entries
// trains the same functions the memories' indexes run; the memories' own indexes are never searched here
// (no stamp, no cache line of theirs is touched).
import { ConcordanceIndex } from './concordance.ts';
import { MemoryIndex } from './memory-index.ts';
import { MIN_SCORE } from './score-bands.ts';

const WORDS = (
  'file open save close print export import memory segment document project translate review confirm ' +
  'delete rename folder window editor server account language target source match score filter search ' +
  'user role key value error warning message setting option format number page line column table'
).split(' ');
const CJK = 'ファイルを開く保存して閉じる翻訳メモリの検索結果文書を確認する設定言語';
const WORDLESS = ['%s', '...', '%d / %d', ':', '—', '%1$s: %2$s', '(%s)', '#'];

/** A small deterministic PRNG (mulberry32): the same entries at every start. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(rand: () => number): string {
  const n = 3 + Math.floor(rand() * 9);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.08) words.push(String(Math.floor(rand() * 1000)));
    else if (r < 0.12) words.push('%s');
    else words.push(WORDS[Math.floor(rand() * WORDS.length)]);
  }
  words[0] = words[0].charAt(0).toUpperCase() + words[0].slice(1);
  return `${words.join(' ')}${rand() < 0.5 ? '.' : ':'}`;
}

function cjkSentence(rand: () => number): string {
  const start = Math.floor(rand() * (CJK.length - 12));
  return CJK.slice(start, start + 6 + Math.floor(rand() * 6));
}

/** The query of each kind the engine tells apart, made from an entry. */
function variants(rand: () => number, entry: string): string[] {
  const words = entry.split(' ');
  const swap = (k: number) => {
    const w = [...words];
    for (let i = 0; i < k; i++) w[Math.floor(rand() * w.length)] = WORDS[Math.floor(rand() * WORDS.length)];
    return w.join(' ');
  };
  return [
    entry,
    swap(1),
    swap(2),
    entry.toUpperCase(),
    entry.replace(/\d+/g, (d) => String(Number(d) + 1)),
    'Completely unrelated words here never stored anywhere.',
  ];
}

/** Entries in the private index, and rounds of queries: 150–200 ms of work in all on a 2-core machine. */
const ENTRIES = 3000;
const ROUNDS = 200;

/**
 * The warm-up, in slices: it yields after every round of queries (a millisecond or so), so that a caller
 * keeping the event loop turning lets requests in between. Answers how many searches it ran.
 */
export function* warmUpSearchPaths(): Generator<void, number> {
  const rand = prng(2024);
  const index = new MemoryIndex();
  const concordance = new ConcordanceIndex();
  const entries: string[] = [];
  const cjk: string[] = [];
  for (let id = 1; id <= ENTRIES; id++) {
    const r = rand();
    const text =
      r < 0.1
        ? cjkSentence(rand)
        : r < 0.13
          ? WORDLESS[Math.floor(rand() * WORDLESS.length)]
          : sentence(rand);
    if (r < 0.1) cjk.push(text);
    else if (r >= 0.13) entries.push(text);
    index.add(id, text, id);
    concordance.add(id, text);
    if (id % 500 === 0) yield;
  }
  // A bulk load's postings and a tail of recent additions: the two ways an entry is searched.
  index.refresh();
  concordance.refresh();
  for (let id = ENTRIES + 1; id <= ENTRIES + 200; id++) index.add(id, sentence(rand), id);
  let searches = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const entry = entries[Math.floor(rand() * entries.length)];
    for (const q of variants(rand, entry)) {
      index.search(q, { threshold: MIN_SCORE, n: 10 });
      searches++;
    }
    const c = cjk[Math.floor(rand() * cjk.length)];
    index.search(c, { threshold: MIN_SCORE, n: 10 });
    index.search(`${c.slice(0, -1)}中`, { threshold: MIN_SCORE, n: 10 });
    index.search(WORDLESS[round % WORDLESS.length], { threshold: MIN_SCORE, n: 10 });
    index.search(entry, { threshold: 100, n: 1 });
    concordance.search(entry.split(' ')[1] ?? entry, 10);
    searches += 5;
    yield;
  }
  return searches;
}
