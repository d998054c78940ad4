// Find and replace kept within bounds, through HTTP on every store (issue 24): a replacement that would make
// targets too long is refused before it is built, with the memory it takes bounded; answers list at most 200
// changes; a replacement that breaks a segment's tags skips that segment; regular expressions run on a small
// pool, a few at once per user (429 beyond), and one that backtracks without end is stopped (REGEX_TIMEOUT).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

type Api = ReturnType<typeof client>;

/** An XLIFF 1.2 file of these sources and targets (tagged text is XLIFF inline markup). */
function xliffOf(sources: readonly string[], targets: readonly string[]): string {
  const units = sources
    .map(
      (source, i) =>
        `<trans-unit id="u${i}"><source>${source}</source><target state="translated">${targets[i]}</target></trans-unit>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" target-language="de" datatype="plaintext" original="f.txt"><body>${units}</body></file></xliff>`;
}

for (const target of await storeTargets()) {
  describe(`find and replace limits on ${target.name}`, () => {
    let ctx: TestContext;
    let api: Api;
    let bob: Api;
    let projectId: number;
    before(async () => {
      ctx = await createContext(target, { TESSERA_REGEX_TIMEOUT_MS: '1000' });
      api = client(ctx.app, ctx.adminKey);
      bob = client(
        ctx.app,
        await userKey(ctx, { username: 'bob', password: 'bob-password', role: 'member' }),
      );
      const memoryId = (await api.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json()
        .id;
      projectId = (await api.post('/v2/projects', { name: 'Site', memory_id: memoryId })).json().id;
    });
    after(() => ctx.close());

    async function xliffDocument(sources: readonly string[], targets: readonly string[]) {
      const id = await api.uploadDocument(projectId, 'doc.xlf', xliffOf(sources, targets));
      const page = await api.get(`/v2/documents/segments?id=${id}&limit=1000`);
      return { id, segments: page.json().segments as { id: number; target: string }[] };
    }

    test('a replacement making targets too long is refused naming the segments, in bounded memory', async () => {
      const count = 3000;
      // 25 "e"s a target: with 5,000 characters for each, the replace would make 375 million characters.
      const doc = await xliffDocument(
        Array.from({ length: count }, (_, i) => `Sentence ${i} of the big file.`),
        Array.from({ length: count }, (_, i) => `${'Gehe weiter, bitte sehr. '.repeat(5)}${i}`),
      );
      const rssBefore = process.memoryUsage().rss;
      const body = { id: doc.id, find: 'e', replace: 'x'.repeat(5000) };
      for (const dryRun of [true, false]) {
        const res = await bob.post('/v2/documents/replace', { ...body, dry_run: dryRun });
        assert.equal(res.statusCode, 400, res.body.slice(0, 300));
        assert.equal(res.json().code, 'BAD_PARAMETER');
        assert.match(res.json().message, /"replace"/);
        assert.match(res.json().message, new RegExp(`segments? ${doc.segments[0].id}\\b`));
        assert.match(res.json().message, /longer than 20,000 characters/);
      }
      const grewMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
      assert.ok(grewMb < 300, `RSS grew by ${grewMb.toFixed(0)} MB`);
      // Nothing was written, and the server serves on.
      assert.equal(
        (await api.get(`/v2/segments?id=${doc.segments[0].id}`)).json().target,
        doc.segments[0].target,
      );
      assert.equal((await api.get('/healthz')).statusCode, 200);
      // A large preview answers the first 200 changes and the count.
      const preview = await bob.post('/v2/documents/replace', {
        id: doc.id,
        find: 'bitte',
        replace: 'b.',
        dry_run: true,
      });
      assert.equal(preview.statusCode, 200, preview.body.slice(0, 300));
      assert.equal(preview.json().changed, count);
      assert.equal(preview.json().changes.length, 200);
      assert.equal(preview.json().truncated, true);
      assert.equal(preview.json().changes[0].segment_id, doc.segments[0].id);
      // Applied, then undone, over the whole document.
      const applied = await bob.post('/v2/documents/replace', { id: doc.id, find: 'bitte', replace: 'b.' });
      assert.equal(applied.statusCode, 200, applied.body.slice(0, 300));
      assert.deepEqual([applied.json().changed, applied.json().changes.length], [count, 200]);
      const last = doc.segments.at(-1)!;
      assert.match((await api.get(`/v2/segments?id=${last.id}`)).json().target, /b\. sehr/);
      const undone = await bob.post('/v2/documents/replace/undo', {
        id: doc.id,
        batch_id: applied.json().batch_id,
      });
      assert.deepEqual(undone.json(), { batch_id: applied.json().batch_id, restored: count });
      assert.equal((await api.get(`/v2/segments?id=${last.id}`)).json().target, last.target);
    });

    test('a regular expression whose replacement repeats the match ($&) is refused as too long, never built', async () => {
      // A paragraph of a million characters (sources are the file's, of any length) and one that is short.
      const up = await api.upload('/v2/documents/files', `${'b'.repeat(1_000_000)}\n\nShort one.\n`, {
        'lilt-api': JSON.stringify({ name: 'long.txt', project_id: projectId }),
      });
      assert.equal(up.statusCode, 200, up.body);
      const id = up.json().id as number;
      for (let i = 0; (await api.get(`/v2/documents?id=${id}`)).json().import_in_progress; i++) {
        assert.ok(i < 3000, 'import never ended');
        await new Promise((r) => setTimeout(r, 20));
      }
      const [long, short] = (await api.get(`/v2/documents/segments?id=${id}`)).json().segments;
      const rssBefore = process.memoryUsage().rss;
      // 2,500 copies of the match: 2.5 billion characters for the long source, 25,000 for the short one.
      const res = await bob.post('/v2/documents/replace', {
        id,
        find: '.+',
        replace: '$&'.repeat(2500),
        regex: true,
        field: 'source',
        dry_run: true,
      });
      const grewMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
      assert.equal(res.statusCode, 400, res.body.slice(0, 300));
      assert.equal(res.json().code, 'BAD_PARAMETER');
      assert.match(res.json().message, /"replace"/);
      assert.match(res.json().message, new RegExp(`segments ${long.id}, ${short.id}\\b`));
      assert.match(res.json().message, /longer than 20,000 characters/);
      assert.ok(grewMb < 300, `RSS grew by ${grewMb.toFixed(0)} MB`);
      // Within the bound, the match is repeated as asked.
      const fine = await bob.post('/v2/documents/replace', {
        id,
        find: 'Short (one)',
        replace: '$1 $&',
        regex: true,
        field: 'source',
        dry_run: true,
      });
      assert.equal(fine.statusCode, 200, fine.body.slice(0, 300));
      assert.deepEqual(
        fine.json().changes.map((c: { segment_id: number; after: string }) => [c.segment_id, c.after]),
        [[short.id, 'one Short one.']],
      );
    });

    test('a preview of long targets lists the first changes within a bound of characters', async () => {
      const count = 60;
      const doc = await xliffDocument(
        Array.from({ length: count }, (_, i) => `Long sentence ${i}.`),
        Array.from({ length: count }, (_, i) => `${'Wort '.repeat(3800)}${i}`),
      );
      const res = await api.post('/v2/documents/replace', {
        id: doc.id,
        find: 'Wort',
        replace: 'Satz',
        dry_run: true,
      });
      assert.equal(res.statusCode, 200);
      const answer = res.json();
      assert.equal(answer.changed, count);
      assert.equal(answer.truncated, true);
      assert.ok(answer.changes.length > 0 && answer.changes.length < count, String(answer.changes.length));
      assert.deepEqual(
        answer.changes.map((c: { segment_id: number }) => c.segment_id),
        doc.segments.slice(0, answer.changes.length).map((s) => s.id),
      );
      assert.ok(res.body.length < 2_500_000, `${res.body.length} bytes`);
    });

    test('a segment edited while a replace runs keeps the edit and is reported; the rest is one batch', async () => {
      const count = 6000;
      const doc = await xliffDocument(
        Array.from({ length: count }, (_, i) => `Sentence ${i} of the file.`),
        Array.from({ length: count }, (_, i) => `Satz ${i} der Datei.`),
      );
      const first = doc.segments[0];
      // A segment changed within the current second takes its next edit at the next second (updated_at is
      // the conflict token): start once the import's second is over, so that the edit lands mid-replace.
      await new Promise((r) => setTimeout(r, 1010 - (Date.now() % 1000)));
      const staged = () =>
        ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM replace_batches WHERE applied_at IS NULL');
      const replacing = bob.post('/v2/documents/replace', { id: doc.id, find: 'Datei', replace: 'Akte' });
      // Once the replace has staged its first page (the first segment read), the translator edits it.
      for (let i = 0; Number((await staged())?.n ?? 0) === 0; i++) {
        assert.ok(i < 10_000, 'the replace never staged');
        await new Promise((r) => setImmediate(r));
      }
      const edit = await api.put('/v2/segments', { id: first.id, target: 'Satz 0 der Mappe.' });
      assert.equal(edit.statusCode, 200, edit.body);
      const res = await replacing;
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      const answer = res.json();
      assert.equal(answer.changed, count - 1);
      assert.equal(answer.skipped_count, 1);
      assert.deepEqual([answer.skipped[0].segment_id, answer.skipped[0].position], [first.id, 0]);
      assert.match(answer.skipped[0].reason, /changed while the replace ran/);
      assert.ok(!answer.changes.some((c: { segment_id: number }) => c.segment_id === first.id));
      assert.equal((await api.get(`/v2/segments?id=${first.id}`)).json().target, 'Satz 0 der Mappe.');
      const last = doc.segments.at(-1)!;
      assert.equal(
        (await api.get(`/v2/segments?id=${last.id}`)).json().target,
        `Satz ${doc.segments.length - 1} der Akte.`,
      );
      // Nothing staged is left behind, and the batch undoes without the edited segment.
      assert.equal(Number((await staged())?.n), 0);
      const undone = await bob.post('/v2/documents/replace/undo', { id: doc.id, batch_id: answer.batch_id });
      assert.deepEqual(undone.json(), { batch_id: answer.batch_id, restored: count - 1 });
      assert.equal((await api.get(`/v2/segments?id=${first.id}`)).json().target, 'Satz 0 der Mappe.');
      assert.equal(
        (await api.get(`/v2/segments?id=${last.id}`)).json().target,
        `Satz ${doc.segments.length - 1} der Datei.`,
      );
    });

    test('a replacement that would break tags skips the segment and says why; it is never written', async () => {
      const doc = await xliffDocument(
        ['Open <x id="1"/> the file.', 'Close the file.', 'Print <g id="2">the</g> file.'],
        ['Öffne <x id="1"/> die Datei.', 'Schließe die Datei.', 'Drucke <g id="2">die</g> Datei.'],
      );
      const [open, close, print] = doc.segments;
      const cases = [
        // A tag the source does not have (the export would drop it, XLIFF would pass it on).
        { replace: '<ph id="9">&lt;img src=x&gt;</ph>Datei', id: open.id, reason: /not in the source/ },
        // A tag left open.
        { replace: '<g id="2">Datei', id: print.id, reason: /opened twice|not closed/ },
      ];
      for (const c of cases) {
        for (const dryRun of [true, false]) {
          const res = await api.post('/v2/documents/replace', {
            id: doc.id,
            find: 'Datei',
            replace: c.replace,
            dry_run: dryRun,
          });
          assert.equal(res.statusCode, 200, res.body);
          const answer = res.json();
          const skipped = answer.skipped.map((s: { segment_id: number }) => s.segment_id);
          assert.ok(skipped.includes(c.id), JSON.stringify(answer.skipped));
          assert.match(
            answer.skipped.find((s: { segment_id: number }) => s.segment_id === c.id).reason,
            c.reason,
          );
          assert.equal(answer.skipped_count, answer.skipped.length);
          assert.ok(!answer.changes.some((ch: { segment_id: number }) => skipped.includes(ch.segment_id)));
          if (!dryRun && answer.batch_id !== null) {
            await api.post('/v2/documents/replace/undo', { id: doc.id, batch_id: answer.batch_id });
          }
        }
      }
      // Every segment still holds its own tags.
      assert.equal(
        (await api.get(`/v2/segments?id=${open.id}`)).json().target,
        'Öffne <x id="1"/> die Datei.',
      );
      assert.equal(
        (await api.get(`/v2/segments?id=${print.id}`)).json().target,
        'Drucke <g id="2">die</g> Datei.',
      );
      assert.equal((await api.get(`/v2/segments?id=${close.id}`)).json().target, 'Schließe die Datei.');
      // A tag of the segment's own source is written there, and skips the segments without it.
      const fine = await api.post('/v2/documents/replace', {
        id: doc.id,
        find: 'Datei',
        replace: '<x id="1"/>Datei',
      });
      assert.deepEqual(
        [fine.json().changed, fine.json().skipped.map((s: { segment_id: number }) => s.segment_id)],
        [1, [close.id, print.id]],
      );
      assert.equal(
        (await api.get(`/v2/segments?id=${open.id}`)).json().target,
        'Öffne <x id="1"/> die <x id="1"/>Datei.',
      );
    });

    test('regular expressions: a few at once per user (429 beyond), a runaway one stopped, the server answering', async () => {
      const doc = await xliffDocument(['Many a.', 'Other.'], [`${'a'.repeat(40)}!`, 'Andere.']);
      const runaway = { id: doc.id, find: '(a+)+$', replace: 'x', regex: true, dry_run: true };
      const answers = Array.from({ length: 12 }, () => bob.post('/v2/documents/replace', runaway));
      // Served while the expressions run.
      const health = await api.get('/healthz');
      assert.equal(health.statusCode, 200);
      const settled = await Promise.all(answers);
      const busy = settled.filter((r) => r.statusCode === 429);
      assert.ok(busy.length >= 10, settled.map((r) => r.statusCode).join(' '));
      for (const r of busy) {
        assert.equal(r.json().code, 'TOO_MANY_REPLACES');
        assert.ok(Number(r.headers['retry-after']) > 0);
      }
      const stopped = settled.filter((r) => r.statusCode !== 429);
      assert.ok(stopped.length > 0);
      for (const r of stopped) {
        assert.equal(r.statusCode, 400, r.body);
        assert.equal(r.json().code, 'REGEX_TIMEOUT');
        assert.match(r.json().message, /"find"/);
      }
      // Another user is not held by bob's replaces; and once they ended, bob replaces again.
      const fine = { id: doc.id, find: 'A(n)dere', replace: 'B$1', regex: true, dry_run: true };
      const res = await bob.post('/v2/documents/replace', fine);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().changes[0].after, 'Bn.');
      assert.equal((await api.post('/v2/documents/replace', fine)).statusCode, 200);
    });

    test('runaway regular expressions of several users never turn away a plain-text replace', async () => {
      const doc = await xliffDocument(['Many a.', 'Other.'], [`${'a'.repeat(40)}!`, 'Andere.']);
      const runaway = { id: doc.id, find: '(a+)+$', replace: 'x', regex: true, dry_run: true };
      const users: Api[] = [];
      for (const name of ['carol', 'dave', 'erin', 'frank', 'grace']) {
        users.push(
          client(
            ctx.app,
            await userKey(ctx, { username: name, password: `${name}-password`, role: 'member' }),
          ),
        );
      }
      // Two each: the users' own limits admit all ten, which would fill the server's eight slots; its
      // regular-expression slots (two per pool thread, at most two threads) admit four at most.
      const answers = users.flatMap((u) => [
        u.post('/v2/documents/replace', runaway),
        u.post('/v2/documents/replace', runaway),
      ]);
      await new Promise((r) => setTimeout(r, 100));
      const plain = await bob.post('/v2/documents/replace', {
        id: doc.id,
        find: 'Andere',
        replace: 'Weitere',
        dry_run: true,
      });
      assert.equal(plain.statusCode, 200, plain.body);
      assert.equal(plain.json().changes[0].after, 'Weitere.');
      const regex = await bob.post('/v2/documents/replace', {
        id: doc.id,
        find: 'A(n)dere',
        replace: 'B$1',
        regex: true,
        dry_run: true,
      });
      assert.equal(regex.statusCode, 429, regex.body);
      assert.match(regex.json().message, /regular expression/);
      const settled = await Promise.all(answers);
      assert.ok(
        settled.some((r) => r.statusCode === 429),
        settled.map((r) => r.statusCode).join(' '),
      );
      for (const r of settled.filter((r) => r.statusCode !== 429))
        assert.equal(r.json().code, 'REGEX_TIMEOUT');
    });
  });
}
