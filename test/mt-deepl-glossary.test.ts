// A memory's termbase kept as a DeepL glossary, against a loopback server answering DeepL's documented
// glossary endpoints (GET /v2/glossary-language-pairs, GET /v2/glossaries, POST /v2/glossaries with
// entries_format=tsv, DELETE /v2/glossaries/{id}) and POST /v2/translate with glossary_id: the glossary is
// made once with exactly the termbase's entries and passed on translate (terms not masked); a changed
// termbase gets a new glossary and the old one is deleted, its cached answers not reused; a restarted process
// finds the glossary by listing; a pair DeepL has no glossaries for, or a glossary DeepL refuses, falls back
// to protect-and-substitute. And through HTTP on every store: an organization's DeepL engine (pointed at the
// fake) synchronises a memory's termbase on POST /v2/translate, and again after the termbase is edited.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { MtEngine } from '../src/modules/mt/engine.ts';
import { createProvider } from '../src/modules/mt/providers/registry.ts';
import { makeTermbase } from '../src/modules/mt/termbase.ts';
import type { TermRecord } from '../src/terminology/glossary.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import {
  engineStore,
  type FakeEngine,
  type FakeRequest,
  fakeTranslation,
  startFakeEngine,
} from './helpers/mt-fakes.ts';
import { storeTargets } from './helpers/stores.ts';

const KEY = 'deepl-glossary-key-42:fx';

interface FakeGlossary {
  glossary_id: string;
  name: string;
  ready: boolean;
  source_lang: string;
  target_lang: string;
  creation_time: string;
  entry_count: number;
  entries: Map<string, string>;
}

let fake: FakeEngine;
let glossaries: Map<string, FakeGlossary>;
let refuseCreate = false;
let made = 0;
let store: Awaited<ReturnType<typeof engineStore>>;

function info(g: FakeGlossary) {
  const { entries: _, ...rest } = g;
  return rest;
}

/** DeepL's API as documented, glossaries kept in memory; each request checked against the reference. */
function deeplApi(req: FakeRequest) {
  assert.equal(req.headers.authorization, `DeepL-Auth-Key ${KEY}`);
  if (req.method === 'GET' && req.path === '/v2/languages') {
    const codes = req.query.get('type') === 'target' ? ['DE', 'ES', 'JA', 'EN-US'] : ['EN', 'DE', 'ES', 'JA'];
    return { body: codes.map((language) => ({ language, name: language })) };
  }
  if (req.method === 'GET' && req.path === '/v2/glossary-language-pairs') {
    return {
      body: {
        supported_languages: [
          { source_lang: 'en', target_lang: 'de' },
          { source_lang: 'en', target_lang: 'es' },
        ],
      },
    };
  }
  if (req.method === 'GET' && req.path === '/v2/glossaries') {
    return { body: { glossaries: [...glossaries.values()].map(info) } };
  }
  if (req.method === 'POST' && req.path === '/v2/glossaries') {
    const form = req.form;
    assert.ok(form, 'a form body');
    assert.deepEqual(
      [...form.keys()].sort(),
      ['entries', 'entries_format', 'name', 'source_lang', 'target_lang'],
      'the documented fields and no others',
    );
    assert.equal(form.get('entries_format'), 'tsv');
    if (refuseCreate) return { status: 400, body: { message: 'Unsupported glossary entries' } };
    const entries = new Map<string, string>();
    for (const line of form.get('entries')!.split('\n')) {
      const [source, target, ...more] = line.split('\t');
      assert.equal(more.length, 0, `one tab a line: ${JSON.stringify(line)}`);
      assert.ok(source && target, `a source and a target: ${JSON.stringify(line)}`);
      entries.set(source, target);
    }
    const g: FakeGlossary = {
      glossary_id: `g-${++made}`,
      name: form.get('name')!,
      ready: true,
      source_lang: form.get('source_lang')!,
      target_lang: form.get('target_lang')!,
      creation_time: new Date().toISOString(),
      entry_count: entries.size,
      entries,
    };
    glossaries.set(g.glossary_id, g);
    return { status: 201, body: info(g) };
  }
  const del = /^\/v2\/glossaries\/([^/]+)$/.exec(req.path);
  if (req.method === 'DELETE' && del) {
    if (!glossaries.delete(del[1])) return { status: 404, body: { message: 'Glossary not found' } };
    return { status: 204, body: '' };
  }
  if (req.method === 'POST' && req.path === '/v2/translate') {
    const form = req.form!;
    assert.equal(form.get('tag_handling'), 'xml');
    const id = form.get('glossary_id');
    const glossary = id ? glossaries.get(id) : undefined;
    if (id && !glossary) return { status: 404, body: { message: 'Glossary not found' } };
    if (glossary) {
      assert.equal(form.get('source_lang')?.toLowerCase(), glossary.source_lang, 'the glossary’s source');
    }
    // The glossary's entries are "translated" as it says (lower case, so they stand out from the rest).
    const translate = (text: string) => {
      let out = fakeTranslation(text);
      for (const [source, target] of glossary?.entries ?? []) {
        out = out.replaceAll(source.toUpperCase(), target.toLowerCase());
      }
      return out;
    };
    return {
      body: {
        translations: form
          .getAll('text')
          .map((t) => ({ detected_source_language: 'EN', text: translate(t) })),
      },
    };
  }
  throw new Error(`not a documented request: ${req.method} ${req.path}`);
}

