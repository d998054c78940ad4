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
  'user role key value error warning message setting option format number page line column table ' +
  // Words the tokenizer scans otherwise (tokenize.ts, scanWord): accented and astral letters, full-width
  // digits, inner apostrophes and hyphens.
  "café Größe naïve don't e-mail １２ 𠮷野家"
).split(' ');
const CJK = 'ファイルを開く保存して閉じる翻訳メモリの検索結果文書を確認する設定言語';
const WORDLESS = ['%s', '...', '%d / %d', ':', '—', '%1$s: %2$s', '(%s)', '#'];
// Every kind of tag and placeholder the tokenizer tells apart (tokenize.ts, matchTag): without them the
// first real query holding one deoptimised the tokenizer.
const TAGS = [
  '<b>',
  '</b>',
  '<br/>',
  '{0}',
  '{1}',
  '%1$s',
  '%d',
  '%%',
  // (`${…}` written with an escape, so as not to look like a template's.)
  '\x24{name}',
  '$HOME',
  '&amp;',
  '&#160;',
  '%{count}',
  '%<count>d',
  '%(name)s',
  '{{name}}',
  '{n, plural, one {# file} other {# files}}',
  '<a href="x">',
  '</a>',
  '<img src="x"/>',
];

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
    else if (r < 0.15) words.push(TAGS[Math.floor(rand() * TAGS.length)]);
    // Made-up words: a vocabulary of thousands, whose hash table probes past a taken slot as a large
    // memory's does (vocabulary.ts, tokenId), and query words the index does not hold.
    else if (r < 0.25) words.push(madeUpWord(rand));
    else words.push(WORDS[Math.floor(rand() * WORDS.length)]);
  }
  words[0] = words[0].charAt(0).toUpperCase() + words[0].slice(1);
  return `${words.join(' ')}${rand() < 0.5 ? '.' : ':'}`;
}

function madeUpWord(rand: () => number): string {
  let w = '';
  for (let i = 0; i < 5; i++) w += String.fromCharCode(97 + Math.floor(rand() * 26));
  return w;
}

function cjkSentence(rand: () => number): string {
  const start = Math.floor(rand() * (CJK.length - 12));
  return CJK.slice(start, start + 6 + Math.floor(rand() * 6));
}

/**
 * An entry of more than LEN_CAP (postings-block.ts) tokens: postings hold lengths capped there, and a
 * query that long or its length window reaching past it takes another path (firstLonger's second search).
 */
function longSentence(rand: () => number): string {
  const parts: string[] = [];
  // 3–11 words a sentence: some 300 tokens in about 2,000 characters (a query's limit is 5,000).
  for (let words = 0; words < 300; words += 7) parts.push(sentence(rand));
  return parts.join(' ');
}

/** The query of each kind the engine tells apart, made from an entry. */
function variants(rand: () => number, entry: string): string[] {
  const words = entry.split(' ');
  const swap = (k: number) => {
    const w = [...words];
    for (let i = 0; i < k; i++) w[Math.floor(rand() * w.length)] = WORDS[Math.floor(rand() * WORDS.length)];
    return w.join(' ');
  };
  // A word left out and one put in: alignments whose backtrace steps along one side only (levenshtein.ts,
  // alignWithin), which substitutions alone never take.
  const cut = [...words];
  cut.splice(Math.floor(rand() * cut.length), 1);
  const put = [...words];
  put.splice(Math.floor(rand() * (put.length + 1)), 0, WORDS[Math.floor(rand() * WORDS.length)]);
  return [
    entry,
    swap(1),
    swap(2),
    cut.join(' '),
    put.join(' '),
    entry.toUpperCase(),
    entry.replace(/\d+/g, (d) => String(Number(d) + 1)),
    'Completely unrelated words here never stored anywhere.',
  ];
}

// Entries in the private index, and rounds of queries: about 0.9 s of work in all on one core of this
// 2-core machine (0.55 s before it reached the paths of a loaded memory; issue 29), in slices. 4,000
// entries give enough distinct pairs for a block whose pair postings are a dense array (postings-build.ts,
// isDense), as a large memory's are.
const ENTRIES = 4000;
/** Short entries added after, indexed as a block of their own (TokenStore's TAIL_LIMIT is 1024). */
const SHORT = 1100;
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
  const long: string[] = [];
  for (let id = 1; id <= ENTRIES; id++) {
    const r = rand();
    // Copies of earlier entries (memories repeat sources, one per target): groups of copies in the
    // blocks, and matches that tie on score and penalties, ranked by time and id (ranking.ts).
    const copy = r >= 0.13 && r < 0.2 && entries.length > 0;
    const text =
      r < 0.1
        ? cjkSentence(rand)
        : r < 0.13
          ? WORDLESS[Math.floor(rand() * WORDLESS.length)]
          : copy
            ? // Half of the copies of the first few entries: some texts many times over, whose exact
              // query fills the top n from its group alone.
              entries[Math.floor(rand() * (rand() < 0.5 ? Math.min(entries.length, 8) : entries.length))]
            : id % 300 === 0
              ? longSentence(rand)
              : sentence(rand);
    if (id % 300 === 0 && r >= 0.13) long.push(text);
    if (r < 0.1) cjk.push(text);
    else if (r >= 0.13) entries.push(text);
    // Few distinct time stamps: copies that tie on them too, ranked by id.
    index.add(id, text, id % 64);
    concordance.add(id, text);
    if (id % 500 === 0) yield;
  }
  // A bulk load's postings and a tail of recent additions: the two ways an entry is searched.
  index.refresh();
  concordance.refresh();
  // A second block, of short entries: few pairs for its buckets, so its pair postings are found through
  // a sparse index where the first block's are a dense array (postings-build.ts, buildPairs) — a large
  // memory's blocks come in both kinds, and a search that met only one deoptimised on the other.
  for (let id = ENTRIES + 1; id <= ENTRIES + SHORT; id++) {
    const w = (k: number) => WORDS[Math.floor(rand() * WORDS.length)] + (k ? '' : '.');
    index.add(id, rand() < 0.5 ? w(0) : `${w(1)} ${w(0)}`, id);
    if (id % 500 === 0) yield;
  }
  index.refresh();
  // And the two ways an index comes to be: built from the store, and restored from its saved file
  // (store-parts.ts), whose objects the code must also have met — the server searches mostly the latter.
  // (Its parts share the built index's postings, which neither search changes.)
  const restored = MemoryIndex.fromParts(index.toParts());
  for (let id = ENTRIES + SHORT + 1; id <= ENTRIES + SHORT + 200; id++) index.add(id, sentence(rand), id);
  let searches = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const entry =
      round % 20 === 0 && long.length > 0
        ? long[Math.floor(rand() * long.length)]
        : entries[Math.floor(rand() * entries.length)];
    // The built index and the restored one in turn: each function meets both often enough to be
    // optimised for both, in about the time one of them alone took.
    const either = round % 2 === 0 ? index : restored;
    for (const q of variants(rand, entry)) {
      either.search(q, { threshold: MIN_SCORE, n: 10 });
      searches++;
    }
    const c = cjk[Math.floor(rand() * cjk.length)];
    either.search(c, { threshold: MIN_SCORE, n: 10 });
    either.search(`${c.slice(0, -1)}中`, { threshold: MIN_SCORE, n: 10 });
    either.search(WORDLESS[round % WORDLESS.length], { threshold: MIN_SCORE, n: 10 });
    either.search(entry, { threshold: 100, n: 1 });
    concordance.search(entry.split(' ')[1] ?? entry, 10);
    searches += 5;
    yield;
  }
  return searches;
}
