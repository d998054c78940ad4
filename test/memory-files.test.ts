// Memory files in the plain formats (TSV, CSV) through HTTP on every store: which first row is a header.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`TSV and CSV memory files on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    async function createMemory(name: string, srclang = 'en', trglang = 'de') {
      return (await api.post('/v2/memories', { name, srclang, trglang })).json().id as number;
    }

    async function importFile(memoryId: number, name: string, body: string) {
      const res = await api.upload('/v2/memories/import', body, {
        'lilt-api': JSON.stringify({ memory_id: memoryId, name }),
      });
      assert.equal(res.statusCode, 200, res.body);
      return api.waitForTask(res.json().job_id);
    }

    async function pairs(memoryId: number) {
      const page = (await api.get(`/v2/memories/entries?id=${memoryId}&limit=100`)).json();
      return page.entries.map((e: { source: string; target: string }) => [e.source, e.target]);
    }

    test('a first row of two short words is data, not a header naming other languages', async () => {
      for (const [first, second] of [
        ['OK', 'OK'],
        ['Yes', 'Ja'],
        ['Hi', 'Hi'],
        ['no', 'nein'],
      ]) {
        const memoryId = await createMemory(`${first} ${second}`);
        const task = await importFile(memoryId, 'short.tsv', `${first}\t${second}\nSave.\tSpeichern.\n`);
        assert.equal(task.state, 'succeeded', `${first}⇥${second}: ${task.error}`);
        assert.deepEqual(task.result, { imported: 2, skipped: 0, duplicates: 0 });
        assert.deepEqual(await pairs(memoryId), [
          [first, second],
          ['Save.', 'Speichern.'],
        ]);
      }
    });

    test("a header row names the memory's languages (either order, any region); full tags of other languages are refused", async () => {
      const memoryId = await createMemory('Headers');
      let task = await importFile(memoryId, 'a.tsv', 'EN-us\tde_AT\nOpen.\tÖffnen.\n');
      assert.deepEqual(task.result, { imported: 1, skipped: 0, duplicates: 0 });
      task = await importFile(memoryId, 'b.tsv', 'de\ten\nSchließen.\tClose.\n');
      assert.deepEqual(task.result, { imported: 1, skipped: 0, duplicates: 0 });
      assert.deepEqual(await pairs(memoryId), [
        ['Open.', 'Öffnen.'],
        ['Close.', 'Schließen.'],
      ]);
      task = await importFile(memoryId, 'c.tsv', 'en-US\tfr-FR\nOpen.\tOuvrir.\n');
      assert.equal(task.state, 'failed');
      assert.match(task.error, /c\.tsv: line 1: the columns are en-US and fr-FR, the memory is en → de/);
      assert.equal((await pairs(memoryId)).length, 2, 'the refused file changed nothing');
    });

    test('CSV imports with the TSV rules: quoted cells with commas, quotes and line breaks; header detection; line numbers', async () => {
      const memoryId = await createMemory('CSV');
      const csv =
        'de,en\r\n' +
        '"Öffnen, dann speichern.","Open, then save."\r\n' +
        '"Sag ""hallo"".","Say ""hi""."\r\n' +
        '"Zwei\nZeilen","Two\nlines"\r\n' +
        ',Empty source\r\n';
      const task = await importFile(memoryId, 'glossary.csv', csv);
      assert.equal(task.state, 'succeeded', task.error);
      assert.deepEqual(task.result, {
        imported: 3,
        skipped: 1,
        duplicates: 0,
        skipped_why: '1 unit lacked a source or a target',
        skipped_languages: [],
      });
      assert.deepEqual(await pairs(memoryId), [
        ['Open, then save.', 'Öffnen, dann speichern.'],
        ['Say "hi".', 'Sag "hallo".'],
        ['Two\nlines', 'Zwei\nZeilen'],
      ]);
      const short = await createMemory('CSV short words');
      const ok = await importFile(short, 'ok.csv', 'OK,OK\nYes,Ja\n');
      assert.deepEqual(ok.result, { imported: 2, skipped: 0, duplicates: 0 });

      const broken = await importFile(memoryId, 'broken.csv', 'Print.,Drucken.\nno comma here\n');
      assert.equal(broken.state, 'failed');
      assert.equal(broken.error_code, 'MALFORMED_FILE');
      assert.match(
        broken.error,
        /broken\.csv: line 2: expected the source and the target separated by a comma/,
      );
      const unclosed = await importFile(memoryId, 'unclosed.csv', 'A.,B.\n"never closed,C.\n');
      assert.equal(unclosed.state, 'failed');
      assert.match(unclosed.error, /unclosed\.csv: CSV: .*line 2/i);
      assert.equal((await pairs(memoryId)).length, 3, 'a failed import changes nothing');
    });
  });
}
