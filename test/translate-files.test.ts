// Lilt's Instant Translate through the HTTP API on every store, with the live Apertium engine (en→es): a file
// uploaded by POST /v2/files, translated by POST /v2/translate/file (the memory's 100 % matches, machine
// translation elsewhere, tags and placeholders kept), watched by GET /v2/translate/file, downloaded by
// GET /v2/translate/files in its format and checked by that format's own tool (msgfmt -c, the XLIFF 1.2
// strict schema). Failures say why (a format no filter reads, a malformed file, no engine for the pair);
// another organization's files and translations are 404; `prefix` on POST /v2/translate.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { type Apertium, startApertium } from './helpers/apertium.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';
import { schemaErrors, schemaSkipReason } from './helpers/xmllint.ts';

interface Info {
  id: number;
  fileId: number;
  status: string;
  createdAt: number;
  errorMsg?: string;
  segments: number;
  tmSegments: number;
  mtSegments: number;
  sourceSegments: number;
}

const apertium: Apertium | null = await startApertium();
after(() => apertium?.stop());

const msgfmtSkip =
  spawnSync('msgfmt', ['--version']).status === 0 || process.env.CI === 'true'
    ? undefined
    : 'msgfmt not installed (apt-get install gettext)';

/** msgfmt -c on a catalog: its exit status and what it printed. */
function msgfmt(po: Buffer) {
  const run = spawnSync('msgfmt', ['-c', '--statistics', '-o', '/dev/null', '-'], { input: po });
  return { status: run.status, stderr: run.stderr.toString() };
}

const PO = [
  'msgid ""',
  'msgstr ""',
  '"Content-Type: text/plain; charset=UTF-8\\n"',
  '"Language: es\\n"',
  '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
  '',
  'msgid "The red house is big."',
  'msgstr ""',
  '',
  '#, c-format',
  'msgid "You have %d new messages."',
  'msgstr ""',
  '',
].join('\n');

const XLIFF = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="app" source-language="en" target-language="es" datatype="plaintext">
    <body>
      <trans-unit id="1"><source>The red house is big.</source></trans-unit>
      <trans-unit id="2"><source>Open <g id="b1">the door</g> now.</source></trans-unit>
    </body>
  </file>
