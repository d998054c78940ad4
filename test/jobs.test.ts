// Lilt's Jobs through HTTP on every store, with the field names of Lilt's SDK: a job from uploaded files
// into three languages, its leverage analysis checked against the brute-force oracle, delivery, the zip
// export (translated files and memories), archive, delete — and the refusals.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readZip } from '../src/formats/docx/zip-package.ts';
import { bruteForceSearch } from '../src/matching/oracle.ts';
import { countWords } from '../src/matching/word-count.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';
import { tmxErrors } from './helpers/xmllint.ts';

const NOTES =
  'Open the file. Save the file.\n\nThe file could not be saved.\n\nOpen the file.\n\nPress the red button twice.\n';
const APP_JSON = JSON.stringify({
  greeting: 'Welcome back',
  title: 'Save the file.',
  farewell: 'Thanks for your visit',
});

const MEMORIES = {
  de: [
    ['Open the file.', 'Öffnen Sie die Datei.'],
    ['Save the files.', 'Speichern Sie die Dateien.'],
    ['The file could not be opened.', 'Die Datei konnte nicht geöffnet werden.'],
  ],
  fr: [['Open the file.', 'Ouvrez le fichier.']],
  ja: [['Welcome back', 'おかえりなさい']],
} as const;

type Lang = keyof typeof MEMORIES;
type Api = ReturnType<typeof client>;

