// Lilt's Files through HTTP on every store: upload (raw body, query parameters as Lilt's SDK sends them),
// MD5, language detection, labels, download, delete, limits and tenancy.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const ENGLISH =
  'The quarterly report is ready for review. Please read the summary before the meeting on Thursday, ' +
  'and send your comments to the finance team by the end of the week.\n';
const GERMAN =
  'Der Quartalsbericht liegt zur Prüfung bereit. Bitte lesen Sie die Zusammenfassung vor der Besprechung ' +
  'am Donnerstag und senden Sie Ihre Anmerkungen bis zum Ende der Woche an die Finanzabteilung.\n';

for (const target of await storeTargets()) {
  describe(`source files on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let rival: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target, { TESSERA_MAX_UPLOAD_BYTES: String(64 * 1024) });
      api = client(ctx.app, ctx.adminKey);
      rival = client(
        ctx.app,
        await userKey(ctx, {
          username: 'mallory',
          password: 'elsewhere1',
          role: 'admin',
          organization: 'rival',
        }),
      );
    });
    after(() => ctx.close());

    test('upload: 201 SourceFile with MD5, detected language, category and labels; download gives the bytes back', async () => {
      const res = await api.upload(
        '/v2/files?name=report.txt&category=REFERENCE&labels=finance,%20q3',
        ENGLISH,
      );
      assert.equal(res.statusCode, 201, res.body);
      const file = res.json();
      assert.deepEqual(Object.keys(file).sort(), [
        'category',
        'created_at',
        'detected_lang',
        'detected_lang_confidence',
        'file_hash',
        'id',
        'labels',
        'name',
        'updated_at',
      ]);
      assert.equal(file.name, 'report.txt');
      assert.equal(file.file_hash, createHash('md5').update(ENGLISH).digest('hex'));
      assert.equal(file.detected_lang, 'en');
      assert.ok(file.detected_lang_confidence > 0 && file.detected_lang_confidence <= 1);
      assert.equal(file.category, 'REFERENCE');
      assert.deepEqual(file.labels.sort(), ['finance', 'q3']);
      assert.match(file.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

      const download = await api.get(`/v2/files/download?id=${file.id}`);
      assert.equal(download.statusCode, 200);
      assert.equal(download.body, ENGLISH);
      assert.match(String(download.headers['content-disposition']), /report\.txt/);
    });

    test('language comes from the content, not the name; a given hash is kept; langId=false skips detection', async () => {
      const german = (await api.upload('/v2/files?name=english-notes.txt', GERMAN)).json();
      assert.equal(german.detected_lang, 'de');
      const po = await api.upload(
        '/v2/files?name=app.po&file_hash=abc123',
        `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "${GERMAN.trim()}"\nmsgstr ""\n`,
      );
      assert.equal(po.statusCode, 201, po.body);
      assert.equal(po.json().detected_lang, 'de');
      assert.equal(po.json().file_hash, 'abc123');
      const skipped = (await api.upload('/v2/files?name=x.txt&langId=false', ENGLISH)).json();
      assert.equal(skipped.detected_lang, 'zxx');
      const short = (await api.upload('/v2/files?name=short.txt', 'OK')).json();
      assert.equal(short.detected_lang, 'und');
      const binary = (await api.upload('/v2/files?name=blob.bin', Buffer.from([0, 1, 2, 3, 0, 255]))).json();
      assert.equal(binary.detected_lang, 'und');
    });

    test('list by id and by labels (all must match); labels added and removed answer 204', async () => {
      const a = (await api.upload('/v2/files?name=a.txt&labels=web,legal', ENGLISH)).json();
      const b = (await api.upload('/v2/files?name=b.txt&labels=web', ENGLISH)).json();
      const ids = async (query: string) =>
        ((await api.get(`/v2/files${query}`)).json() as { id: number }[])
          .map((f) => f.id)
          .sort((x, y) => x - y);
      assert.deepEqual(await ids('?labels=web'), [a.id, b.id]);
      assert.deepEqual(await ids('?labels=web,legal'), [a.id]);
      assert.deepEqual(await ids(`?id=${b.id}`), [b.id]);
      assert.equal((await api.post(`/v2/files/labels?id=${b.id}`, { name: 'legal' })).statusCode, 204);
      assert.deepEqual(await ids('?labels=web,legal'), [a.id, b.id]);
      assert.equal((await api.delete(`/v2/files/labels?id=${a.id}&name=legal`)).statusCode, 204);
      assert.deepEqual(await ids('?labels=web,legal'), [b.id]);
      const missing = await api.post(`/v2/files/labels?id=${b.id}`, {});
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().message, /name/);
    });

    test('delete answers {id, deleted}; the file is gone; another organization sees 404 for everything', async () => {
      const file = (await api.upload('/v2/files?name=gone.txt', ENGLISH)).json();
      for (const res of [
        await rival.get(`/v2/files/download?id=${file.id}`),
        await rival.delete(`/v2/files?id=${file.id}`),
        await rival.post(`/v2/files/labels?id=${file.id}`, { name: 'x' }),
      ]) {
        assert.equal(res.statusCode, 404, res.body);
      }
      assert.deepEqual((await rival.get(`/v2/files?id=${file.id}`)).json(), []);
      const res = await api.delete(`/v2/files?id=${file.id}`);
      assert.deepEqual(res.json(), { id: file.id, deleted: true });
      assert.equal((await api.get(`/v2/files/download?id=${file.id}`)).statusCode, 404);
    });

    test('bad input: no name, a path as name, too large — each refused, nothing stored', async () => {
      const before = (await api.get('/v2/files')).json().length;
      const noName = await api.upload('/v2/files', ENGLISH);
      assert.equal(noName.statusCode, 400);
      assert.match(noName.json().message, /name/);
      const path = await api.upload('/v2/files?name=../../etc/passwd', ENGLISH);
      assert.equal(path.statusCode, 400);
      const big = await api.upload('/v2/files?name=big.txt', Buffer.alloc(65 * 1024, 'a'));
      assert.equal(big.statusCode, 413);
      const category = await api.upload('/v2/files?name=c.txt&category=SECRET', ENGLISH);
      assert.equal(category.statusCode, 400);
      assert.match(category.json().message, /category/);
      assert.equal((await api.get('/v2/files')).json().length, before);
    });
  });
}
