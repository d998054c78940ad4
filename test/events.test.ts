// Live events (GET /v2/events) over real HTTP on every store: segment changes, task progress and counts,
// tenancy, clean closes; with PostgreSQL, events cross two server instances sharing the database.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { STREAM_RECHECK_MS } from '../src/http/event-stream.ts';
import { revokeAnyKey } from '../src/modules/users/service.ts';
import { openStore } from '../src/store/open-store.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { openEventStream } from './helpers/sse.ts';
import { storeTargets } from './helpers/stores.ts';

/** How long a test waits for a stream to end: the recheck's period, and a margin for a busy machine. */
const STREAM_END_BOUND_MS = STREAM_RECHECK_MS + 2000;

const listen = openEventStream;

for (const target of await storeTargets()) {
  describe(`live events on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let rivalKey: string;
    let projectId: number;
    let documentId: number;
    let segmentIds: number[];

    async function upload(name: string, text: string) {
      const res = await api.upload('/v2/documents/files', text, {
        'lilt-api': JSON.stringify({ name, project_id: projectId }),
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().id as number;
    }

    before(async () => {
      ctx = await createContext(target);
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      api = client(ctx.app, ctx.adminKey);
      rivalKey = await userKey(ctx, {
        username: 'rex',
        password: 'rex-password',
        role: 'admin',
        organization: 'rival',
      });
      const memoryId = (await api.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json()
        .id;
      projectId = (await api.post('/v2/projects', { name: 'Live', memory_id: memoryId })).json().id;
      documentId = await upload('live.txt', 'One.\n\nTwo.\n\nThree.\n');
      for (let i = 0; (await api.get(`/v2/documents?id=${documentId}`)).json().import_in_progress; i++) {
        assert.ok(i < 2000);
        await new Promise((r) => setTimeout(r, 20));
      }
      segmentIds = (await api.get(`/v2/documents/segments?id=${documentId}`))
        .json()
        .segments.map((s: { id: number }) => s.id);
    });
    after(() => ctx.close());

    test('a confirmation is seen by a subscriber of the document, with the new counts', async () => {
      const stream = await listen(ctx.app, `/v2/events?document_id=${documentId}`, ctx.adminKey);
      assert.equal(stream.response.statusCode, 200);
      assert.match(String(stream.response.headers['content-type']), /^text\/event-stream/);
      const initial = await stream.next((e) => e.event === 'document');
      assert.deepEqual(initial.data, {
        document_id: documentId,
        project_id: projectId,
        confirmed: 0,
        total: 3,
      });
      const put = await api.put('/v2/segments', { id: segmentIds[0], target: 'Eins.', is_confirmed: true });
      assert.equal(put.statusCode, 200);
      // From the answer on: a change waits for the clock to leave the second of the segment's last change.
      const started = Date.now();
      const segment = await stream.next((e) => e.event === 'segment');
      assert.deepEqual(segment.data, {
        document_id: documentId,
        segment_id: segmentIds[0],
        target: 'Eins.',
        status: 'confirmed',
        updated_at: put.json().updated_at,
        user: 'admin',
      });
      assert.ok(Date.now() - started < 1000);
      const counts = await stream.next((e) => e.event === 'document' && e.data.confirmed === 1);
      assert.equal(counts.data.total, 3);
      stream.close();
    });

    test('a target of 5,000 CJK characters reaches every viewer whole (too long for one notification)', async () => {
      const id = await upload('long.txt', 'A long one.\n\nA short one.\n');
      for (let i = 0; (await api.get(`/v2/documents?id=${id}`)).json().import_in_progress; i++) {
        assert.ok(i < 2000);
        await new Promise((r) => setTimeout(r, 20));
      }
      const [longId, shortId] = (await api.get(`/v2/documents/segments?id=${id}`))
        .json()
        .segments.map((s: { id: number }) => s.id);
      // 15,000 bytes of UTF-8: PostgreSQL's NOTIFY carries 8000.
      const long = Array.from({ length: 5000 }, (_, i) =>
        String.fromCodePoint(0x4e00 + ((i * 7) % 5000)),
      ).join('');
      const viewers = [await listen(ctx.app, `/v2/events?document_id=${id}`, ctx.adminKey)];
      // On PostgreSQL a second instance sharing the store has its own viewer: the event crosses instances.
      const db = target.name === 'postgres' ? openStore(ctx.config) : undefined;
      const second = db && (await buildApp({ config: ctx.config, db, runWorker: false }));
      try {
        if (second) {
          await second.listen({ port: 0, host: '127.0.0.1' });
          viewers.push(await listen(second, `/v2/events?document_id=${id}`, ctx.adminKey));
        }
        for (const viewer of viewers) await viewer.next((e) => e.event === 'document');
        const put = await api.put('/v2/segments', { id: longId, target: long, is_confirmed: true });
        assert.equal(put.statusCode, 200, put.body);
        await api.put('/v2/segments', { id: shortId, target: 'Kurz.' });
        for (const viewer of viewers) {
          const seen = await viewer.next((e) => e.event === 'segment' && e.data.segment_id === longId);
          assert.deepEqual(seen.data, {
            document_id: id,
            segment_id: longId,
            target: long,
            status: 'confirmed',
            updated_at: put.json().updated_at,
            user: 'admin',
          });
          // In their order: the short change after the long one.
          const after = await viewer.next((e) => e.event === 'segment' && e.data.segment_id === shortId);
          assert.equal(after.data.target, 'Kurz.');
          assert.ok(viewer.events.indexOf(seen) < viewer.events.indexOf(after));
          viewer.close();
        }
      } finally {
        await second?.close();
        await db?.close();
      }
    });

    test('a project subscriber follows its documents: import task, segment changes, replace as reload', async () => {
      const stream = await listen(ctx.app, `/v2/events?project_id=${projectId}`, ctx.adminKey);
      await stream.next((e) => e.event === 'document');
      const id = await upload('second.txt', 'Alpha.\n\nBeta.\n');
      const done = await stream.next(
        (e) => e.event === 'task' && e.data.document_id === id && e.data.state === 'succeeded',
      );
      assert.equal(done.data.kind, 'import');
      assert.equal(done.data.project_id, projectId);
      assert.equal(typeof done.data.task_id, 'number');
      assert.deepEqual(done.data.progress, { done: 2, total: 2 });
      await stream.next((e) => e.event === 'document' && e.data.document_id === id && e.data.total === 2);
      const from = stream.events.length;
      await api.put('/v2/segments', { id: segmentIds[1], target: 'Zwei.' });
      await stream.next((e) => e.event === 'segment' && e.data.segment_id === segmentIds[1], 5000, from);
      // A pre-translation: its task, then one "reload" for all its segments.
      const memoryId = (await api.get(`/v2/projects?id=${projectId}`)).json()[0].memory_id;
      await api.post('/v2/segments', { memory_id: memoryId, source: 'Alpha.', target: 'Alfa.' });
      assert.equal(
        (await api.post('/v2/documents/pretranslate', { id: [id], auto_accept: true })).statusCode,
        202,
      );
      const pretranslated = await stream.next(
        (e) => e.event === 'task' && e.data.kind === 'pretranslate' && e.data.state === 'succeeded',
      );
      assert.equal(pretranslated.data.document_id, id);
      const reload = await stream.next((e) => e.event === 'document' && e.data.reload === true);
      assert.deepEqual(reload.data, {
        document_id: id,
        project_id: projectId,
        confirmed: 1,
        total: 2,
        reload: true,
      });
      stream.close();
    });

    test('tenancy and parameters: another organization’s document is 404; one scope is required', async () => {
      const rival = client(ctx.app, rivalKey);
      assert.equal((await rival.get(`/v2/events?document_id=${documentId}`)).statusCode, 404);
      assert.equal((await rival.get(`/v2/events?project_id=${projectId}`)).statusCode, 404);
      assert.equal((await api.get('/v2/events')).statusCode, 400);
      assert.equal(
        (await api.get(`/v2/events?document_id=${documentId}&project_id=${projectId}`)).statusCode,
        400,
      );
      assert.equal(
        (await ctx.app.inject({ method: 'GET', url: `/v2/events?document_id=${documentId}` })).statusCode,
        401,
      );
      // A rival's subscription to its own project hears nothing of ours.
      const rivalMemory = (
        await rival.post('/v2/memories', { name: 'R', srclang: 'en', trglang: 'de' })
      ).json().id;
      const rivalProject = (await rival.post('/v2/projects', { name: 'R', memory_id: rivalMemory })).json()
        .id;
      const stream = await listen(ctx.app, `/v2/events?project_id=${rivalProject}`, rivalKey);
      await api.put('/v2/segments', { id: segmentIds[2], target: 'Drei.' });
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(
        stream.events.filter((e) => e.event === 'segment'),
        [],
      );
      stream.close();
    });

    test('a browser session (cookie) subscribes as any request signs in', async () => {
      await userKey(ctx, { username: 'carla', password: 'carla-password', role: 'member' });
      const signIn = await ctx.app.inject({
        method: 'POST',
        url: '/v2/session',
        payload: { username: 'carla', password: 'carla-password' },
      });
      const cookie = String(signIn.headers['set-cookie']).split(';')[0];
      const stream = await listen(ctx.app, `/v2/events?document_id=${documentId}`, '', cookie);
      assert.equal(stream.response.statusCode, 200);
      await stream.next((e) => e.event === 'document');
      stream.close();
    });

    /** A member's key, its id, and a stream of the document opened with it. */
    async function memberStream(username: string) {
      const key = await userKey(ctx, { username, password: `${username}-password`, role: 'member' });
      const member = client(ctx.app, key);
      const keyId = (await member.get('/v2/keys')).json()[0].id as number;
      const userId = (await member.get('/v2/me')).json().user_id as number;
      const stream = await listen(ctx.app, `/v2/events?document_id=${documentId}`, key);
      await stream.next((e) => e.event === 'document');
      return { key, keyId, userId, stream };
    }

    /**
     * Called once the change that ended a stream's credential is answered, on the instance that holds the
     * stream: a segment changed from then on never reaches it, and it has ended.
     */
    async function assertCutOff(stream: Awaited<ReturnType<typeof listen>>, target: string) {
      const from = stream.events.length;
      const ended = stream.ended(STREAM_END_BOUND_MS);
      await api.put('/v2/segments', { id: segmentIds[0], target });
      await ended;
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(
        stream.events.slice(from).filter((e) => e.event === 'segment'),
        [],
        'no segment text after the credential ended',
      );
    }

    test('a stream ends when the key it was opened with is revoked', async () => {
      const { keyId, stream } = await memberStream('kim');
      assert.equal((await api.delete(`/v2/keys?id=${keyId}`)).statusCode, 200);
      await assertCutOff(stream, 'Eins, nach dem Widerruf.');
      // Revoked from the command line (straight in the store): the next check of the store ends the stream.
      const cli = await memberStream('kit');
      assert.equal(await revokeAnyKey(ctx.db, cli.keyId), true);
      const ms = await cli.stream.ended(STREAM_END_BOUND_MS);
      assert.ok(ms <= STREAM_RECHECK_MS + 500, `ended after ${ms} ms`);
    });

    test('a stream ends when its user is disabled', async () => {
      const { userId, stream } = await memberStream('lou');
      assert.equal((await api.put('/v2/users', { id: userId, disabled: true })).statusCode, 200);
      await assertCutOff(stream, 'Eins, nach der Sperre.');
    });

    test('a stream opened with a session ends at sign-out', async () => {
      await userKey(ctx, { username: 'mo', password: 'mo-password', role: 'member' });
      const signIn = await ctx.app.inject({
        method: 'POST',
        url: '/v2/session',
        payload: { username: 'mo', password: 'mo-password' },
      });
      const cookie = String(signIn.headers['set-cookie']).split(';')[0];
      const stream = await listen(ctx.app, `/v2/events?document_id=${documentId}`, '', cookie);
      await stream.next((e) => e.event === 'document');
      const other = await listen(ctx.app, `/v2/events?document_id=${documentId}`, ctx.adminKey);
      await other.next((e) => e.event === 'document');
      const out = await ctx.app.inject({
        method: 'DELETE',
        url: '/v2/session',
        headers: { cookie, host: 'tessera.example', origin: 'http://tessera.example' },
      });
      assert.equal(out.statusCode, 200);
      await assertCutOff(stream, 'Eins, nach der Abmeldung.');
      // Other streams go on.
      await other.next((e) => e.event === 'segment' && e.data.target === 'Eins, nach der Abmeldung.');
      other.close();
    });

    if (target.name === 'postgres') {
      test('events cross server instances sharing the database (LISTEN/NOTIFY)', async () => {
        const db = openStore(ctx.config);
        const second = await buildApp({ config: ctx.config, db, runWorker: false });
        await second.listen({ port: 0, host: '127.0.0.1' });
        try {
          const stream = await listen(second, `/v2/events?document_id=${documentId}`, ctx.adminKey);
          await stream.next((e) => e.event === 'document');
          await api.put('/v2/segments', { id: segmentIds[2], target: 'Drei!', is_confirmed: true });
          const seen = await stream.next((e) => e.event === 'segment' && e.data.target === 'Drei!', 2000);
          assert.equal(seen.data.status, 'confirmed');
          // Revoked through the first instance: the second one finds out on its next check of the store.
          const key = await userKey(ctx, { username: 'nia', password: 'nia-password', role: 'member' });
          const theirs = await listen(second, `/v2/events?document_id=${documentId}`, key);
          await theirs.next((e) => e.event === 'document');
          const keyId = (await client(ctx.app, key).get('/v2/keys')).json()[0].id;
          assert.equal((await api.delete(`/v2/keys?id=${keyId}`)).statusCode, 200);
          const ms = await theirs.ended(STREAM_END_BOUND_MS);
          assert.ok(ms <= STREAM_RECHECK_MS + 500, `ended after ${ms} ms`);
          // Closed with the stream still open: the close does not wait for it.
        } finally {
          await second.close();
          await db.close();
        }
      });
    }

    test('a stream open when the server closes ends, and the close does not hang', async () => {
      const stream = await listen(ctx.app, `/v2/events?document_id=${documentId}`, ctx.adminKey);
      await stream.next((e) => e.event === 'document');
      const ended = new Promise((resolve) => stream.response.on('end', resolve));
      await ctx.app.close();
      await ended;
    });
  });
}