for (const target of await storeTargets()) {
  describe(`Lilt jobs on ${target.name}`, () => {
    let ctx: TestContext;
    let api: Api;
    let rival: Api;
    const memory = {} as Record<Lang, number>;
    const files: number[] = [];
    before(async () => {
      ctx = await createContext(target);
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
      for (const [lang, pairs] of Object.entries(MEMORIES) as [
        Lang,
        readonly (readonly [string, string])[],
      ][]) {
        memory[lang] = (
          await api.post('/v2/memories', { name: `TM ${lang}`, srclang: 'en', trglang: lang })
        ).json().id;
        for (const [source, t] of pairs)
          await api.post('/v2/segments', { memory_id: memory[lang], source, target: t });
      }
      for (const [name, body] of [
        ['notes.txt', NOTES],
        ['app.json', APP_JSON],
      ]) {
        const res = await api.upload(`/v2/files?name=${name}`, body);
        assert.equal(res.statusCode, 201, res.body);
        files.push(res.json().id);
      }
    });
    after(() => ctx.close());

    async function createJob(name: string) {
      const res = await api.post('/v2/jobs', {
        name,
        fileIds: files,
        srcLang: 'en',
        srcLocale: 'US',
        due: '2027-01-31T00:00:00Z',
        languagePairs: [
          { trgLang: 'de', trgLocale: 'DE', memoryId: memory.de, pretranslate: true, autoAccept: true },
          { trgLang: 'fr', memoryId: memory.fr, dueDate: '2027-02-15T00:00:00Z', workflowTemplateId: 7 },
          { trgLang: 'ja', memoryId: memory.ja, caseSensitive: true },
        ],
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    }

    async function waitForJob(id: number, until: (job: Record<string, unknown>) => boolean) {
      for (let i = 0; i < 3000; i++) {
        const job = (await api.get(`/v2/jobs/${id}`)).json();
        if (until(job)) return job;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`job ${id} never reached the state`);
    }
    const created = (id: number) => waitForJob(id, (j) => j.creationStatus !== 'PENDING');
    const exported = (id: number) => waitForJob(id, (j) => j.isProcessing !== 1);

    async function download(id: number) {
      const res = await api.get(`/v2/jobs/${id}/download`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/zip');
      return readZip(res.rawPayload, 'download');
    }

    async function segmentsOf(documentId: number) {
      const res = await api.get(`/v2/documents/segments?id=${documentId}&limit=1000`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().segments as { source: string; target: string | null; is_confirmed: boolean }[];
    }

    test('create: a project per pair with a document per file; COMPLETE once imported and pre-translated', async () => {
      const job = await createJob('Launch');
      assert.equal(job.name, 'Launch');
      assert.equal(job.status, 'active');
      assert.equal(job.isProcessing, 0);
      assert.equal(job.due, '2027-01-31T00:00:00.000Z');
      assert.equal(job.deliveredAt, null);
      const done = await created(job.id);
      assert.equal(done.creationStatus, 'COMPLETE', JSON.stringify(done));
      const projects = done.stats.projects as {
        id: number;
        trgLang: string;
        trgLocale: string | null;
        due: string;
        memoryId: number;
      }[];
      assert.deepEqual(
        projects.map((p) => [p.trgLang, p.trgLocale, p.memoryId]),
        [
          ['de', 'DE', memory.de],
          ['fr', null, memory.fr],
          ['ja', null, memory.ja],
        ],
      );
      assert.equal(projects[1].due, '2027-02-15T00:00:00.000Z');
      assert.equal(done.stats.numProjects, 3);
      assert.equal(done.stats.uniqueLanguagePairs, 3);
      // Source words: the scorer's count of every segment of both files, once per pair.
      assert.equal(
        done.stats.sourceWords,
        3 * (countWords(NOTES) + countWords('Welcome back Save the file. Thanks for your visit')),
      );

      // Projects show their job; the pre-translated pair has its exact matches accepted.
      const listed = (await api.get(`/v2/projects?id=${projects[0].id}`)).json()[0];
      assert.equal(listed.job_id, job.id);
      assert.equal(listed.document.length, 2);
      const notes = listed.document.find((d: { name: string }) => d.name === 'notes.txt');
      const segments = await segmentsOf(notes.id);
      assert.deepEqual(
        segments.filter((s) => s.is_confirmed).map((s) => [s.source, s.target]),
        [
          ['Open the file.', 'Öffnen Sie die Datei.'],
          ['Open the file.', 'Öffnen Sie die Datei.'],
        ],
      );
      const fr = (await api.get(`/v2/projects?id=${projects[1].id}`)).json()[0];
      const frNotes = fr.document.find((d: { name: string }) => d.name === 'notes.txt');
      assert.ok((await segmentsOf(frNotes.id)).every((s) => s.target === null || s.target === ''));
    });

    test('auto-accept is off unless a pair asks; autoAcceptScope context confirms context matches only', async () => {
      const notesOf = async (pair: {
        pretranslate?: boolean;
        autoAccept?: boolean;
        autoAcceptScope?: string;
      }) => {
        const res = await api.post('/v2/jobs', {
          name: 'Scopes',
          fileIds: files,
          srcLang: 'en',
          languagePairs: [{ trgLang: 'de', memoryId: memory.de, pretranslate: true, ...pair }],
        });
        assert.equal(res.statusCode, 200, res.body);
        const done = await created(res.json().id);
        const project = (await api.get(`/v2/projects?id=${done.stats.projects[0].id}`)).json()[0];
        return segmentsOf(project.document.find((d: { name: string }) => d.name === 'notes.txt').id);
      };
      for (const pair of [{}, { autoAccept: true, autoAcceptScope: 'context' }]) {
        const segments = await notesOf(pair);
        assert.ok(
          segments.some((s) => s.target === 'Öffnen Sie die Datei.'),
          'pre-translated',
        );
        assert.ok(
          segments.every((s) => !s.is_confirmed),
          JSON.stringify(pair),
        );
      }
    });

    test('stats: exact + fuzzy + new = source words, as the brute-force oracle counts them; bands and repetitions', async () => {
      const job = await created((await createJob('Analysed')).id);
      const res = await api.post(`/v2/jobs/${job.id}/stats`, {});
      assert.equal(res.statusCode, 200, res.body);
      const stats = res.json();
      for (const p of [stats, ...stats.projects]) {
        assert.equal(p.exactWords + p.fuzzyWords + p.newWords, p.sourceWords);
        const b = p.bands;
        assert.equal(
          b.context + b.exact + b.fuzzy95 + b.fuzzy85 + b.fuzzy75 + b.repetitions + b.new,
          p.sourceWords,
        );
      }
      const projects = (
        await api.get(`/v2/projects?id=${stats.projects.map((p: { id: number }) => p.id).join(',')}`)
      ).json();
      for (const p of stats.projects) {
        const project = projects.find((x: { id: number }) => x.id === p.id);
        const entries = (
          await ctx.db.all<{ id: number; source: string; updated_at: number }>(
            'SELECT id, source, updated_at FROM memory_entries WHERE memory_id = ?',
            [project.memory_id],
          )
        ).map((e) => ({ id: e.id, source: e.source, updatedAt: e.updated_at }));
        const expected = { exactWords: 0, fuzzyWords: 0, newWords: 0 };
        for (const d of project.document) {
          for (const s of await segmentsOf(d.id)) {
            const [best] = bruteForceSearch(entries, s.source, { threshold: 75, n: 1 });
            const band = !best ? 'newWords' : best.score === 100 ? 'exactWords' : 'fuzzyWords';
            expected[band] += countWords(s.source);
          }
        }
        assert.deepEqual(
          { exactWords: p.exactWords, fuzzyWords: p.fuzzyWords, newWords: p.newWords },
          expected,
        );
        // "Open the file." and "Save the file." come twice in the job: the second time a repetition.
        assert.equal(p.bands.repetitions, 6);
      }
      const de = stats.projects.find((p: { trgLang: string }) => p.trgLang === 'de');
      assert.ok(de.exactWords > 0 && de.fuzzyWords > 0 && de.newWords > 0, JSON.stringify(de));
      // The job keeps the figures: its stats show them from now on.
      const after = (await api.get(`/v2/jobs/${job.id}`)).json();
      assert.equal(after.stats.exactWords, stats.exactWords);
      assert.equal(after.stats.fuzzyWords, stats.fuzzyWords);
      assert.equal(after.stats.newWords, stats.newWords);
    });

    test('deliver, list by isDelivered, reactivate; export the files and download one folder per language', async () => {
      const job = await created((await createJob('Delivered')).id);
      const delivered = (await api.post(`/v2/jobs/${job.id}/deliver`, {})).json();
      assert.equal(delivered.status, 'delivered');
      assert.ok(Date.parse(delivered.deliveredAt) > 0);
      assert.ok(delivered.stats.projects.every((p: { state: string }) => p.state === 'done'));
      const ids = async (q: string) =>
        ((await api.get(`/v2/jobs?${q}`)).json() as { id: number }[]).map((j) => j.id);
      assert.ok((await ids('isDelivered=true')).includes(job.id));
      assert.ok(!(await ids('isDelivered=false')).includes(job.id));

      assert.equal((await api.get(`/v2/jobs/${job.id}/download`)).statusCode, 404);
      assert.equal(delivered.exportReady, false, 'no zip before the first export');
      const started = await api.get(`/v2/jobs/${job.id}/export?type=files`);
      assert.equal(started.statusCode, 200, started.body);
      const ready = await exported(job.id);
      assert.deepEqual([ready.isProcessing, ready.exportReady], [0, true]);
      const entries = await download(job.id);
      assert.deepEqual(
        entries.map((e) => e.name),
        [
          'de-DE/',
          'de-DE/notes.txt',
          'de-DE/app.json',
          'fr/',
          'fr/notes.txt',
          'fr/app.json',
          'ja/',
          'ja/notes.txt',
          'ja/app.json',
        ],
      );
      const text = (name: string) => entries.find((e) => e.name === name)!.data.toString('utf8');
      assert.equal(
        text('de-DE/notes.txt'),
        // Exact matches accepted, the fuzzy match left as a draft: both merged, the rest in English.
        'Öffnen Sie die Datei. Save the file.\n\nDie Datei konnte nicht geöffnet werden.\n\nÖffnen Sie die Datei.\n\nPress the red button twice.\n',
      );
      assert.equal(text('fr/notes.txt'), NOTES);
      for (const lang of ['de-DE', 'fr', 'ja'])
        assert.deepEqual(Object.keys(JSON.parse(text(`${lang}/app.json`))), [
          'greeting',
          'title',
          'farewell',
        ]);

      const back = (await api.post(`/v2/jobs/${job.id}/reactivate`, {})).json();
      assert.equal(back.status, 'active');
      assert.equal(back.deliveredAt, null);
    });

    test('export of the memories: each pair’s memory as valid TMX in its folder', async () => {
      const job = await created((await createJob('Memories')).id);
      assert.equal((await api.get(`/v2/jobs/${job.id}/export?type=memory`)).statusCode, 200);
      assert.equal((await exported(job.id)).isProcessing, 0);
      const entries = await download(job.id);
      assert.deepEqual(
        entries.map((e) => e.name),
        ['de-DE/', 'de-DE/TM_de.tmx', 'fr/', 'fr/TM_fr.tmx', 'ja/', 'ja/TM_ja.tmx'],
      );
      const tmx = entries.find((e) => e.name === 'ja/TM_ja.tmx')!.data.toString('utf8');
      assert.match(tmx, /おかえりなさい/);
      assert.equal(tmxErrors(tmx), '');
    });

    test('a failed export shows isProcessing -2 and why; the last good export stays downloadable', async () => {
      const job = await created((await createJob('Broken')).id);
      await api.get(`/v2/jobs/${job.id}/export?type=files`);
      await exported(job.id);
      const good = (await download(job.id)).length;
      // The stored original of a document with a translation is damaged: merging it cannot work.
      const [doc] = (await api.get(`/v2/projects?id=${job.stats.projects[0].id}`))
        .json()[0]
        .document.filter((d: { name: string }) => d.name === 'app.json');
      await ctx.db.run("UPDATE document_segments SET target = 'Willkommen zurück' WHERE document_id = ?", [
        doc.id,
      ]);
      const { changes } = await ctx.db.run('UPDATE document_files SET data = ? WHERE document_id = ?', [
        Buffer.from('{"broken'),
        doc.id,
      ]);
      assert.equal(changes, 1);
      const again = await api.get(`/v2/jobs/${job.id}/export?type=files`);
      assert.equal(again.json().isProcessing, 1, again.body);
      const failed = await exported(job.id);
      assert.equal(failed.isProcessing, -2, JSON.stringify(failed));
      assert.match(
        failed.processingErrorMsg,
        /^de-DE\/app\.json: JSON: unterminated string at line 1, column 2/,
      );
      assert.equal((await download(job.id)).length, good);
    });

    test('an export holding a confirmed target whose placeholders would not run fails naming the file', async () => {
      const job = await created((await createJob('Placeholders')).id);
      const [doc] = (await api.get(`/v2/projects?id=${job.stats.projects[0].id}`))
        .json()[0]
        .document.filter((d: { name: string }) => d.name === 'app.json');
      // The catalog's greeting interpolates {{name}}; its confirmed translation lost it.
      await ctx.db.run('UPDATE document_files SET data = ? WHERE document_id = ?', [
        Buffer.from(APP_JSON.replace('Welcome back', 'Welcome back, {{name}}')),
        doc.id,
      ]);
      await ctx.db.run(
        "UPDATE document_segments SET target = 'Willkommen zurück', is_confirmed = 1, status = 'confirmed' WHERE document_id = ? AND unit_index = 0",
        [doc.id],
      );
      await api.get(`/v2/jobs/${job.id}/export?type=files`);
      const failed = await exported(job.id);
      assert.equal(failed.isProcessing, -2, JSON.stringify(failed));
      assert.match(
        failed.processingErrorMsg,
        /^de-DE\/app\.json: Document \d+ \(app\.json\) cannot be exported in its format: the placeholders of confirmed segment 1 would not run \(Placeholder \{\{name\}\} of the source is missing\)/,
      );
    });

    test('archive, update, delete: projects and documents go with the job; its memory can then be deleted', async () => {
      const fresh = (
        await api.post('/v2/memories', { name: 'Only here', srclang: 'en', trglang: 'it' })
      ).json().id;
      const res = await api.post('/v2/jobs', {
        name: 'Short-lived',
        fileIds: [files[0]],
        srcLang: 'en',
        languagePairs: [{ trgLang: 'it', memoryId: fresh }],
      });
      const job = await created(res.json().id);
      const archived = (await api.post(`/v2/jobs/${job.id}/archive`, {})).json();
      assert.equal(archived.status, 'archived');
      assert.ok(archived.stats.projects.every((p: { isArchived: boolean }) => p.isArchived));
      assert.ok(
        ((await api.get('/v2/jobs?isArchived=true')).json() as { id: number }[]).some((j) => j.id === job.id),
      );
      assert.equal((await api.post(`/v2/jobs/${job.id}/unarchive`, {})).json().status, 'active');
      const renamed = (
        await api.put(`/v2/jobs/${job.id}`, { name: 'Renamed', dueDate: '2027-03-01', isProcessing: 1 })
      ).json();
      assert.equal(renamed.name, 'Renamed');
      assert.equal(renamed.due, '2027-03-01T00:00:00.000Z');
      assert.equal(renamed.isProcessing, 0, JSON.stringify(renamed));

      assert.equal((await api.delete(`/v2/memories?id=${fresh}`)).statusCode, 409);
      const projectId = job.stats.projects[0].id;
      assert.deepEqual((await api.delete(`/v2/jobs/${job.id}`)).json(), { id: job.id, deleted: true });
      assert.equal((await api.get(`/v2/jobs/${job.id}`)).statusCode, 404);
      assert.equal((await api.get(`/v2/projects?id=${projectId}`)).statusCode, 404);
      assert.equal((await api.delete(`/v2/memories?id=${fresh}`)).statusCode, 200);
    });

    test('dueDate as the Node SDK sends it: epoch milliseconds (number or digits) or ISO; an implausible date is a 400 naming it', async () => {
      const job = await created((await createJob('Dates')).id);
      const put = (dueDate: unknown) => api.put(`/v2/jobs/${job.id}`, { dueDate });
      const ms = Date.UTC(2031, 5, 30, 12, 0, 0);
      for (const value of [ms, String(ms), '2031-06-30T12:00:00Z']) {
        const res = await put(value);
        assert.equal(res.statusCode, 200, `${value}: ${res.body}`);
        assert.equal(res.json().due, '2031-06-30T12:00:00.000Z');
      }
      // 2031 read as milliseconds is 1970; 99999999999999 is the year 5138: neither is a due date.
      for (const value of [
        2031,
        '2031',
        99_999_999_999_999,
        '1999-12-31T23:59:59Z',
        '2100-01-01T00:00:01Z',
      ]) {
        const res = await put(value);
        assert.equal(res.statusCode, 400, `${value}: ${res.body}`);
        assert.match(res.json().message, /dueDate/);
      }
      assert.equal((await api.get(`/v2/jobs/${job.id}`)).json().due, '2031-06-30T12:00:00.000Z');
      const pairs = await api.post('/v2/jobs', {
        name: 'Numbers',
        fileIds: files,
        srcLang: 'en',
        due: ms,
        languagePairs: [{ trgLang: 'de', memoryId: memory.de, dueDate: 2031 }],
      });
      assert.equal(pairs.statusCode, 400, pairs.body);
      assert.match(pairs.json().message, /languagePairs\.0\.dueDate/);
      // No due date, as the web application sends it: null is no date (not 0, read as 1970).
      const none = await api.post('/v2/jobs', {
        name: 'No date',
        fileIds: files,
        srcLang: 'en',
        due: null,
        languagePairs: [{ trgLang: 'de', memoryId: memory.de, dueDate: null }],
      });
      assert.equal(none.statusCode, 200, none.body);
      assert.equal(none.json().due, null);
      assert.equal((await put(null)).statusCode, 200);
      assert.equal((await api.get(`/v2/jobs/${job.id}`)).json().due, null);
    });

    test("locales are BCP 47 tags or Lilt's regions, checked on input; a locale never becomes a path", async () => {
      const job = (locale: string, srcLocale = 'US') =>
        api.post('/v2/jobs', {
          name: 'Locales',
          fileIds: files,
          srcLang: 'en',
          srcLocale,
          languagePairs: [{ trgLang: 'de', memoryId: memory.de, trgLocale: locale }],
        });
      for (const bad of ['../../evil', 'de/AT', 'de-', 'x y', '..', 'de-DE-\u0000']) {
        const res = await job(bad);
        assert.equal(res.statusCode, 400, `${bad}: ${res.body}`);
        assert.match(res.json().message, /languagePairs\.0\.trgLocale/);
      }
      const src = await job('DE', '../US');
      assert.equal(src.statusCode, 400);
      assert.match(src.json().message, /srcLocale/);
      for (const good of ['DE', 'de-AT', 'pt_BR', '419', 'zh-Hant-TW']) {
        const res = await job(good);
        assert.equal(res.statusCode, 200, `${good}: ${res.body}`);
      }
      const memoryRes = await api.post('/v2/memories', {
        name: 'Evil',
        srclang: 'en',
        trglang: 'de',
        trglocale: '../../evil',
      });
      assert.equal(memoryRes.statusCode, 400);
      assert.match(memoryRes.json().message, /trglocale/);
    });

    test("the zip's entry names: a name given twice, in another case, or in NFC and NFD is an entry each", async () => {
      // A Mac sends Café.txt decomposed (NFD), Windows composed (NFC): two zip entries that read as one name,
      // which an unzip on a normalizing file system (APFS, HFS+) writes over each other.
      const names = ['Caf\u00e9.txt', 'Cafe\u0301.txt', 'CAF\u00c9.txt', 'Caf\u00e9.txt', 'cafe\u0301.TXT'];
      const fileIds: number[] = [];
      for (const [i, name] of names.entries()) {
        const res = await api.upload(`/v2/files?name=${encodeURIComponent(name)}`, `File number ${i}.\n`);
        assert.equal(res.statusCode, 201, res.body);
        fileIds.push(res.json().id);
      }
      const res = await api.post('/v2/jobs', {
        name: 'Names',
        fileIds,
        srcLang: 'en',
        languagePairs: [{ trgLang: 'fr', memoryId: memory.fr }],
      });
      assert.equal(res.statusCode, 200, res.body);
      const job = await created(res.json().id);
      assert.equal((await api.get(`/v2/jobs/${job.id}/export?type=files`)).statusCode, 200);
      assert.equal((await exported(job.id)).isProcessing, 0);
      const entries = (await download(job.id)).filter((e) => !e.name.endsWith('/'));
      assert.equal(entries.length, names.length);
      const folded = entries.map((e) => e.name.normalize('NFC').toLowerCase());
      assert.equal(new Set(folded).size, names.length, entries.map((e) => e.name).join(' | '));
      for (const e of entries) assert.match(e.name, /^fr\/[^/\\]+$/, e.name);
      // Each file's own text under a name of its own.
      assert.deepEqual(
        entries.map((e) => e.data.toString('utf8')).sort(),
        names.map((_, i) => `File number ${i}.\n`),
      );
    });

    test('refusals: another organization sees 404; bad parameters are named; nothing is left of a refused job', async () => {
      const job = await created((await createJob('Ours')).id);
      for (const res of [
        await rival.get(`/v2/jobs/${job.id}`),
        await rival.put(`/v2/jobs/${job.id}`, { name: 'x' }),
        await rival.post(`/v2/jobs/${job.id}/deliver`, {}),
        await rival.post(`/v2/jobs/${job.id}/archive`, {}),
        await rival.post(`/v2/jobs/${job.id}/stats`, {}),
        await rival.get(`/v2/jobs/${job.id}/export?type=files`),
        await rival.get(`/v2/jobs/${job.id}/download`),
        await rival.delete(`/v2/jobs/${job.id}`),
      ]) {
        assert.equal(res.statusCode, 404, res.body);
      }
      assert.deepEqual((await rival.get('/v2/jobs')).json(), []);
      // A rival cannot build a job from our files or on our memories.
      const theirs = await rival.post('/v2/jobs', {
        name: 'Stolen',
        fileIds: [files[0]],
        srcLang: 'en',
        languagePairs: [{ trgLang: 'de', memoryId: memory.de }],
      });
      assert.equal(theirs.statusCode, 404);

      const before = (await api.get('/v2/jobs')).json().length;
      const projectsBefore = (await api.get('/v2/projects')).json().length;
      const bad = async (body: Record<string, unknown>, status: number, pattern: RegExp) => {
        const res = await api.post('/v2/jobs', {
          name: 'Bad',
          fileIds: files,
          srcLang: 'en',
          languagePairs: [{ trgLang: 'de', memoryId: memory.de }],
          ...body,
        });
        assert.equal(res.statusCode, status, res.body);
        assert.match(res.json().message, pattern);
      };
      await bad(
        {
          languagePairs: [
            { trgLang: 'de', memoryId: memory.de },
            { trgLang: 'fr', memoryId: memory.de },
          ],
        },
        400,
        /languagePairs\.1\.memoryId/,
      );
      await bad({ fileIds: [files[0], 999_999] }, 404, /File/);
      await bad({ due: 'next tuesday' }, 400, /due/);
      await bad({ srcLang: 'xx-nope' }, 400, /srcLang/);
      await bad({ languagePairs: [] }, 400, /languagePairs/);
      assert.equal((await api.get('/v2/jobs')).json().length, before);
      assert.equal((await api.get('/v2/projects')).json().length, projectsBefore);

      const type = await api.get(`/v2/jobs/${job.id}/export?type=pdf`);
      assert.equal(type.statusCode, 400);
      assert.match(type.json().message, /type/);
      assert.equal((await api.get('/v2/jobs/abc')).statusCode, 400);
    });
  });
}
