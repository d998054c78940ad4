// The leverage analysis through HTTP on every store (issue 25): bands 101 % (context) / 100 % / fuzzy /
// repetitions / new per file and per language pair, weighted words with the organization's weights, the CSV
// export, Lilt's project quote and status, words by segment status, and a project's memory changed within
// its pair.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countWords } from '../src/matching/word-count.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

// a.txt stands "Click OK." between the neighbours it was confirmed between (a context match); b.txt repeats it
// elsewhere (a repetition), with an exact match, a fuzzy one and a new sentence.
const FLOW = 'Before it.\n\nClick OK.\n\nAfter it.\n';
const OTHER =
  'Click OK.\n\nPress the red button.\n\nPress the red buttons.\n\nSomething entirely new here.\n';
const BANDS = ['context', 'exact', 'fuzzy95', 'fuzzy85', 'fuzzy75', 'repetitions', 'mt', 'new'] as const;
type Bands = Record<(typeof BANDS)[number], number>;
const DEFAULTS: Bands = {
  context: 0,
  exact: 10,
  fuzzy95: 30,
  fuzzy85: 60,
  fuzzy75: 80,
  repetitions: 10,
  mt: 72,
  new: 100,
};
const weighed = (b: Bands, w: Bands) =>
  Math.round(BANDS.reduce((n, k) => n + (b[k] * w[k]) / 100, 0) * 10) / 10;
const w = (s: string) => countWords(s);

