// The leverage analysis counts machine translation (issue 27) through HTTP on every store, with a loopback
// server speaking Apertium APy's protocol (deterministic answers and counts): before pre-translation a pair
// the engine serves says how many new words MT can draft (a pair it does not serve says none, without a call
// to translate); after a tm+mt pre-translation those words are the MT band — weighed at its own rate, in the
// CSV and Lilt's quote — while repetitions and matches keep their bands; an edit or a confirmation takes a
// segment out of the MT band.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countWords } from '../src/matching/word-count.ts';
import { type FakeApy, startFakeApy } from './helpers/apertium.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const EXACT = 'The red house is big.';
const GARDEN = 'The garden is green.';
const SKY = 'The sky is blue today.';
// One exact match, two new sentences, and the first of them again (a repetition).
const PAGE = `${EXACT}\n\n${GARDEN}\n\n${SKY}\n\n${GARDEN}\n`;
const w = (s: string) => countWords(s);

interface Pair {
  trgLang: string;
  sourceWords: number;
  newWords: number;
  bands: Record<string, number>;
  bandSegments: Record<string, number>;
  weightedWords: number;
  mtProvider: string | null;
  mtAvailableWords: number;
  files: { documentId: number; mtAvailableWords: number; bands: Record<string, number> }[];
}

const fake: FakeApy = await startFakeApy();
fake.answer.translate = (q) => `ES(${q})`;
after(() => fake.close());