const term = (termId: number, conceptId: number, lang: string, text: string, status = 'preferred') =>
  ({ termId, conceptId, lang, text, status, caseSensitive: false }) as TermRecord;

const TERMS = [
  term(1, 1, 'en', 'house'),
  term(2, 1, 'de', 'Gebäude'),
  term(3, 1, 'de', 'Haus', 'forbidden'),
  term(4, 2, 'en', 'printer'),
  term(5, 2, 'de', 'Drucker', 'admitted'),
];

before(async () => {
  fake = await startFakeEngine(deeplApi);
  store = await engineStore();
});
after(async () => {
  await fake.close();
  await store.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  refuseCreate = false;
});

const engine = () =>
  new MtEngine([createProvider('deepl', { key: KEY, serverUrl: fake.url })], {
    timeoutMs: 10_000,
    cacheDays: 1,
  });
const calls = (method: string, path: string) =>
  fake.requests.filter((r) => r.method === method && r.path === path);

test('DeepL: the termbase becomes a glossary, made once with exactly its entries, and passed on translate', async () => {
  glossaries = new Map();
  const mt = engine();
  const termbase = makeTermbase(7, TERMS, 'en', 'de-DE');
  const source = 'The <g id="1">house</g> has a printer.';
  const result = await mt.translate(store.db, store.organizationId, [source], 'en', 'de-DE', { termbase });
  assert.deepEqual(fake.problems, []);
  assert.equal(result.unavailable, null);
  assert.deepEqual(result.translations, ['THE <g id="1">gebäude</g> HAS A drucker.']);

  const [create] = calls('POST', '/v2/glossaries');
  assert.equal(calls('POST', '/v2/glossaries').length, 1);
  assert.equal(create.form?.get('name'), `tessera:deepl:m7:en-de:${termbase.hash}`);
  assert.equal(create.form?.get('source_lang'), 'en');
  assert.equal(create.form?.get('target_lang'), 'de');
  // The forbidden "Haus" is no entry; the admitted "Drucker" is, there being no preferred term.
  assert.equal(create.form?.get('entries'), 'house\tGebäude\nprinter\tDrucker');
  const [translate] = calls('POST', '/v2/translate');
  assert.equal(translate.form?.get('glossary_id'), 'g-1');
  assert.equal(translate.form?.get('text'), 'The <g1>house</g1> has a printer.', 'terms sent as words');

  // The next text: no glossary request, the same glossary passed.
  fake.requests.length = 0;
  await mt.translate(store.db, store.organizationId, ['A printer.'], 'en', 'de-DE', { termbase });
  assert.deepEqual(
    fake.requests.map((r) => `${r.method} ${r.path}`),
    ['POST /v2/translate'],
  );
  assert.equal(fake.requests[0].form?.get('glossary_id'), 'g-1');

  // A restarted process finds it by listing rather than making another.
  fake.requests.length = 0;
  const again = await engine().translate(store.db, store.organizationId, ['A house.'], 'en', 'de', {
    termbase,
  });
  assert.deepEqual(again.translations, ['A gebäude.']);
  assert.equal(calls('GET', '/v2/glossaries').length, 1);
  assert.equal(calls('POST', '/v2/glossaries').length, 0);
  assert.equal(glossaries.size, 1);
});