for (const target of await storeTargets()) {
  describe(`leverage analysis on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let member: ReturnType<typeof client>;
    let rival: ReturnType<typeof client>;
    let memoryId: number;
    let jobId: number;
    let pairProjectId: number;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
      member = client(
        ctx.app,
        await userKey(ctx, { username: 'mia', password: 'member123', role: 'member' }),
      );
      rival = client(
        ctx.app,
        await userKey(ctx, { username: 'rex', password: 'elsewhere1', role: 'admin', organization: 'rival' }),
      );
      memoryId = (await api.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json().id;
      // "Click OK." confirmed in its flow: stored with its neighbours, a context match where they are the same.
      const project = (await api.post('/v2/projects', { name: 'Earlier', memory_id: memoryId })).json();
      const first = await api.uploadDocument(project.id, 'first.txt', FLOW);
      const [, click] = await segmentsOf(first);
      const put = await api.put('/v2/segments', {
        id: click.id,
        target: 'Klicken Sie auf OK.',
        is_confirmed: true,
      });
      assert.equal(put.statusCode, 200, put.body);
      await api.post('/v2/segments', {
        memory_id: memoryId,
        source: 'Press the red button.',
        target: 'Rot.',
      });

      const files = [];
      for (const [name, body] of [
        ['a.txt', FLOW],
        ['b.txt', OTHER],
      ]) {
        const res = await api.upload(`/v2/files?name=${name}`, body);
        assert.equal(res.statusCode, 201, res.body);
        files.push(res.json().id);
      }
      const job = await api.post('/v2/jobs', {
        name: 'Quote, me',
        fileIds: files,
        srcLang: 'en',
        languagePairs: [{ trgLang: 'de', memoryId }],
      });
      assert.equal(job.statusCode, 200, job.body);
      jobId = job.json().id;
      for (let i = 0; i < 3000; i++) {
        const j = (await api.get(`/v2/jobs/${jobId}`)).json();
        if (j.creationStatus !== 'PENDING') {
          assert.equal(j.creationStatus, 'COMPLETE');
          pairProjectId = j.stats.projects[0].id;
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    after(() => ctx.close());

    const segmentsOf = async (id: number) =>
      (await api.get(`/v2/documents?id=${id}&with_segments=true`)).json().segments as {
        id: number;
        source: string;
      }[];

    test('bands per file and per pair: 101 % where the context is the same, a repetition elsewhere', async () => {
      const res = await api.post(`/v2/jobs/${jobId}/stats`, {});
      assert.equal(res.statusCode, 200, res.body);
      const stats = res.json();
      const [pair] = stats.projects;
      assert.deepEqual(
        pair.files.map((f: { name: string }) => f.name),
        ['a.txt', 'b.txt'],
      );
      const [a, b] = pair.files;
      assert.deepEqual(a.bands, {
        ...Object.fromEntries(BANDS.map((k) => [k, 0])),
        context: w('Click OK.'),
        new: w('Before it.') + w('After it.'),
      });
      assert.deepEqual(a.bandSegments, {
        ...Object.fromEntries(BANDS.map((k) => [k, 0])),
        context: 1,
        new: 2,
      });
      assert.equal(b.bands.context, 0);
      assert.equal(b.bands.repetitions, w('Click OK.'), 'the second "Click OK." is a repetition');
      assert.equal(b.bands.exact, w('Press the red button.'));
      assert.equal(b.bands.fuzzy95 + b.bands.fuzzy85 + b.bands.fuzzy75, w('Press the red buttons.'));
      assert.equal(b.bands.new, w('Something entirely new here.'));
      assert.equal(b.segments, 4);
      for (const t of [a, b, pair, stats]) {
        assert.equal(
          BANDS.reduce((n, k) => n + t.bands[k], 0),
          t.sourceWords,
        );
        assert.equal(
          BANDS.reduce((n, k) => n + t.bandSegments[k], 0),
          t.segments,
        );
        assert.equal(t.weightedWords, weighed(t.bands, DEFAULTS));
      }
      for (const k of BANDS) assert.equal(pair.bands[k], a.bands[k] + b.bands[k]);
      assert.deepEqual(stats.weights, DEFAULTS);
      // No MT engine is configured: no pair is served, nothing is drafted.
      assert.deepEqual([pair.mtProvider, pair.mtAvailableWords, stats.mtAvailableWords], [null, 0, 0]);
      // Lilt's figures still count every segment by its best match: the context match is exact.
      assert.equal(pair.exactWords, w('Click OK.') * 2 + w('Press the red button.'));
    });

    test('weights: the defaults, an admin changes them (a member cannot), the analysis weighs with them', async () => {
      const initial = (await api.get('/v2/analysis/weights')).json();
      assert.deepEqual(initial, { weights: DEFAULTS, defaults: DEFAULTS, custom: false });
      const denied = await member.put('/v2/analysis/weights', { weights: { new: 90 } });
      assert.equal(denied.statusCode, 403, denied.body);
      const bad = await api.put('/v2/analysis/weights', { weights: { new: -5 } });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /new/);
      const empty = await api.put('/v2/analysis/weights', {});
      assert.equal(empty.statusCode, 400);
      assert.match(empty.body, /weights/);

      const set = await api.put('/v2/analysis/weights', { weights: { exact: 25, repetitions: 30 } });
      assert.equal(set.statusCode, 200, set.body);
      const mine = { ...DEFAULTS, exact: 25, repetitions: 30 };
      assert.deepEqual(set.json(), { weights: mine, defaults: DEFAULTS, custom: true });
      assert.deepEqual((await member.get('/v2/analysis/weights')).json().weights, mine);
      // Another organization keeps the defaults.
      assert.deepEqual((await rival.get('/v2/analysis/weights')).json().custom, false);
      const stats = (await api.post(`/v2/jobs/${jobId}/stats`, {})).json();
      assert.deepEqual(stats.weights, mine);
      assert.equal(stats.weightedWords, weighed(stats.bands, mine));

      const reset = await api.put('/v2/analysis/weights', { reset: true });
      assert.deepEqual(reset.json(), { weights: DEFAULTS, defaults: DEFAULTS, custom: false });
    });

    test('CSV: a row per file, the pair and the job, and the weights; the same figures as the JSON', async () => {
      const stats = (await api.post(`/v2/jobs/${jobId}/stats`, {})).json();
      const res = await api.get(`/v2/jobs/${jobId}/stats.csv`);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^text\/csv/);
      assert.match(String(res.headers['content-disposition']), /filename="Quote_me-analysis\.csv"/);
      const lines = res.body.trimEnd().split('\r\n');
      assert.equal(
        lines[0],
        'Source language,Target language,File,Segments,Words,101% (context) words,100% words,95–99% words,' +
          '85–94% words,75–84% words,Repetitions words,MT (machine translation) words,New words,Weighted words,' +
          'New words MT can draft',
      );
      const [pair] = stats.projects;
      const row = (src: string, trg: string, file: string, t: typeof pair) =>
        [
          src,
          trg,
          file,
          t.segments,
          t.sourceWords,
          ...BANDS.map((k) => t.bands[k]),
          t.weightedWords,
          t.mtAvailableWords,
        ].join(',');
      assert.deepEqual(lines.slice(1), [
        row('en', 'de', 'a.txt', pair.files[0]),
        row('en', 'de', 'b.txt', pair.files[1]),
        row('en', 'de', 'All files', pair),
        row('', '', 'All language pairs', stats),
        `,,Weights (% of a new word),,,${BANDS.map((k) => DEFAULTS[k]).join(',')},,`,
      ]);
      assert.equal((await rival.get(`/v2/jobs/${jobId}/stats.csv`)).statusCode, 404);
    });

    test("Lilt's project quote: bands from 101 down, repetitions and new apart, per document", async () => {
      const res = await api.get(`/v2/projects/quote?id=${pairProjectId}`);
      assert.equal(res.statusCode, 200, res.body);
      const quote = res.json();
      const stats = (await api.post(`/v2/jobs/${jobId}/stats`, {})).json();
      const [pair] = stats.projects;
      assert.equal(quote.id, pairProjectId);
      assert.equal(quote.num_source_words, pair.sourceWords);
      assert.equal(quote.num_words_repetition, pair.bands.repetitions);
      assert.equal(quote.num_segments_repetition, pair.bandSegments.repetitions);
      assert.equal(quote.num_words_new, pair.bands.new);
      assert.equal(quote.num_segments_new, pair.bandSegments.new);
      assert.deepEqual(
        quote.bands.map((b: Record<string, number>) => [
          b.minimum_score,
          b.maximum_score,
          b.num_source_words,
        ]),
        [
          [101, 101, pair.bands.context],
          [100, 100, pair.bands.exact],
          [95, 99, pair.bands.fuzzy95],
          [85, 94, pair.bands.fuzzy85],
          [75, 84, pair.bands.fuzzy75],
        ],
      );
      assert.deepEqual(
        quote.documents.map((d: { id: number; num_source_words: number }) => d.num_source_words),
        pair.files.map((f: { sourceWords: number }) => f.sourceWords),
      );
      assert.equal(quote.weighted_words, pair.weightedWords);
      assert.equal((await rival.get(`/v2/projects/quote?id=${pairProjectId}`)).statusCode, 404);
      const missing = await api.get('/v2/projects/quote');
      assert.equal(missing.statusCode, 400);
      assert.match(missing.body, /id/);
    });

    test("words by status: the document's, the project's and Lilt's project status follow confirmations", async () => {
      const project = (await api.get(`/v2/projects?id=${pairProjectId}`)).json()[0];
      const [a] = project.document;
      const before = (await api.get(`/v2/documents/words?id=${a.id}`)).json();
      const total = w('Before it.') + w('Click OK.') + w('After it.');
      assert.deepEqual(before, {
        document_id: a.id,
        words: { new: total, draft: 0, pretranslated: 0, confirmed: 0, reviewed: 0, total },
      });
      const [seg1, seg2] = await segmentsOf(a.id);
      await api.put('/v2/segments', { id: seg1.id, target: 'Davor.', is_confirmed: true });
      await api.put('/v2/segments', { id: seg2.id, target: 'Klicken.' });
      const after = (await api.get(`/v2/documents/words?id=${a.id}`)).json().words;
      assert.deepEqual(after, {
        new: w('After it.'),
        draft: w('Click OK.'),
        pretranslated: 0,
        confirmed: w('Before it.'),
        reviewed: 0,
        total,
      });
      await api.put('/v2/segments', { id: seg1.id, is_reviewed: true });

      const status = await api.get(`/v2/projects/status?id=${pairProjectId}`);
      assert.equal(status.statusCode, 200, status.body);
      const s = status.json();
      const all = w(FLOW) + w(OTHER);
      assert.equal(s.num_source_words, all);
      assert.equal(s.num_words_confirmed, w('Before it.'), 'reviewed words are confirmed words too');
      assert.equal(s.num_words_reviewed, w('Before it.'));
      assert.equal(s.words.total, all);
      assert.equal(s.words.draft, w('Click OK.'));
      assert.deepEqual(
        s.documents.map((d: { name: string; words: { total: number } }) => [d.name, d.words.total]),
        [
          ['a.txt', w(FLOW)],
          ['b.txt', w(OTHER)],
        ],
      );
      assert.deepEqual([s.time_elapsed, s.resources], [0, []]);
      assert.equal((await rival.get(`/v2/projects/status?id=${pairProjectId}`)).statusCode, 404);
      assert.equal((await rival.get(`/v2/documents/words?id=${a.id}`)).statusCode, 404);
    });

    test("a project's memory changes within its language pair, never to another pair", async () => {
      const other = (await api.post('/v2/memories', { name: 'TM 2', srclang: 'en', trglang: 'de' })).json();
      const french = (await api.post('/v2/memories', { name: 'TM fr', srclang: 'en', trglang: 'fr' })).json();
      const project = (await api.post('/v2/projects', { name: 'Movable', memory_id: memoryId })).json();
      const wrong = await api.put('/v2/projects', { id: project.id, memory_id: french.id });
      assert.equal(wrong.statusCode, 400);
      assert.match(wrong.body, /memory_id/);
      const theirs = (await rival.post('/v2/memories', { name: 'R', srclang: 'en', trglang: 'de' })).json();
      assert.equal((await api.put('/v2/projects', { id: project.id, memory_id: theirs.id })).statusCode, 404);
      const moved = await api.put('/v2/projects', { id: project.id, memory_id: other.id, archived: true });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.deepEqual([moved.json().memory_id, moved.json().archived], [other.id, true]);
      const listed = (await api.get('/v2/projects?archived=true')).json();
      assert.ok(listed.some((p: { id: number }) => p.id === project.id));
    });
  });
}
