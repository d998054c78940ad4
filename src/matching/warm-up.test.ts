import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConcordanceIndex } from './concordance.ts';
import { MemoryIndex } from './memory-index.ts';
import { warmUpSearchPaths } from './warm-up.ts';

describe('warmUpSearchPaths', () => {
  it('runs every kind of search the engine tells apart, in slices', () => {
    const seen: {
      query: string;
      best: number | undefined;
      threshold: number | undefined;
      index: MemoryIndex;
    }[] = [];
    let concordance = 0;
    const search = MemoryIndex.prototype.search;
    const concordanceSearch = ConcordanceIndex.prototype.search;
    MemoryIndex.prototype.search = function (query, opts) {
      const found = search.call(this, query, opts);
      seen.push({ query, best: found[0]?.score, threshold: opts.threshold, index: this });
      return found;
    };
    ConcordanceIndex.prototype.search = function (query, n) {
      concordance++;
      return concordanceSearch.call(this, query, n);
    };
    let slices = 0;
    let searches: number;
    try {
      const warm = warmUpSearchPaths();
      for (;;) {
        const step = warm.next();
        if (step.done) {
          searches = step.value;
          break;
        }
        slices++;
      }
    } finally {
      MemoryIndex.prototype.search = search;
      ConcordanceIndex.prototype.search = concordanceSearch;
    }
    assert.equal(searches, seen.length + concordance, 'the answer counts every search run');
    assert.ok(slices >= 200, `yields between rounds (${slices} slices)`);
    assert.ok(concordance >= 200, 'concordance searched');
    const some = (what: string, test: (s: (typeof seen)[number]) => boolean) =>
      assert.ok(seen.some(test), `no ${what} search`);
    some('exact', (s) => s.best === 100);
    some('fuzzy', (s) => s.best !== undefined && s.best < 100);
    some('unrelated', (s) => s.best === undefined && /unrelated/.test(s.query));
    some('wordless', (s) => !/[\p{L}\p{N}]/u.test(s.query));
    some('CJK', (s) => /\p{Script=Han}|\p{Script=Katakana}|\p{Script=Hiragana}/u.test(s.query));
    some('upper-case', (s) => /[A-Z]{4}/.test(s.query) && s.best !== undefined);
    some('exact-only', (s) => s.threshold === 100);
    // The paths a loaded memory's searches take that a small built index alone does not show the code.
    const indexes = new Set(seen.map((s) => s.index));
    assert.ok(indexes.size >= 2, 'a built index and one restored from its parts are both searched');
    some('long (past the capped length)', (s) => s.query.split(' ').length > 255);
    some('tag or placeholder', (s) => /<b>|\{\d\}|%\d\$s|&amp;/.test(s.query));
    some('non-ASCII word', (s) => /[éöï]/.test(s.query));
    const byLength = seen
      .filter((s) => s.best !== undefined && s.best < 100)
      .map((s) => s.query.split(' ').length);
    assert.ok(new Set(byLength).size > 5, 'fuzzy matches of several lengths (words left out and put in)');
  });
});