test('DeepL: a changed termbase gets a new glossary, the old one deleted and its cached answers not reused', async () => {
  glossaries = new Map();
  const mt = engine();
  const source = 'The house is red.';
  const first = makeTermbase(8, TERMS, 'en', 'de');
  const before = await mt.translate(store.db, store.organizationId, [source], 'en', 'de', {
    termbase: first,
  });
  assert.deepEqual(before.translations, ['THE gebäude IS RED.']);
  const oldId = [...glossaries.keys()][0];

  const changed = makeTermbase(8, [...TERMS.slice(0, 1), term(2, 1, 'de', 'Bauwerk')], 'en', 'de');
  assert.notEqual(changed.hash, first.hash);
  fake.requests.length = 0;
  const after = await mt.translate(store.db, store.organizationId, [source], 'en', 'de', {
    termbase: changed,
  });
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(after.translations, ['THE bauwerk IS RED.'], 'not the cached answer of the old glossary');
  assert.equal(calls('POST', '/v2/glossaries')[0].form?.get('entries'), 'house\tBauwerk');
  assert.deepEqual(
    calls('DELETE', `/v2/glossaries/${oldId}`).length,
    1,
    'the stale glossary of this memory and pair is deleted',
  );
  assert.deepEqual(
    [...glossaries.values()].map((g) => g.name),
    [`tessera:deepl:m8:en-de:${changed.hash}`],
  );
});

test('DeepL: without glossaries for the pair, or when DeepL refuses one, the terms are protected instead', async () => {
  glossaries = new Map();
  const mt = engine();
  const ja = makeTermbase(9, [term(1, 1, 'en', 'house'), term(2, 1, 'ja', '家屋')], 'en', 'ja');
  const result = await mt.translate(store.db, store.organizationId, ['The house.'], 'en', 'ja', {
    termbase: ja,
  });
  assert.deepEqual(result.translations, ['THE 家屋.']);
  assert.equal(calls('POST', '/v2/glossaries').length, 0);
  const [translate] = calls('POST', '/v2/translate');
  assert.equal(translate.form?.get('text'), 'The <x1/>.', 'the term masked as an element');
  assert.equal(translate.form?.get('glossary_id'), null);

  fake.requests.length = 0;
  refuseCreate = true;
  const refused = await mt.translate(store.db, store.organizationId, ['A printer.'], 'en', 'de', {
    termbase: makeTermbase(10, TERMS, 'en', 'de'),
  });
  assert.deepEqual(refused.translations, ['A Drucker.']);
  assert.equal(calls('POST', '/v2/translate')[0].form?.get('text'), 'A <x1/>.');
  assert.equal(calls('POST', '/v2/translate')[0].form?.get('glossary_id'), null);
});

for (const target of await storeTargets()) {
  describe(`an organization's DeepL engine and a memory's termbase through HTTP on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target, {});
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    test('POST /v2/translate: the termbase synchronised as a glossary, and again after an edit', async () => {
      glossaries = new Map();
      const memory = (await api.post('/v2/memories', { name: 'en-de', srclang: 'en', trglang: 'de' })).json();
      const engine = await api.post('/v2/translate/engines', {
        kind: 'deepl',
        settings: { key: KEY, serverUrl: fake.url },
      });
      assert.equal(engine.statusCode, 201, engine.body);
      const concept = await api.post(`/v2/memories/terms?id=${memory.id}`, {
        terms: [
          { lang: 'en', text: 'house' },
          { lang: 'de', text: 'Gebäude', status: 'preferred' },
        ],
      });
      assert.equal(concept.statusCode, 200, concept.body);
      const translate = async (source: string) => {
        const res = await api.post('/v2/translate', { memory_id: memory.id, source, tm_matches: false });
        assert.equal(res.statusCode, 200, res.body);
        return res.json().translation[0].targetWithTags as string;
      };
      fake.requests.length = 0;
      assert.equal(await translate('The <g id="1">house</g>.'), 'THE <g id="1">gebäude</g>.');
      assert.deepEqual(fake.problems, []);
      const [create] = calls('POST', '/v2/glossaries');
      assert.match(
        create.form!.get('name')!,
        new RegExp(`^tessera:engine${engine.json().id}:m${memory.id}:en-de:`),
      );
      assert.equal(create.form?.get('entries'), 'house\tGebäude');
      const first = [...glossaries.keys()];
      assert.equal(calls('POST', '/v2/translate')[0].form?.get('glossary_id'), first[0]);

      // The termbase edited: the next translation makes the new glossary and deletes the old one.
      const body = concept.json();
      const edited = await api.put(`/v2/memories/terms?id=${memory.id}&concept_id=${body.id}`, {
        terms: [...body.terms, { lang: 'en', text: 'building' }].map(
          (t: { id?: number; lang: string; text: string }) => ({
            id: t.id,
            lang: t.lang,
            text: t.text,
          }),
        ),
      });
      assert.equal(edited.statusCode, 200, edited.body);
      fake.requests.length = 0;
      assert.equal(await translate('A building.'), 'A gebäude.');
      assert.equal(
        calls('POST', '/v2/glossaries')[0].form?.get('entries'),
        'house\tGebäude\nbuilding\tGebäude',
      );
      assert.equal(calls('DELETE', `/v2/glossaries/${first[0]}`).length, 1);
      assert.equal(glossaries.size, 1);
    });
  });
}
