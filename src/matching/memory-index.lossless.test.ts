// Retrieval is lossless: on real memories the index answers exactly what scoring every entry answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Pair, prng, readTmxPairs } from '../../bench/corpus.ts';
import { MemoryIndex } from './memory-index.ts';
import { bruteForceSearch, type OracleEntry } from './oracle.ts';
import type { Match } from './ranking.ts';

// Enough entries for dense neighbourhoods of near-duplicates, few enough for the oracle to scan per query.
const SUBSET = 6000;
const QUERIES = 80;
const HIGH = 88;

function memory(pairs: Pair[], rand: () => number): OracleEntry[] {
  const chosen = pairs.filter(() => rand() < SUBSET / pairs.length).map((p) => p.source);
  // Identical sources stored several times (different targets) are separate matches.
  for (let i = 0; i < 40; i++) chosen.push(chosen[Math.floor(rand() * chosen.length)]);
  // Few distinct timestamps, so that ranking ties reach the id.
  return chosen.map((source, i) => ({ id: i + 1, source, updatedAt: i % 7 }));
}

function queries(entries: OracleEntry[], rand: () => number, foreign: string[]): string[] {
  const pick = <T>(a: T[]): T => a[Math.floor(rand() * a.length)];
  const sources = entries.map((e) => e.source);
  const cjk = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]/u.test(sources.join(''));
  // Edits work on words, or on characters for a Japanese memory (no spaces).
  const split = (s: string) => (cjk ? [...s] : s.split(' '));
  const join = (parts: string[]) => parts.join(cjk ? '' : ' ');
  const units = sources.flatMap(split).filter((u) => u.trim());
  const edit = (s: string, times: number) => {
    const parts = split(s);
    for (let i = 0; i < times; i++) {
      const at = Math.floor(rand() * parts.length);
      const r = rand();
      if (r < 0.5) parts[at] = pick(units);
      else if (r < 0.75) parts.splice(at, 1);
      else parts.splice(at, 0, pick(units));
    }
    return join(parts);
  };
  const make = [
    () => pick(sources),
    () => edit(pick(sources), 1),
    () => edit(pick(sources), 2),
    () => {
      const s = pick(sources);
      return rand() < 0.5 ? s.toUpperCase() : s.toLowerCase();
    },
    () => pick(sources.filter((s) => /\d/.test(s))).replace(/\d+/g, () => String(Math.floor(rand() * 100))),
    () => join(Array.from({ length: 3 + Math.floor(rand() * 8) }, () => pick(units))),
    () => {
      const parts = split(pick(sources));
      const at = Math.floor(rand() * parts.length);
      return join(parts.slice(at, at + 1 + Math.floor(rand() * 3)));
    },
    () => {
      let s = pick(sources);
      while (split(s).length < 45) s += (cjk ? '' : ' ') + pick(sources);
      return s.slice(0, 5000);
    },
    () => pick(foreign),
    () => {
      // Texts without words score by characters: one of those, a character changed.
      const chars = [...pick(sources.filter((s) => !/[\p{L}\p{N}]/u.test(s)))];
      chars[Math.floor(rand() * chars.length)] = pick([':', ' ', '*', '.', '']);
      return chars.join('');
    },
  ];
  return Array.from({ length: QUERIES }, (_, i) => make[i % make.length]());
}

function checkLossless(name: string, pairs: Pair[], foreign: string[], seed: number): void {
  const rand = prng(seed);
  const entries = memory(pairs, rand);
  // The automatic choice of prefix filter, and each filter on its own.
  const indexes = (['auto', 'pairs', 'tokens'] as const).map((mode) => {
    const index = new MemoryIndex();
    index.filter = mode;
    for (const e of entries) index.add(e.id, e.source, e.updatedAt);
    return index;
  });
  let matched = 0;
  for (const query of queries(entries, rand, foreign)) {
    // One full oracle ranking per query; (threshold, n) answers are its filtered prefixes, which is
    // exactly what bruteForceSearch computes for those arguments (its order is total: ids are unique).
    const all = bruteForceSearch(entries, query, { threshold: 75, n: Number.MAX_SAFE_INTEGER });
    for (const threshold of [75, HIGH]) {
      for (const n of [10, 1000]) {
        const expected: Match[] = all.filter((m) => m.score >= threshold).slice(0, n);
        for (const index of indexes)
          assert.deepEqual(
            index.search(query, { threshold, n }),
            expected,
            `${name} (${index.filter}): ${JSON.stringify(query)} at ${threshold}, n ${n}`,
          );
      }
    }
    if (all.length > 0) matched++;
  }
  // The query set must exercise real matches, not only empty answers.
  assert.ok(matched > QUERIES / 3, `${name}: only ${matched} queries matched anything`);
}

describe('MemoryIndex is lossless against the brute-force oracle on real memories', () => {
  const enDe = readTmxPairs('en-de.tmx.gz', 'en', 'de');
  const enJa = readTmxPairs('en-ja.tmx.gz', 'en', 'ja');
  const japanese = enJa.map((p) => p.target);

  it('en-de', () => checkLossless('en-de', enDe, japanese, 1));
  it('en-ja', () => checkLossless('en-ja', enJa, japanese, 2));
  it('ja-en (Japanese sources)', () =>
    checkLossless(
      'ja-en',
      enJa.map((p) => ({ source: p.target, target: p.source })),
      enDe.map((p) => p.source),
      3,
    ));
});
