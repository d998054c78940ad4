// The learned lexicon's answers for names and labels through GET /v2/lexicon, on every store: a name the
// target keeps only inside hyphenated compounds ("XBM" of "XBM-Datei"), a word whose sentences render it by
// nothing consistent ("Turkmenistan" of "Turkmenistan-Manat"), and a two-word label named in the nominative
// where the sentences write an oblique case as often ("Unbekannter Typ", not "unbekanntem Typ").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { learned as learnedIn } from './helpers/lexicon.ts';
import { storeTargets } from './helpers/stores.ts';

const PAIRS = [
  ['Open the file', 'Öffnen Sie die Datei'],
  ['Save the file', 'Speichern Sie die Datei'],
  ['Close the window', 'Schließen Sie das Fenster'],
  ['The file is open', 'Die Datei ist geöffnet'],
  ['The folder is empty', 'Der Ordner ist leer'],
  ['Delete the file', 'Löschen Sie die Datei'],
  ['Print the file', 'Drucken Sie die Datei'],
  ['The file was deleted', 'Die Datei wurde gelöscht'],
  // "XBM" and "Puebla" are never written alone in the German.
  ['XBM file saved', 'XBM-Datei gespeichert'],
  ['XBM file printed', 'XBM-Datei gedruckt'],
  ['XBM image saved', 'XBM-Bild gespeichert'],
  ['XBM image printed', 'XBM-Bild gedruckt'],
  ['Image saved', 'Bild gespeichert'],
  ['Image printed', 'Bild gedruckt'],
  ['File saved', 'Datei gespeichert'],
  ['File printed', 'Datei gedruckt'],
  ['Central Puebla', 'Zentral-Puebla'],
  ['Highland Puebla', 'Hochland-Puebla'],
  ['North Puebla', 'Nord-Puebla'],
  // One target word for two source words: no span is consistent with the links.
  ['Turkmenistan New Manat', 'Turkmenistan-Manat'],
  ['Manat', 'Manat'],
  // The dative "unbekanntem Typ" three times, the label's "Unbekannter Typ" twice.
  ['Unknown type: %s', 'Unbekannter Typ: %s'],
  ['Unknown type in %s', 'Unbekannter Typ in %s'],
  ['For unknown type %s', 'Für unbekannten Typ %s'],
  ['With unknown type %s', 'Mit unbekanntem Typ %s'],
  ['From unknown type %s', 'Von unbekanntem Typ %s'],
  ['At unknown type %s', 'Bei unbekanntem Typ %s'],
  ['For the file', 'Für die Datei'],
  ['With the file', 'Mit der Datei'],
  ['From the file', 'Von der Datei'],
  ['At the file', 'Bei der Datei'],
  ['Unknown name', 'Unbekannter Name'],
  ['Unknown file', 'Unbekannte Datei'],
  ['The type is old', 'Der Typ ist alt'],
  ['The type is empty', 'Der Typ ist leer'],
  ['The name is unknown', 'Der Name ist unbekannt'],
];

for (const target of await storeTargets()) {
  describe(`the learned lexicon's names and labels on ${target.name}`, () => {
    let ctx: TestContext;
    let admin: ReturnType<typeof client>;
    let memory: number;

    before(async () => {
      ctx = await createContext(target);
      admin = client(ctx.app, ctx.adminKey);
      memory = (await admin.post('/v2/memories', { name: 'names', srclang: 'en', trglang: 'de' })).json().id;
      for (const [source, target] of PAIRS) {
        const res = await admin.post('/v2/segments', { memory_id: memory, source, target });
        assert.equal(res.statusCode, 200, res.body);
      }
    });
    after(() => ctx.close());
    const learned = (query: string) => learnedIn(admin, memory, query);

    test('a name kept only inside hyphenated compounds: the name, the compounds after it', async () => {
      const xbm = await learned('XBM');
      assert.deepEqual(
        xbm.slice(0, 1).map((t) => [t.target, t.frequency]),
        [['XBM', 4]],
      );
      assert.ok(
        xbm.slice(1).some((t) => t.target.startsWith('XBM-')),
        JSON.stringify(xbm),
      );
      assert.equal((await learned('Puebla'))[0].target, 'Puebla');
    });

    test('a word its sentences render by nothing consistent: the word their targets keep', async () => {
      const found = await learned('Turkmenistan');
      assert.deepEqual(
        found.map((t) => [t.target, t.frequency, t.origin]),
        [['Turkmenistan', 1, 'memory']],
      );
    });

    test('a two-word label named in the nominative', async () => {
      assert.equal((await learned('unknown type'))[0].target, 'Unbekannter Typ');
    });
  });
}
