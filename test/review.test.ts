// Review through HTTP on every store (issue 26): PUT /v2/segments sets Reviewed (which the editor's "Reviewed"
// chip counts), the translator's version review mode compares with (GET /v2/review/baselines), and the words
// confirmed and reviewed per user and per document (GET /v2/review/progress) from the segments' history.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countWords } from '../src/matching/word-count.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const A = ['The quick brown fox jumps.', 'Save your work often.', 'Print the page.'];
const B = ['Close the window now please.'];
const w = (s: string) => countWords(s);

for (const target of await storeTargets()) {
  describe(`review on ${target.name}`, () => {
    let ctx: TestContext;
    let admin: ReturnType<typeof client>;
    let anna: ReturnType<typeof client>;
    let rita: ReturnType<typeof client>;
    let rival: ReturnType<typeof client>;
    let projectId: number;
    let docA: number;
    let docB: number;
    let segA: { id: number; updated_at: number }[];
    let segB: { id: number }[];

    before(async () => {
      ctx = await createContext(target);
      admin = client(ctx.app, ctx.adminKey);
      anna = client(
        ctx.app,
        await userKey(ctx, { username: 'anna', password: 'translate1', role: 'member' }),
      );
      rita = client(ctx.app, await userKey(ctx, { username: 'rita', password: 'review123', role: 'member' }));
      rival = client(
        ctx.app,
        await userKey(ctx, { username: 'rex', password: 'elsewhere1', role: 'admin', organization: 'rival' }),
      );
      const memoryId = (await admin.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json()
        .id;
      projectId = (await admin.post('/v2/projects', { name: 'Review', memory_id: memoryId })).json().id;
      docA = await admin.uploadDocument(projectId, 'a.txt', `${A.join('\n\n')}\n`);
      docB = await admin.uploadDocument(projectId, 'b.txt', `${B.join('\n\n')}\n`);
      segA = (await admin.get(`/v2/documents?id=${docA}&with_segments=true`)).json().segments;
      segB = (await admin.get(`/v2/documents?id=${docB}&with_segments=true`)).json().segments;
    });
    after(() => ctx.close());

    const put = async (who: ReturnType<typeof client>, body: Record<string, unknown>) => {
      const res = await who.put('/v2/segments', body);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };

    test('Reviewed through PUT /v2/segments: it confirms too, the chip counts it, an edit withdraws it', async () => {
      await put(anna, { id: segA[0].id, target: 'Der schnelle braune Fuchs springt.', is_confirmed: true });
      const reviewed = await put(rita, { id: segA[0].id, is_reviewed: true });
      assert.equal(reviewed.status, 'reviewed');
      assert.equal(reviewed.is_reviewed, true);
      assert.equal(reviewed.is_confirmed, true);
      const counts = (await admin.get(`/v2/documents/segments?id=${docA}&status=reviewed`)).json();
      assert.equal(counts.counts.reviewed, 1);
      assert.deepEqual(
        counts.segments.map((s: { id: number }) => s.id),
        [segA[0].id],
      );
      // Reviewed alone on a segment nobody confirmed confirms it (reviewed words are confirmed words).
      const direct = await put(rita, { id: segA[2].id, target: 'Drucken Sie die Seite.', is_reviewed: true });
      assert.equal(direct.status, 'reviewed');
      assert.equal(direct.is_confirmed, true);
      // Another target withdraws the review unless is_reviewed comes with it; unconfirming withdraws it too.
      const edited = await put(anna, { id: segA[2].id, target: 'Drucke die Seite.' });
      assert.equal(edited.status, 'draft');
      assert.equal(edited.is_reviewed, false);
      await put(rita, {
        id: segA[2].id,
        target: 'Drucken Sie die Seite.',
        is_confirmed: true,
        is_reviewed: true,
      });
      const unreviewed = await put(rita, { id: segA[2].id, is_reviewed: false });
      assert.equal(unreviewed.status, 'confirmed');
      assert.equal(unreviewed.is_confirmed, true);
      await put(rita, { id: segA[2].id, is_reviewed: true });
      const unconfirmed = await put(rita, { id: segA[2].id, is_confirmed: false });
      assert.equal(unconfirmed.status, 'draft');
      const empty = await rita.put('/v2/segments', { id: segA[1].id, is_reviewed: true });
      assert.equal(empty.statusCode, 400);
      assert.match(empty.body, /target/);
    });

    test("the baseline is each segment's newest confirmed version: the reviewer's edits leave it", async () => {
      // Segment 2: anna confirms, rita edits (a draft) and then reviews her own wording.
      await put(anna, { id: segA[1].id, target: 'Speichern Sie oft.', is_confirmed: true });
      await put(rita, { id: segA[1].id, target: 'Speichern Sie Ihre Arbeit oft.' });
      await put(rita, {
        id: segA[1].id,
        target: 'Speichern Sie Ihre Arbeit häufig.',
        is_confirmed: true,
        is_reviewed: true,
      });
      const res = await rita.get(`/v2/review/baselines?document_id=${docA}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.document_id, docA);
      const of = new Map(
        body.baselines.map((b: { segment_id: number; target: string; user: string }) => [b.segment_id, b]),
      );
      const second = of.get(segA[1].id) as { target: string; user: string; version: number };
      assert.equal(second.target, 'Speichern Sie oft.');
      assert.equal(second.user, 'anna');
      const history = (await admin.get(`/v2/segments/history?id=${segA[1].id}`)).json().versions;
      const confirmedVersion = history.find((v: { status: string }) => v.status === 'confirmed').version;
      assert.equal(second.version, confirmedVersion);
      assert.equal((of.get(segA[0].id) as { target: string }).target, 'Der schnelle braune Fuchs springt.');
      // Segment 3 was never confirmed but with a review — its one confirmed version (rita's Ctrl+Shift+Enter)
      // only withdrew a review of the same text: no translator's version.
      assert.equal(of.has(segA[2].id), false);

      // Sent back and confirmed again by the translator: that is the new baseline.
      await put(anna, {
        id: segA[1].id,
        target: 'Speichern Sie Ihre Arbeit regelmäßig.',
        is_confirmed: true,
      });
      const again = (await rita.get(`/v2/review/baselines?document_id=${docA}`)).json();
      assert.equal(
        again.baselines.find((b: { segment_id: number }) => b.segment_id === segA[1].id).target,
        'Speichern Sie Ihre Arbeit regelmäßig.',
      );
      assert.equal((await rival.get(`/v2/review/baselines?document_id=${docA}`)).statusCode, 404);
      assert.equal((await rita.get('/v2/review/baselines?document_id=abc')).statusCode, 400);
    });

    test('words confirmed and reviewed per user and per document, from who made the current state', async () => {
      // Now: A1 anna confirmed, rita reviewed; A2 rita reviewed, then anna confirmed another text (after a
      // send-back); B1 rita reviewed a draft directly (which confirms it); A3 anna confirmed, then admin
      // confirmed an edit of it.
      await put(rita, { id: segB[0].id, target: 'Schließen Sie das Fenster.', is_reviewed: true });
      await put(anna, { id: segA[2].id, target: 'Drucken Sie die Seite.', is_confirmed: true });
      await put(admin, { id: segA[2].id, target: 'Drucken Sie diese Seite.', is_confirmed: true });

      const res = await admin.get(`/v2/review/progress?project_id=${projectId}`);
      assert.equal(res.statusCode, 200, res.body);
      const progress = res.json();
      assert.equal(progress.project_id, projectId);
      type Row = { user: string | null; words_confirmed: number; words_reviewed: number };
      const row = (list: Row[], user: string) => list.find((u) => u.user === user);
      // The newest confirmation of the current run is who confirmed it: A2 anna's (her text after rita's
      // review), A3 admin's (his edit, confirmed).
      assert.deepEqual(row(progress.users, 'anna'), {
        user: 'anna',
        words_confirmed: w(A[0]) + w(A[1]),
        words_reviewed: 0,
        segments_confirmed: 2,
        segments_reviewed: 0,
      });
      assert.deepEqual(row(progress.users, 'admin'), {
        user: 'admin',
        words_confirmed: w(A[2]),
        words_reviewed: 0,
        segments_confirmed: 1,
        segments_reviewed: 0,
      });
      assert.deepEqual(row(progress.users, 'rita'), {
        user: 'rita',
        words_confirmed: w(B[0]),
        words_reviewed: w(A[0]) + w(B[0]),
        segments_confirmed: 1,
        segments_reviewed: 2,
      });
      const [a, b] = progress.documents;
      assert.equal(a.id, docA);
      assert.equal(a.name, 'a.txt');
      assert.equal(a.words, w(A[0]) + w(A[1]) + w(A[2]));
      assert.deepEqual(
        a.users.map((u: { user: string; words_confirmed: number; words_reviewed: number }) => [
          u.user,
          u.words_confirmed,
          u.words_reviewed,
        ]),
        [
          ['anna', w(A[0]) + w(A[1]), 0],
          ['admin', w(A[2]), 0],
          ['rita', 0, w(A[0])],
        ],
      );
      assert.equal(b.id, docB);
      assert.deepEqual(
        b.users.map((u: { user: string; words_confirmed: number; words_reviewed: number }) => [
          u.user,
          u.words_confirmed,
          u.words_reviewed,
        ]),
        [['rita', w(B[0]), w(B[0])]],
      );

      // An edit that unconfirms ends the run: whoever confirms next confirmed the current state.
      await put(admin, { id: segA[0].id, target: 'Der flinke braune Fuchs springt.' });
      await put(admin, { id: segA[0].id, is_confirmed: true });
      const after = (await admin.get(`/v2/review/progress?project_id=${projectId}`)).json();
      assert.equal(row(after.users, 'anna')?.words_confirmed, w(A[1]));
      assert.equal(row(after.users, 'admin')?.words_confirmed, w(A[0]) + w(A[2]));
      assert.equal(row(after.users, 'rita')?.words_reviewed, w(B[0]));

      assert.equal((await rival.get(`/v2/review/progress?project_id=${projectId}`)).statusCode, 404);
      const missing = await admin.get('/v2/review/progress');
      assert.equal(missing.statusCode, 400);
      assert.match(missing.body, /project_id/);
    });
  });
}
