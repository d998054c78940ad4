// Repetitions through HTTP on every store (issue 25): segments of a job's documents with the same source are
// marked and counted, confirming one fills the unconfirmed others (once in the memory), a repetition confirmed
// differently keeps its target, the project's setting turns it off, withdrawing the confirmation puts the
// filled ones back, history records both, and no other organization sees or is touched by any of it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

type Api = ReturnType<typeof client>;

interface Seg {
  id: number;
  document_id: number;
  source: string;
  target: string | null;
  status: string;
  is_confirmed: boolean;
  updated_at: number;
  position: number;
  repetition?: { count: number; first: boolean } | null;
}

/** Two files of one job: ten "Exiting." between them, each file with a line of its own. */
const FILE_A = ['Exiting.', 'Reading the configuration.', 'Exiting.', 'Exiting.', 'Exiting.', 'Exiting.'];
const FILE_B = ['Exiting.', 'Exiting.', 'Exiting.', 'Exiting.', 'Exiting.', 'Done.'];
const text = (lines: readonly string[]) => `${lines.join('\n\n')}\n`;

for (const target of await storeTargets()) {
  describe(`repetitions on ${target.name}`, () => {
    let ctx: TestContext;
    let api: Api;
    let rival: Api;
    let memoryId: number;
    let files: number[];
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
      memoryId = (await api.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json().id;
      files = [];
      for (const [name, lines] of [
        ['a.txt', FILE_A],
        ['b.txt', FILE_B],
      ] as const) {
        const res = await api.upload(`/v2/files?name=${name}`, text(lines));
        assert.equal(res.statusCode, 201, res.body);
        files.push(res.json().id);
      }
    });
    after(() => ctx.close());

    /** A job of both files into German; answers its project and both documents' segments. */
    async function job(name: string) {
      const res = await api.post('/v2/jobs', {
        name,
        fileIds: files,
        srcLang: 'en',
        languagePairs: [{ trgLang: 'de', memoryId }],
      });
      assert.equal(res.statusCode, 200, res.body);
      const jobId = res.json().id as number;
      for (let i = 0; ; i++) {
        const state = (await api.get(`/v2/jobs/${jobId}`)).json();
        if (state.creationStatus !== 'PENDING') break;
        assert.ok(i < 3000, 'job never created');
        await new Promise((r) => setTimeout(r, 20));
      }
      const project = (await api.get('/v2/projects'))
        .json()
        .find((p: { job_id: number }) => p.job_id === jobId);
      const [a, b] = [...project.document].sort((x: { id: number }, y: { id: number }) => x.id - y.id);
      return { projectId: project.id as number, a: a.id as number, b: b.id as number };
    }

    async function segmentsOf(documentId: number, query = ''): Promise<Seg[]> {
      const res = await api.get(`/v2/documents/segments?id=${documentId}&limit=1000${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().segments;
    }

    const exiting = async (j: { a: number; b: number }) =>
      [...(await segmentsOf(j.a)), ...(await segmentsOf(j.b))].filter((s) => s.source === 'Exiting.');

    async function history(id: number) {
      const res = await api.get(`/v2/segments/history?id=${id}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().versions as {
        version: number;
        target: string | null;
        status: string;
        user: string;
        origin: string;
      }[];
    }

    test('marked and counted: how many share the source, the first of them, the filter and its count', async () => {
      const j = await job('Marks');
      // Rows written before repetitions were kept have no hash: the first read fills it.
      await ctx.db.run('UPDATE document_segments SET source_hash = NULL');
      const page = (await api.get(`/v2/documents/segments?id=${j.a}&limit=1000`)).json();
      // The document's own repetitions: its five "Exiting."; Lilt's fields are all still there.
      assert.equal(page.repetitions, 5);
      const [first, reading, ...rest] = page.segments as Seg[];
      assert.deepEqual(first.repetition, { count: 10, first: true });
      assert.equal(reading.repetition, null);
      for (const s of rest) assert.deepEqual(s.repetition, { count: 10, first: false });
      for (const field of ['id', 'source', 'target', 'srclang', 'trglang', 'is_confirmed', 'is_reviewed']) {
        assert.ok(field in first, field);
      }
      // Across the job's documents: the second file's are repetitions of the first's.
      const other = await segmentsOf(j.b);
      assert.deepEqual(
        other.map((s) => s.repetition),
        [...Array(5).fill({ count: 10, first: false }), null],
      );
      // The filter keeps the repetitions only, first occurrence included.
      const filtered = (await api.get(`/v2/documents/segments?id=${j.b}&repeated=true`)).json();
      assert.equal(filtered.total, 5);
      assert.ok(filtered.segments.every((s: Seg) => s.source === 'Exiting.'));
      assert.equal((await api.get(`/v2/documents/segments?id=${j.a}&repeated=false`)).json().total, 6);
      const bad = await api.get(`/v2/documents/segments?id=${j.a}&repeated=often`);
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /repeated/);
      // A source changed in place (a join, a split) is a repetition of nothing until read again.
      await ctx.db.run("UPDATE document_segments SET source = 'Exiting now.' WHERE id = ?", [other[4].id]);
      const changed = await segmentsOf(j.b);
      assert.deepEqual(changed[4].repetition, null);
      assert.deepEqual(changed[0].repetition, { count: 9, first: false });
      // Lilt's document with its segments says the same.
      const whole = (await api.get(`/v2/documents?id=${j.a}&with_segments=true`)).json();
      assert.deepEqual(whole.segments[0].repetition, { count: 9, first: true });
      // One segment by id says the same.
      const one = (await api.get(`/v2/segments?id=${other[5].id}`)).json();
      assert.equal(one.repetition, null);
      assert.deepEqual((await api.get(`/v2/segments?id=${other[0].id}`)).json().repetition, {
        count: 9,
        first: false,
      });
    });

    test('confirm one: the nine others are filled and confirmed, each with a propagated version; one memory entry', async () => {
      const j = await job('Fill');
      const entriesBefore = (await api.get(`/v2/memories?id=${memoryId}`)).json()[0].num_segments as number;
      const all = await exiting(j);
      assert.equal(all.length, 10);
      const origin = all[7];
      const res = await api.put('/v2/segments', {
        id: origin.id,
        target: 'Programmende.',
        is_confirmed: true,
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'confirmed');
      const after = await exiting(j);
      assert.deepEqual(
        after.map((s) => [s.target, s.status]),
        Array(10).fill(['Programmende.', 'confirmed']),
      );
      // The others' lines are untouched.
      assert.equal((await segmentsOf(j.a))[1].target, null);
      // History: who and how, for every filled row.
      for (const s of after.filter((s) => s.id !== origin.id)) {
        const [latest] = await history(s.id);
        assert.deepEqual(
          [latest.origin, latest.user, latest.status, latest.target],
          ['propagated', 'admin', 'confirmed', 'Programmende.'],
        );
      }
      assert.equal((await history(origin.id))[0].origin, 'confirm');
      // One memory entry, not ten.
      const entriesAfter = (await api.get(`/v2/memories?id=${memoryId}`)).json()[0].num_segments as number;
      assert.equal(entriesAfter - entriesBefore, 1);
    });

    test('a repetition confirmed differently before keeps its own target; a draft is filled', async () => {
      const j = await job('Keep');
      const all = await exiting(j);
      // Confirmed before, while the project did not propagate (else this one would fill the rest).
      await api.put('/v2/projects', { id: j.projectId, propagate_repetitions: false });
      await api.put('/v2/segments', { id: all[2].id, target: 'Wird beendet.', is_confirmed: true });
      await api.put('/v2/segments', { id: all[3].id, target: 'Entwurf' });
      await api.put('/v2/projects', { id: j.projectId, propagate_repetitions: true });
      const res = await api.put('/v2/segments', {
        id: all[0].id,
        target: 'Programmende.',
        is_confirmed: true,
      });
      assert.equal(res.statusCode, 200, res.body);
      const after = await exiting(j);
      assert.deepEqual(after[2].target, 'Wird beendet.');
      assert.equal((await history(all[2].id))[0].origin, 'confirm');
      assert.deepEqual(
        after.filter((_, i) => i !== 2).map((s) => [s.target, s.status]),
        Array(9).fill(['Programmende.', 'confirmed']),
      );
    });

    test('the project setting turns it off (Tessera extension on the Project resource)', async () => {
      const j = await job('Off');
      const project = (await api.get(`/v2/projects?id=${j.projectId}`)).json()[0];
      assert.equal(project.propagate_repetitions, true);
      const off = await api.put('/v2/projects', { id: j.projectId, propagate_repetitions: false });
      assert.equal(off.statusCode, 200, off.body);
      assert.equal(off.json().propagate_repetitions, false);
      const all = await exiting(j);
      await api.put('/v2/segments', { id: all[0].id, target: 'Programmende.', is_confirmed: true });
      const after = await exiting(j);
      assert.equal(after[0].status, 'confirmed');
      assert.ok(after.slice(1).every((s) => s.target === null && s.status === 'new'));
      // Made off from the start.
      const made = await api.post('/v2/projects', {
        name: 'Alone',
        memory_id: memoryId,
        propagate_repetitions: false,
      });
      assert.equal(made.json().propagate_repetitions, false);
      const bad = await api.put('/v2/projects', { id: j.projectId, propagate_repetitions: 'no' });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /propagate_repetitions/);
    });

    test('withdrawing the confirmation puts the filled ones back, except one changed since; restore too', async () => {
      const j = await job('Undo');
      const all = await exiting(j);
      await api.put('/v2/segments', { id: all[4].id, target: 'Entwurf' });
      const origin = all[0];
      const confirmed = await api.put('/v2/segments', {
        id: origin.id,
        target: 'Programmende.',
        is_confirmed: true,
      });
      const filled = await exiting(j);
      // Someone corrects one of the filled rows meanwhile: theirs stays.
      await api.put('/v2/segments', { id: filled[9].id, target: 'Beendet.', is_confirmed: true });
      // Unconfirm (the editor's Ctrl+Shift+Enter).
      const res = await api.put('/v2/segments', {
        id: origin.id,
        is_confirmed: false,
        expected_updated_at: confirmed.json().updated_at,
      });
      assert.equal(res.statusCode, 200, res.body);
      const back = await exiting(j);
      assert.deepEqual(
        back.map((s) => [s.target, s.status]),
        [
          ['Programmende.', 'draft'],
          [null, 'new'],
          [null, 'new'],
          [null, 'new'],
          ['Entwurf', 'draft'],
          [null, 'new'],
          [null, 'new'],
          [null, 'new'],
          [null, 'new'],
          ['Beendet.', 'confirmed'],
        ],
      );
      const versions = await history(back[1].id);
      assert.deepEqual(
        versions.map((v) => [v.origin, v.status, v.target]),
        [
          ['restore', 'new', null],
          ['propagated', 'confirmed', 'Programmende.'],
        ],
      );
      assert.deepEqual(
        (await history(back[4].id)).map((v) => v.origin),
        ['restore', 'propagated', 'edit'],
      );
      // Confirmed again, filled again; restoring an earlier version of the origin withdraws it as well.
      await api.put('/v2/segments', { id: origin.id, is_confirmed: true });
      assert.equal((await exiting(j)).filter((s) => s.status === 'confirmed').length, 10);
      const first = (await history(origin.id)).find((v) => v.origin === 'confirm');
      const restored = await api.post('/v2/segments/restore', { id: origin.id, version: first!.version });
      assert.equal(restored.statusCode, 200, restored.body);
      const again = await exiting(j);
      assert.deepEqual(
        again.filter((s) => s.status === 'confirmed').map((s) => s.target),
        ['Beendet.'],
      );
    });

    test('another organization sees nothing and is touched by nothing', async () => {
      const j = await job('Tenancy');
      const theirMemory = (
        await rival.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })
      ).json().id;
      const theirProject = (
        await rival.post('/v2/projects', { name: 'Theirs', memory_id: theirMemory })
      ).json().id;
      const up = await rival.upload('/v2/documents/files', text(['Exiting.', 'Exiting.']), {
        'lilt-api': JSON.stringify({ name: 'theirs.txt', project_id: theirProject }),
      });
      const theirDoc = up.json().id as number;
      for (let i = 0; (await rival.get(`/v2/documents?id=${theirDoc}`)).json().import_in_progress; i++) {
        assert.ok(i < 3000);
        await new Promise((r) => setTimeout(r, 20));
      }
      const all = await exiting(j);
      await api.put('/v2/segments', { id: all[0].id, target: 'Programmende.', is_confirmed: true });
      // Their segments: still new, and repetitions of their own two only.
      const theirs = (await rival.get(`/v2/documents/segments?id=${theirDoc}`)).json().segments as Seg[];
      assert.deepEqual(
        theirs.map((s) => [s.target, s.status, s.repetition]),
        [
          [null, 'new', { count: 2, first: true }],
          [null, 'new', { count: 2, first: false }],
        ],
      );
      // Ours are a 404 to them, by id, by document, in history, and to a confirmation.
      assert.equal((await rival.get(`/v2/segments?id=${all[3].id}`)).statusCode, 404);
      assert.equal((await rival.get(`/v2/documents/segments?id=${j.a}&repeated=true`)).statusCode, 404);
      assert.equal((await rival.get(`/v2/segments/history?id=${all[3].id}`)).statusCode, 404);
      const put = await rival.put('/v2/segments', { id: all[5].id, target: 'X', is_confirmed: true });
      assert.equal(put.statusCode, 404);
      assert.equal(
        (await rival.put('/v2/projects', { id: j.projectId, propagate_repetitions: false })).statusCode,
        404,
      );
      // Their confirmation fills their own repetition only.
      await rival.put('/v2/segments', { id: theirs[1].id, target: 'Ende.', is_confirmed: true });
      assert.deepEqual(
        ((await rival.get(`/v2/documents/segments?id=${theirDoc}`)).json().segments as Seg[]).map(
          (s) => s.target,
        ),
        ['Ende.', 'Ende.'],
      );
      assert.ok((await exiting(j)).every((s) => s.target === 'Programmende.'));
    });
  });
}
