// The lexicon learned from a memory's own pairs through GET /v2/lexicon, on every store: trained in the
// background on the first question, answered after the termbase's translations (origin "memory", no status),
// never a translation the termbase forbids for the word, only in the memory's direction, and retrained once
// the memory has grown; dropped with its memory; and the term candidates it proposes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { type LexiconTranslation, learned as learnedIn, lexicon as lexiconOf } from './helpers/lexicon.ts';
import { storeTargets } from './helpers/stores.ts';

// A small memory in the way of a software UI's: each content word in several contexts.
const PAIRS = [
  ['Open the file', 'Öffnen Sie die Datei'],
  ['Save the file', 'Speichern Sie die Datei'],
  ['Close the file', 'Schließen Sie die Datei'],
  ['Open the folder', 'Öffnen Sie den Ordner'],
  ['Save the folder', 'Speichern Sie den Ordner'],
  ['Close the window', 'Schließen Sie das Fenster'],
  ['The file is open', 'Die Datei ist geöffnet'],
  ['The folder is empty', 'Der Ordner ist leer'],
  ['The window is empty', 'Das Fenster ist leer'],
  ['Delete the file', 'Löschen Sie die Datei'],
  ['Delete the folder', 'Löschen Sie den Ordner'],
  ['Print the file', 'Drucken Sie die Datei'],
  ['Print the window', 'Drucken Sie das Fenster'],
  ['The file was deleted', 'Die Datei wurde gelöscht'],
  ['The folder was deleted', 'Der Ordner wurde gelöscht'],
];

for (const target of await storeTargets()) {
  describe(`the learned lexicon on ${target.name}`, () => {
    let ctx: TestContext;
    let admin: ReturnType<typeof client>;
    let translator: ReturnType<typeof client>;
    let memoryId: number;

    before(async () => {
      ctx = await createContext(target);
      admin = client(ctx.app, ctx.adminKey);
      translator = client(
        ctx.app,
        await userKey(ctx, { username: 'lena', password: 'lena-password-1', role: 'translator' }),
      );
      memoryId = (await admin.post('/v2/memories', { name: 'UI', srclang: 'en', trglang: 'de' })).json().id;
      for (const [source, target] of PAIRS) {
        const res = await admin.post('/v2/segments', { memory_id: memoryId, source, target });
        assert.equal(res.statusCode, 200, res.body);
      }
      // The termbase knows "folder": Verzeichnis preferred, Ordner forbidden.
      const concept = await admin.post(`/v2/memories/terms?id=${memoryId}`, {
        terms: [
          { lang: 'en', text: 'folder' },
          { lang: 'de', text: 'Verzeichnis', status: 'preferred' },
          { lang: 'de', text: 'Ordner', status: 'forbidden' },
        ],
      });
      assert.equal(concept.statusCode, 200, concept.body);
    });
    after(() => ctx.close());

    const lexicon = (query: string, langs?: string) => lexiconOf(translator, memoryId, query, langs);
    const learned = (query: string) => learnedIn(translator, memoryId, query);

    test('a word in no termbase is answered from the memory once its lexicon is trained', async () => {
      const answer = await learned('window');
      assert.deepEqual(answer[0], {
        source: 'window',
        target: 'Fenster',
        frequency: 3,
        status: null,
        origin: 'memory',
        memory_id: memoryId,
      });
      assert.equal((await lexicon('deleted'))[0].target, 'gelöscht');
      assert.deepEqual(await lexicon('spreadsheet'), [], 'a word the memory never holds');
      // Only in the memory's direction: the model learned English → German.
      assert.deepEqual(await lexicon('Fenster', 'srclang=de&trglang=en'), []);
    });

    test("the termbase's translations come first, and one it forbids is never learned", async () => {
      await learned('window');
      const answer = await lexicon('folder');
      assert.deepEqual(
        answer.map((t) => [t.target, t.origin, t.status]),
        [['Verzeichnis', 'termbase', 'preferred']],
        'Ordner is what the memory says, and what the termbase forbids',
      );
    });

    test('term candidates: phrases the memory translates consistently, not yet in the termbase', async () => {
      await learned('window');
      const res = await admin.get(`/v2/memories/terms/candidates?id=${memoryId}`);
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json();
      assert.equal(answer.state, 'ready');
      // "file" (9 sentences) is one; "folder" is already a term; "window" (3) is under the five sentences a
      // candidate needs; "the", "is" are function words.
      assert.deepEqual(
        answer.candidates.map((c: { source: string; target: string }) => [c.source, c.target]),
        [['file', 'Datei']],
      );
      assert.equal(answer.candidates[0].share, 1);
      assert.equal((await translator.get(`/v2/memories/terms/candidates?id=${memoryId}`)).statusCode, 403);
      const empty = (
        await admin.post('/v2/memories', { name: 'Empty', srclang: 'en', trglang: 'de' })
      ).json();
      assert.deepEqual((await admin.get(`/v2/memories/terms/candidates?id=${empty.id}`)).json(), {
        state: 'empty',
        candidates: [],
      });
      // Accepted into the termbase, it is no longer a candidate.
      await admin.post(`/v2/memories/terms?id=${memoryId}`, {
        terms: [
          { lang: 'en', text: 'File' },
          { lang: 'de', text: 'Datei' },
        ],
      });
      assert.deepEqual(
        (await admin.get(`/v2/memories/terms/candidates?id=${memoryId}`)).json().candidates,
        [],
      );
    });

    test('deleting a memory drops the lexicon learned from it, and no other', async () => {
      await learned('window');
      const doomed = (
        await admin.post('/v2/memories', { name: 'Doomed', srclang: 'en', trglang: 'de' })
      ).json().id as number;
      for (const [source, target] of PAIRS) {
        await admin.post('/v2/segments', { memory_id: doomed, source, target });
      }
      const ask = () => translator.get(`/v2/lexicon?memory_id=${doomed}&srclang=en&trglang=de&query=window`);
      for (let i = 0; ; i++) {
        const answer = (await ask()).json()[0].translations as LexiconTranslation[];
        if (answer.some((t) => t.origin === 'memory')) break;
        assert.ok(i < 600, 'the doomed memory never learned');
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.ok((await ctx.app.learned.held()).includes(doomed));
      assert.equal((await admin.delete(`/v2/memories?id=${doomed}`)).statusCode, 200);
      assert.equal(ctx.app.learned.state(doomed), undefined);
      const held = await ctx.app.learned.held();
      assert.ok(!held.includes(doomed), JSON.stringify(held));
      assert.ok(held.includes(memoryId), 'the other memory keeps its model');
      assert.equal((await ask()).statusCode, 404);
    });

    test('a memory that has grown by a tenth is learned again', async () => {
      await learned('window');
      assert.deepEqual(await lexicon('printer'), []);
      for (const [source, target] of [
        ['The printer is empty', 'Der Drucker ist leer'],
        ['Open the printer', 'Öffnen Sie den Drucker'],
        ['Delete the printer', 'Löschen Sie den Drucker'],
      ]) {
        await admin.post('/v2/segments', { memory_id: memoryId, source, target });
      }
      const answer = await learned('printer');
      assert.equal(answer[0].target, 'Drucker');
    });
  });
}
