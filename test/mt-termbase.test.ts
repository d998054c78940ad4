// MT keeps to the memory's termbase, through HTTP on every store with the live Apertium engine (en→es):
// Apertium translates "house" as "casa"; once the termbase says "vivienda" (preferred, "casa" forbidden),
// POST /v2/translate, the editor's suggestion, pre-translation and file translation write it, tags intact.
// A term whose only Spanish terms are deprecated or forbidden is not imposed; a termbase edit is seen at once,
// the cache notwithstanding; another memory's termbase does not apply.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Apertium, startApertium } from './helpers/apertium.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const apertium: Apertium | null = await startApertium();
after(() => apertium?.stop());

const SOURCE = 'The <g id="1">red</g> house is big.';

interface Term {
  id: number;
  lang: string;
  text: string;
  status: string;
}

for (const target of await storeTargets()) {
  describe(`MT with the memory's termbase on ${target.name}`, { skip: apertium === null }, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let memoryId: number;
    let otherId: number;
    before(async () => {
      ctx = await createContext(target, { TESSERA_MT_APERTIUM_URL: apertium!.url });
      api = client(ctx.app, ctx.adminKey);
      memoryId = (await api.post('/v2/memories', { name: 'en-es', srclang: 'en', trglang: 'es' })).json().id;
      otherId = (await api.post('/v2/memories', { name: 'other', srclang: 'en', trglang: 'es' })).json().id;
    });
    after(() => ctx.close());

    const translate = async (source: string, memory = memoryId) => {
      const res = await api.post('/v2/translate', { memory_id: memory, source, tm_matches: false });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().translation[0].targetWithTags as string;
    };

    test('without a termbase Apertium says "casa"; with one the term is "vivienda", tags intact', async () => {
      const plain = await translate(SOURCE);
      assert.match(plain, /casa/);
      assert.match(plain, /<g id="1">[^<]+<\/g>/);

      const concept = await api.post(`/v2/memories/terms?id=${memoryId}`, {
        terms: [
          { lang: 'en', text: 'house' },
          { lang: 'es', text: 'vivienda', status: 'preferred' },
          { lang: 'es', text: 'casa', status: 'forbidden' },
        ],
      });
      assert.equal(concept.statusCode, 200, concept.body);
      const termed = await translate(SOURCE);
      assert.match(termed, /vivienda/);
      assert.doesNotMatch(termed, /casa/);
      assert.match(termed, /<g id="1">[^<]+<\/g>/, 'the pair tag survives around the frozen term');
      // A placeholder next to a term survives too.
      const placeholder = await translate('The house has %s rooms.');
      assert.match(placeholder, /vivienda/);
      assert.match(placeholder, /%s/);
      // Another memory's termbase does not apply.
      assert.match(await translate(SOURCE, otherId), /casa/);

      // The editor's suggestion keeps to it as well.
      const suggestion = (
        await api.get(
          `/v2/translate/suggestion?memory_id=${memoryId}&source=${encodeURIComponent('Open the house.')}`,
        )
      ).json();
      assert.equal(suggestion.unavailable, null);
      assert.match(suggestion.target, /vivienda/);

      // "vivienda" demoted to deprecated: no acceptable Spanish term is left, so nothing is imposed — seen at
      // once (same second, same cached text) since the termbase's signature changed.
      const body = concept.json() as { id: number; terms: Term[] };
      const edited = await api.put(`/v2/memories/terms?id=${memoryId}&concept_id=${body.id}`, {
        terms: body.terms.map((t) => ({
          id: t.id,
          lang: t.lang,
          text: t.text,
          status: t.text === 'vivienda' ? 'deprecated' : t.status,
        })),
      });
      assert.equal(edited.statusCode, 200, edited.body);
      const deprecated = await translate(SOURCE);
      assert.doesNotMatch(deprecated, /vivienda/);
      assert.match(deprecated, /casa/);
      assert.match(deprecated, /<g id="1">[^<]+<\/g>/);

      // An admitted term is used when there is no preferred one.
      const admitted = await api.post(`/v2/memories/terms?id=${memoryId}`, {
        terms: [
          { lang: 'en', text: 'garden' },
          { lang: 'es', text: 'huerto', status: 'admitted' },
          { lang: 'es', text: 'parque', status: 'deprecated' },
        ],
      });
      assert.equal(admitted.statusCode, 200, admitted.body);
      const garden = await translate('The garden is green.');
      assert.match(garden, /huerto/);
      assert.doesNotMatch(garden, /jardín|parque/);
    });

    test('pre-translation (mode mt) writes the termbase’s term', async () => {
      const projectId = (await api.post('/v2/projects', { name: 'web', memory_id: memoryId })).json()
        .id as number;
      const id = await api.uploadDocument(projectId, 'page.txt', 'The garden is small.\n\nThe red house.\n');
      const res = await api.post('/v2/documents/pretranslate', { id: [id], mode: 'mt' });
      assert.equal(res.statusCode, 202, res.body);
      const row = await ctx.db.get<{ id: number }>(
        "SELECT MAX(id) AS id FROM tasks WHERE document_id = ? AND type = 'pretranslate'",
        [id],
      );
      const task = await api.waitForTask(row!.id);
      assert.equal(task.state, 'succeeded', JSON.stringify(task));
      const segments = (await api.get(`/v2/documents?id=${id}&with_segments=true`)).json().segments as {
        target: string | null;
      }[];
      assert.match(segments[0].target ?? '', /huerto/);
      // "house" has no acceptable Spanish term left (the test above deprecated it): Apertium's own word.
      assert.match(segments[1].target ?? '', /casa/);
    });

    test('file translation (POST /v2/translate/file) writes the termbase’s term', async () => {
      const up = await api.upload(
        `/v2/files?name=${encodeURIComponent('garden.txt')}`,
        'The garden is big.\n',
      );
      assert.equal(up.statusCode, 201, up.body);
      const started = await api.post(
        `/v2/translate/file?fileId=${up.json().id}&memoryId=${memoryId}`,
        undefined,
      );
      assert.equal(started.statusCode, 200, started.body);
      const id = started.json()[0].id as number;
      for (let i = 0; i < 3000; i++) {
        const [info] = (await api.get(`/v2/translate/file?translationIds=${id}`)).json();
        if (info.status !== 'InProgress') {
          assert.equal(info.status, 'ReadyForDownload', info.errorMsg);
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      const text = (await api.get(`/v2/translate/files?id=${id}`)).body;
      assert.match(text, /huerto/);
      assert.doesNotMatch(text, /jardín/);
    });
  });
}