for (const target of await storeTargets()) {
  describe(`the analysis counts machine translation on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let jobId: number;
    let esDocument: number;
    before(async () => {
      ctx = await createContext(target, { TESSERA_MT_APERTIUM_URL: fake.url });
      api = client(ctx.app, ctx.adminKey);
      const es = (await api.post('/v2/memories', { name: 'es', srclang: 'en', trglang: 'es' })).json().id;
      const de = (await api.post('/v2/memories', { name: 'de', srclang: 'en', trglang: 'de' })).json().id;
      await api.post('/v2/segments', { memory_id: es, source: EXACT, target: 'La casa roja es grande.' });
      const file = (await api.upload('/v2/files?name=page.txt', PAGE)).json().id;
      const job = await api.post('/v2/jobs', {
        name: 'Site',
        fileIds: [file],
        srcLang: 'en',
        languagePairs: [
          { trgLang: 'es', memoryId: es },
          { trgLang: 'de', memoryId: de },
        ],
      });
      assert.equal(job.statusCode, 200, job.body);
      jobId = job.json().id;
      for (let i = 0; ; i++) {
        const j = (await api.get(`/v2/jobs/${jobId}`)).json();
        if (j.creationStatus === 'COMPLETE') {
          const esProject = j.stats.projects.find((p: { trgLang: string }) => p.trgLang === 'es');
          esDocument = (await api.get(`/v2/projects?id=${esProject.id}`)).json()[0].document[0].id;
          break;
        }
        assert.ok(i < 3000, 'the job is created');
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    after(() => ctx.close());

    const analyse = async () => {
      const res = await api.post(`/v2/jobs/${jobId}/stats`, {});
      assert.equal(res.statusCode, 200, res.body);
      const stats = res.json();
      const pair = (lang: string) => stats.projects.find((p: Pair) => p.trgLang === lang) as Pair;
      return { stats, es: pair('es'), de: pair('de') };
    };

    test('before pre-translation: new words, and how many of them the serving engine can draft', async () => {
      const translated = fake.requests.length;
      const { stats, es, de } = await analyse();
      assert.equal(fake.requests.length, translated, 'counting translates nothing');
      assert.deepEqual([es.bands.mt, es.bands.new, es.bands.repetitions], [0, w(GARDEN) + w(SKY), w(GARDEN)]);
      assert.deepEqual([es.mtProvider, es.mtAvailableWords], ['apertium', w(GARDEN) + w(SKY)]);
      assert.equal(es.files[0].mtAvailableWords, w(GARDEN) + w(SKY));
      // The engine has no English→German pair: no provider, nothing to draft.
      assert.deepEqual([de.mtProvider, de.mtAvailableWords, de.files[0].mtAvailableWords], [null, 0, 0]);
      assert.equal(stats.mtAvailableWords, w(GARDEN) + w(SKY));
    });

    test('after tm+mt: the drafted new words are the MT band, weighed at 72 %, in the CSV and the quote', async () => {
      const before = (await analyse()).es;
      const res = await api.post('/v2/documents/pretranslate', { id: [esDocument], mode: 'tm+mt' });
      assert.equal(res.statusCode, 202, res.body);
      const task = await ctx.db.get<{ id: number }>(
        "SELECT MAX(id) AS id FROM tasks WHERE document_id = ? AND type = 'pretranslate'",
        [esDocument],
      );
      assert.equal((await api.waitForTask(task!.id)).state, 'succeeded');
      const segments = (await api.get(`/v2/documents?id=${esDocument}&with_segments=true`)).json().segments;
      assert.deepEqual(
        segments.map((s: { mt_provider: string | null }) => s.mt_provider),
        [null, 'apertium', 'apertium', 'apertium'],
      );

      const { stats, es, de } = await analyse();
      assert.deepEqual(
        [es.bands.exact, es.bands.repetitions, es.bands.mt, es.bands.new],
        [w(EXACT), w(GARDEN), w(GARDEN) + w(SKY), 0],
        'the repeated sentence stays a repetition',
      );
      assert.deepEqual([es.bandSegments.mt, es.bandSegments.new], [2, 0]);
      assert.equal(es.mtAvailableWords, 0, 'nothing new is left to draft');
      assert.equal(es.sourceWords, before.sourceWords);
      assert.equal(es.newWords, before.newWords, "Lilt's figures count by best match, as before");
      const weighed = w(EXACT) * 0.1 + w(GARDEN) * 0.1 + (w(GARDEN) + w(SKY)) * 0.72;
      assert.equal(es.weightedWords, Math.round(weighed * 10) / 10);
      assert.equal(es.weightedWords < before.weightedWords, true);
      assert.equal(de.bands.mt, 0, 'the other pair is untouched');
      assert.equal(stats.bands.mt, es.bands.mt);
      assert.equal(stats.weights.mt, 72);

      const csv = (await api.get(`/v2/jobs/${jobId}/stats.csv`)).body.trimEnd().split('\r\n');
      const head = csv[0].split(',');
      const mtColumn = head.indexOf('MT (machine translation) words');
      const draftable = head.indexOf('New words MT can draft');
      assert.ok(mtColumn > 0 && draftable === head.length - 1, csv[0]);
      const esTotal = csv.find((l) => l.startsWith('en,es,All files,'))!.split(',');
      const deTotal = csv.find((l) => l.startsWith('en,de,All files,'))!.split(',');
      assert.deepEqual([Number(esTotal[mtColumn]), Number(esTotal[draftable])], [w(GARDEN) + w(SKY), 0]);
      // Not served: its new words stay new, none draftable.
      assert.deepEqual([Number(deTotal[mtColumn]), Number(deTotal[draftable])], [0, 0]);
      assert.equal(csv.at(-1)!.split(',')[mtColumn], '72');

      const projectId = (await api.get(`/v2/jobs/${jobId}`))
        .json()
        .stats.projects.find((p: { trgLang: string }) => p.trgLang === 'es').id;
      const quote = (await api.get(`/v2/projects/quote?id=${projectId}`)).json();
      assert.deepEqual(
        [quote.num_words_mt, quote.num_segments_mt, quote.num_words_new],
        [w(GARDEN) + w(SKY), 2, 0],
      );
      assert.equal(quote.documents[0].num_words_mt, w(GARDEN) + w(SKY));
      assert.equal(quote.weighted_words, es.weightedWords);
    });

    test('an edited or confirmed draft is no longer MT; the MT weight is the organization’s to set', async () => {
      const segments = (await api.get(`/v2/documents?id=${esDocument}&with_segments=true`)).json().segments;
      const [, garden, sky] = segments;
      const edited = await api.put('/v2/segments', { id: sky.id, target: 'El cielo es azul hoy.' });
      assert.equal(edited.statusCode, 200, edited.body);
      let { es } = await analyse();
      assert.deepEqual([es.bands.mt, es.bands.new], [w(GARDEN), w(SKY)], 'the edited draft is new again');
      assert.equal(es.mtAvailableWords, w(SKY));

      const confirmed = await api.put('/v2/segments', { id: garden.id, is_confirmed: true });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      ({ es } = await analyse());
      assert.equal(es.bands.mt, 0, 'a confirmed draft is a translation');

      const bad = await api.put('/v2/analysis/weights', { weights: { mt: -1 } });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /mt/);
      const set = await api.put('/v2/analysis/weights', { weights: { mt: 50 } });
      assert.equal(set.json().weights.mt, 50);
      assert.equal((await analyse()).stats.weights.mt, 50);
      await api.put('/v2/analysis/weights', { reset: true });
    });
  });
}
