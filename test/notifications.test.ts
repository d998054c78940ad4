// Notifications (/v2/notifications, extension): a mention in a comment notifies the mentioned user — only a
// user who can see the document, never the author, never another organization's — live on their stream, with
// the unread count; marking read. Through the HTTP API on every store.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { openEventStream } from './helpers/sse.ts';
import { storeTargets } from './helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`notifications on ${target.name}`, () => {
    let ctx: TestContext;
    let admin: ReturnType<typeof client>;
    let anna: ReturnType<typeof client>;
    let annaKey: string;
    let bob: ReturnType<typeof client>;
    let rival: ReturnType<typeof client>;
    let documentId: number;
    let segmentId: number;

    before(async () => {
      ctx = await createContext(target, {}, undefined);
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      admin = client(ctx.app, ctx.adminKey);
      annaKey = await userKey(ctx, { username: 'anna', password: 'anna-password-1', role: 'member' });
      anna = client(ctx.app, annaKey);
      bob = client(
        ctx.app,
        await userKey(ctx, { username: 'bob', password: 'bob-password-1', role: 'member' }),
      );
      rival = client(
        ctx.app,
        await userKey(ctx, {
          username: 'rival',
          password: 'rival-password-1',
          role: 'admin',
          organization: 'other',
        }),
      );
      const memoryId = (await admin.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json()
        .id;
      const projectId = (await admin.post('/v2/projects', { name: 'Site', memory_id: memoryId })).json().id;
      documentId = await admin.uploadDocument(projectId, 'page.txt', 'One.\n\nTwo.\n');
      segmentId = (await admin.get(`/v2/documents?id=${documentId}&with_segments=true`)).json().segments[1]
        .id;
    });
    after(() => ctx.close());

    test('a mention notifies the user, live, with a link to the segment; the author and strangers are not told', async () => {
      const stream = await openEventStream(ctx.app, '/v2/events?notifications=true', annaKey);
      try {
        assert.equal(stream.status, 200);
        const res = await admin.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentId}`, {
          text: '@anna can you check this? cc @admin @rival @nobody',
        });
        assert.equal(res.statusCode, 201, res.body);
        assert.deepEqual(
          res.json().mentions,
          ['anna'],
          'only users of the organization who see the document',
        );
        const live = await stream.next((e) => e.event === 'notification');
        assert.equal(live.data.kind, 'mention');
        assert.equal(live.data.actor, 'admin');
        assert.equal(live.data.link, `/documents/${documentId}?seg=2`);
        assert.match(
          String(live.data.text),
          /^admin mentioned you on segment 2 of page\.txt: @anna can you check/,
        );
        assert.equal(live.data.unread, 1);
      } finally {
        stream.close();
      }
      const mine = (await anna.get('/v2/notifications')).json();
      assert.equal(mine.unread, 1);
      assert.equal(mine.notifications.length, 1);
      assert.equal(mine.notifications[0].is_read, false);
      assert.deepEqual((await admin.get('/v2/notifications')).json(), { unread: 0, notifications: [] });
      assert.deepEqual((await rival.get('/v2/notifications')).json(), { unread: 0, notifications: [] });
      assert.equal((await bob.get('/v2/notifications')).json().unread, 0);
    });

    test("one stream carries a document's events and the caller's notifications", async () => {
      const stream = await openEventStream(
        ctx.app,
        `/v2/events?document_id=${documentId}&notifications=true`,
        annaKey,
      );
      try {
        await stream.next((e) => e.event === 'document');
        const c = (
          await admin.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentId}`, {
            text: 'Both, @anna',
          })
        ).json();
        await stream.next((e) => e.event === 'comment' && e.data.comment_id === c.id);
        const n = await stream.next((e) => e.event === 'notification');
        assert.match(String(n.data.text), /Both, @anna$/);
        await admin.delete(`/v2/comments?comment_id=${c.id}`);
      } finally {
        stream.close();
      }
      await anna.post('/v2/notifications/read', {
        ids: [stream.events.find((e) => e.event === 'notification')!.data.id],
      });
      const alone = await admin.get('/v2/events');
      assert.equal(alone.statusCode, 400, 'without anything to watch');
      assert.match(alone.json().message, /document_id/);
    });

    test('editing a comment notifies only the newly mentioned', async () => {
      const c = (await anna.post(`/v2/comments?document_id=${documentId}`, { text: 'Hello @bob' })).json();
      assert.equal((await bob.get('/v2/notifications')).json().unread, 1);
      await anna.put(`/v2/comments?comment_id=${c.id}`, { text: 'Hello @bob and @admin' });
      assert.equal((await bob.get('/v2/notifications')).json().unread, 1, 'bob was already told');
      const adminNews = (await admin.get('/v2/notifications')).json();
      assert.equal(adminNews.unread, 1);
      assert.equal(adminNews.notifications[0].actor, 'anna');
    });

    test("a reply notifies the thread's author, once, and not the one replying", async () => {
      const before = (await bob.get('/v2/notifications')).json().unread;
      const first = (
        await bob.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentId}`, {
          text: 'Is this right?',
        })
      ).json();
      await bob.post(`/v2/comments?document_id=${documentId}`, {
        text: 'Own follow-up',
        parent_id: first.id,
      });
      assert.equal((await bob.get('/v2/notifications')).json().unread, before, 'no news of one’s own reply');
      await admin.post(`/v2/comments?document_id=${documentId}`, { text: 'Yes, @bob.', parent_id: first.id });
      const news = (await bob.get('/v2/notifications')).json();
      assert.equal(news.unread, before + 1, 'mentioned in a reply: one notification, the mention');
      assert.equal(news.notifications[0].kind, 'mention');
      await admin.post(`/v2/comments?document_id=${documentId}`, { text: 'Fixed now.', parent_id: first.id });
      const reply = (await bob.get('/v2/notifications')).json();
      assert.equal(reply.unread, before + 2);
      assert.equal(reply.notifications[0].kind, 'reply');
      assert.equal(
        reply.notifications[0].text,
        'admin replied to your comment on segment 2 of page.txt: Fixed now.',
      );
      await bob.post('/v2/notifications/read', {});
      await bob.delete(`/v2/comments?comment_id=${first.id}`);
    });

    test('marking read: some by id, then all; only one’s own', async () => {
      await admin.post(`/v2/comments?document_id=${documentId}`, { text: '@anna second' });
      const list = (await anna.get('/v2/notifications?unread=true')).json();
      assert.equal(list.unread, 2);
      const [newest, older] = list.notifications;
      assert.ok(newest.id > older.id, 'newest first');
      const bobUnread = (await bob.get('/v2/notifications')).json().unread;
      const other = await bob.post('/v2/notifications/read', { ids: [newest.id] });
      assert.deepEqual(
        other.json(),
        { marked: 0, unread: bobUnread },
        "another user's notification is not marked",
      );
      assert.equal((await anna.get('/v2/notifications')).json().unread, 2, 'and stays unread');
      const one = await anna.post('/v2/notifications/read', { ids: [newest.id] });
      assert.deepEqual(one.json(), { marked: 1, unread: 1 });
      const unreadOnly = (await anna.get('/v2/notifications?unread=true')).json();
      assert.deepEqual(
        unreadOnly.notifications.map((n: { id: number }) => n.id),
        [older.id],
      );
      assert.deepEqual((await anna.post('/v2/notifications/read', {})).json(), { marked: 1, unread: 0 });
      assert.equal(
        (await anna.get('/v2/notifications')).json().notifications.length,
        3,
        'read ones stay listed',
      );
      const bad = await anna.post('/v2/notifications/read', { ids: ['x'] });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /ids/);
      const badLimit = await anna.get('/v2/notifications?limit=0');
      assert.equal(badLimit.statusCode, 400);
      assert.match(badLimit.json().message, /limit/);
    });
  });
}