</xliff>
`;

for (const target of await storeTargets()) {
  describe(`Instant Translate with Apertium on ${target.name}`, { skip: apertium === null }, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let memoryId: number;
    before(async () => {
      ctx = await createContext(target, { TESSERA_MT_APERTIUM_URL: apertium!.url });
      api = client(ctx.app, ctx.adminKey);
      memoryId = (await api.post('/v2/memories', { name: 'en-es', srclang: 'en', trglang: 'es' })).json().id;
      for (const [source, target] of [
        ['The red house is big.', 'La casa roja es grande.'],
        ['The garden is green.', 'El jardín es verde (de la memoria).'],
      ]) {
        const added = await api.post('/v2/segments', { memory_id: memoryId, source, target });
        assert.equal(added.statusCode, 200, added.body);
      }
    });
    after(() => ctx.close());

    /** POST /v2/files as Lilt's SDKs upload: the name in the query, the bytes as the body. */
    async function upload(name: string, body: string | Buffer): Promise<number> {
      const res = await api.upload(`/v2/files?name=${encodeURIComponent(name)}`, body);
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id;
    }

    async function start(query: string): Promise<Info[]> {
      const res = await api.post(`/v2/translate/file?${query}`, undefined);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    }

    async function finished(id: number): Promise<Info> {
      for (let i = 0; i < 3000; i++) {
        const res = await api.get(`/v2/translate/file?translationIds=${id}`);
        assert.equal(res.statusCode, 200, res.body);
        const [info] = res.json() as Info[];
        if (info.status !== 'InProgress') return info;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`translation ${id} never finished`);
    }

    async function translated(name: string, body: string | Buffer, withTM = true) {
      const fileId = await upload(name, body);
      const [started] = await start(`fileId=${fileId}&memoryId=${memoryId}&withTM=${withTM}`);
      assert.equal(started.fileId, fileId);
      assert.equal(started.status, 'InProgress');
      const info = await finished(started.id);
      assert.equal(info.status, 'ReadyForDownload', info.errorMsg);
      const res = await api.get(`/v2/translate/files?id=${started.id}`);
      assert.equal(res.statusCode, 200, res.body);
      return { info, res, text: res.body };
    }

    test('a text file: the memory’s 100 % match where there is one, Apertium elsewhere; the layout kept', async () => {
      const { info, res, text } = await translated(
        'notes.txt',
        'The red house is big.\n\nThe dog eats in the kitchen.\n',
      );
      assert.deepEqual([info.segments, info.tmSegments, info.mtSegments, info.sourceSegments], [2, 1, 1, 0]);
      const [first, second, end] = text.split('\n\n');
      assert.equal(first, 'La casa roja es grande.');
      assert.match(second, /^[^\n]*perro[^\n]*cocina[^\n]*\n$/);
      assert.equal(end, undefined);
      assert.match(res.headers['content-disposition'] as string, /filename="notes\.es\.txt"/);
    });

    test('withTM=false: machine translation alone, even where the memory has the sentence', async () => {
      const { info, text } = await translated('garden.txt', 'The garden is green.\n', false);
      assert.deepEqual([info.tmSegments, info.mtSegments], [0, 1]);
      assert.doesNotMatch(text, /de la memoria/);
      assert.match(text, /jard[ií]n/);
    });

    test('HTML: inline tags survive machine translation, in their place in the page', async () => {
      const html = '<html><body><p>The red house is big. Open <b>the door</b> now.</p></body></html>\n';
      const { info, text } = await translated('page.html', html);
      assert.equal(info.tmSegments, 1);
      assert.equal(info.mtSegments, 1);
      assert.match(
        text,
        /^<html lang="es"><body><p>La casa roja es grande\. .*<b>[^<]*puerta[^<]*<\/b>.*<\/p><\/body><\/html>\n$/,
      );
    });

    test('PO: the match confirmed, MT a fuzzy draft with its placeholder; msgfmt -c accepts the catalog', {
      skip: msgfmtSkip,
    }, async () => {
      const { text, res } = await translated('messages.po', PO);
      assert.match(text, /msgid "The red house is big\."\nmsgstr "La casa roja es grande\."/);
      assert.match(text, /#, fuzzy, c-format\nmsgid "You have %d new messages\."\nmsgstr "[^"]*%d[^"]*"/);
      const checked = msgfmt(res.rawPayload);
      assert.equal(checked.status, 0, checked.stderr);
    });

    test('XLIFF: targets written, the pair tag kept, the strict schema validates it', {
      skip: schemaSkipReason,
    }, async () => {
      const { text } = await translated('app.xlf', XLIFF);
      assert.match(text, /<target[^>]*>La casa roja es grande\.<\/target>/);
      assert.match(
        text,
        /<target[^>]*state="needs-review-translation"[^>]*>[^<]*<g id="b1">[^<]*puerta[^<]*<\/g>/,
      );
      assert.equal(schemaErrors(text), '');
    });

    test('failures say why: a format no filter reads, a malformed file, no engine for the pair', async () => {
      const pdf = await upload('scan.pdf', Buffer.from('%PDF-1.4 binary'));
      const broken = await upload('broken.xlf', '<xliff version="1.2"><file><body><trans-unit');
      const [a, b] = await start(`fileId=${pdf},${broken}&memoryId=${memoryId}`);
      const failedPdf = await finished(a.id);
      assert.equal(failedPdf.status, 'Failed');
      assert.match(failedPdf.errorMsg!, /scan\.pdf: no format filter reads this file/);
      const failedXml = await finished(b.id);
      assert.equal(failedXml.status, 'Failed');
      assert.match(failedXml.errorMsg!, /^broken\.xlf: /);

      const deFr = (await api.post('/v2/memories', { name: 'de-fr', srclang: 'de', trglang: 'fr' })).json();
      const german = await upload('de.txt', 'Das Haus ist rot.\n');
      const [c] = await start(`fileId=${german}&memoryId=${deFr.id}&withTM=false`);
      const noEngine = await finished(c.id);
      assert.equal(noEngine.status, 'Failed');
      assert.match(noEngine.errorMsg!, /need machine translation, and there is none from de to fr/);
      // A failed translation has no file: the download says why rather than sending the source.
      const download = await api.get(`/v2/translate/files?id=${c.id}`);
      assert.equal(download.statusCode, 409);
      assert.equal(download.json().code, 'TRANSLATION_FAILED');
      assert.match(download.json().message, /there is none from de to fr/);

      const listed = (await api.get('/v2/translate/file?status=Failed')).json() as Info[];
      assert.deepEqual(
        listed.map((i) => i.id).filter((id) => [a.id, b.id, c.id].includes(id)),
        [a.id, b.id, c.id],
      );
    });

    test('a task whose params do not match its schema fails its translation instead of leaving it in progress', async () => {
      await ctx.app.worker.stop();
      try {
        const fileId = await upload('stuck.txt', 'The red house is big.\n');
        const [started] = await start(`fileId=${fileId}&memoryId=${memoryId}`);
        const task = await ctx.db.get<{ id: number; params: string }>(
          "SELECT id, params FROM tasks WHERE type = 'file_translation' AND state = 'queued' ORDER BY id DESC",
        );
        assert.equal(JSON.parse(task!.params).translation_id, started.id);
        await ctx.db.run('UPDATE tasks SET params = ? WHERE id = ?', [
          JSON.stringify({ translation_id: started.id, file_name: 7 }),
          task!.id,
        ]);
        await ctx.app.worker.drain();
        const [info] = (await api.get(`/v2/translate/file?translationIds=${started.id}`)).json() as Info[];
        assert.equal(info.status, 'Failed');
        assert.match(info.errorMsg!, /params of a file_translation task do not match its schema/);
      } finally {
        ctx.app.worker.start();
      }
    });

    test('parameters: named in the 400; unsupported options refused; at least one monitor filter', async () => {
      const fileId = await upload('p.txt', 'The red house is big.\n');
      for (const [query, name] of [
        [`fileId=abc&memoryId=${memoryId}`, 'fileId'],
        [`fileId=${fileId}&memoryId=${memoryId}&configId=1`, 'configId'],
        [`fileId=${fileId}&memoryId=${memoryId}&externalModelId=2`, 'externalModelId'],
        [`fileId=${fileId}`, 'memoryId'],
      ]) {
        const res = await api.post(`/v2/translate/file?${query}`, undefined);
        assert.equal(res.statusCode, 400, query);
        assert.match(res.json().message, new RegExp(name), res.body);
      }
      const none = await api.get('/v2/translate/file');
      assert.equal(none.statusCode, 400);
      assert.match(none.json().message, /translationIds/);
      assert.equal((await api.get('/v2/translate/file?translationIds=1,x')).statusCode, 400);
      assert.equal((await api.get('/v2/translate/file?status=Done')).statusCode, 400);
      const endless = await api.get('/v2/translate/file?fromTime=Infinity');
      assert.equal(endless.statusCode, 400);
      assert.match(endless.json().message, /fromTime/);
      assert.deepEqual((await api.get('/v2/translate/file?status=Completed')).json(), []);
      assert.equal(
        (await api.post(`/v2/translate/file?fileId=999999&memoryId=${memoryId}`, undefined)).statusCode,
        404,
      );
    });

    test('another organization: its files, memories and translations are 404', async () => {
      const fileId = await upload('mine.txt', 'The red house is big.\n');
      const [mine] = await start(`fileId=${fileId}&memoryId=${memoryId}`);
      await finished(mine.id);
      const other = client(
        ctx.app,
        await userKey(ctx, {
          username: 'other-org',
          password: 'other-pass-123',
          role: 'admin',
          organization: 'Other',
        }),
      );
      const otherMemory = (
        await other.post('/v2/memories', { name: 'm', srclang: 'en', trglang: 'es' })
      ).json().id;
      assert.equal(
        (await other.post(`/v2/translate/file?fileId=${fileId}&memoryId=${otherMemory}`, undefined))
          .statusCode,
        404,
      );
      assert.equal((await other.get(`/v2/translate/file?translationIds=${mine.id}`)).statusCode, 404);
      assert.equal((await other.get(`/v2/translate/files?id=${mine.id}`)).statusCode, 404);
      assert.deepEqual((await other.get('/v2/translate/file?status=ReadyForDownload')).json(), []);
      const theirFile = (await other.upload('/v2/files?name=t.txt', 'Hello.\n')).json().id;
      assert.equal(
        (await api.post(`/v2/translate/file?fileId=${theirFile}&memoryId=${memoryId}`, undefined)).statusCode,
        404,
      );
    });

    test('a large file is translated in slices while other requests are answered', async (t) => {
      const paragraphs = Array.from({ length: 600 }, (_, i) =>
        i % 3 === 0 ? 'The red house is big.' : `The dog number ${i} eats in the kitchen.`,
      );
      const fileId = await upload('big.txt', `${paragraphs.join('\n\n')}\n`);
      const [started] = await start(`fileId=${fileId}&memoryId=${memoryId}`);
      // Requests go on being answered while it runs: none waits long.
      let slowest = 0;
      let info: Info;
      for (;;) {
        const t0 = performance.now();
        const res = await api.get(`/v2/translate/file?translationIds=${started.id}`);
        slowest = Math.max(slowest, performance.now() - t0);
        info = (res.json() as Info[])[0];
        if (info.status !== 'InProgress') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(info.status, 'ReadyForDownload', info.errorMsg);
      assert.deepEqual([info.segments, info.tmSegments, info.mtSegments], [600, 200, 400]);
      t.diagnostic(`slowest monitor request while translating: ${slowest.toFixed(1)} ms`);
      assert.ok(slowest < 1000, `a request waited ${slowest.toFixed(0)} ms`);
      const text = (await api.get(`/v2/translate/files?id=${started.id}`)).body;
      const out = text.split('\n\n');
      assert.equal(out.length, 600);
      assert.equal(out[0], 'La casa roja es grande.');
      assert.match(out[1], /perro/);
    });

    test('prefix on POST /v2/translate: every suggestion continues what the translator typed', async () => {
      const source = 'The red house is big.';
      const plain = (await api.post('/v2/translate', { memory_id: memoryId, source, n: 3 })).json();
      const mt = plain.translation.find((t: { isTMMatch: boolean }) => !t.isTMMatch).target as string;
      // A prefix the match and the MT both start with keeps them as they are.
      const kept = (
        await api.post('/v2/translate', { memory_id: memoryId, source, prefix: 'La casa' })
      ).json();
      assert.equal(kept.translation[0].isTMMatch, true);
      assert.equal(kept.translation[0].target, 'La casa roja es grande.');
      // A prefix the match does not start with drops it; the MT is continued after the prefix.
      const typed = 'Esta vivienda';
      const res = await api.post('/v2/translate', { memory_id: memoryId, source, prefix: typed });
      assert.equal(res.statusCode, 200, res.body);
      const list = res.json().translation as { target: string; targetWithTags: string; isTMMatch: boolean }[];
      assert.ok(list.length >= 1);
      for (const t of list) assert.ok(t.target.startsWith(typed), t.target);
      assert.equal(
        list.some((t) => t.isTMMatch),
        false,
      );
      // The continuation is the MT's own words after the ones the prefix replaced.
      const completed = list[0].target;
      assert.ok(mt.endsWith(completed.slice(typed.length).trim()), `${completed} / ${mt}`);
      // A word still being typed is completed from the MT.
      const partial = mt.slice(0, mt.indexOf(' ') + 3);
      const typing = (
        await api.post('/v2/translate', { memory_id: memoryId, source, prefix: partial, tm_matches: false })
      ).json();
      assert.equal(typing.translation[0].target, mt);
      // Tags of the source stay in a completed suggestion.
      const tagged = (
        await api.post('/v2/translate', {
          memory_id: memoryId,
          source: 'Open <g id="1">the door</g> now.',
          prefix: 'Por favor',
          tm_matches: false,
        })
      ).json().translation[0];
      assert.ok(tagged.target.startsWith('Por favor'), tagged.target);
      assert.match(tagged.targetWithTags, /<g id="1">[^<]*<\/g>/);
    });
  });
}
