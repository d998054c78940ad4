// Comments (/v2/comments, Lilt's shapes with threads, document comments and mentions), the segment list's
// "unresolved comments" filter, comments as XLIFF notes, and notifications of mentions — through the HTTP
// API on every store.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { openStore } from '../src/store/open-store.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { openEventStream } from './helpers/sse.ts';
import { storeTargets } from './helpers/stores.ts';
import { schemaErrors, schemaSkipReason } from './helpers/xmllint.ts';

for (const target of await storeTargets()) {
  describe(`comments on ${target.name}`, () => {
    let ctx: TestContext;
    let admin: ReturnType<typeof client>;
    let anna: ReturnType<typeof client>;
    let annaKey: string;
    let rival: ReturnType<typeof client>;
    let documentId: number;
    let segmentIds: number[];

    before(async () => {
      ctx = await createContext(target);
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      admin = client(ctx.app, ctx.adminKey);
      annaKey = await userKey(ctx, { username: 'anna', password: 'anna-password-1', role: 'member' });
      anna = client(ctx.app, annaKey);
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
      documentId = await admin.uploadDocument(
        projectId,
        'page.txt',
        'First line.\n\nSecond line.\n\nThird line.\n',
      );
      const doc = (await admin.get(`/v2/documents?id=${documentId}&with_segments=true`)).json();
      segmentIds = doc.segments.map((s: { id: number }) => s.id);
      assert.equal(segmentIds.length, 3);
    });
    after(() => ctx.close());

    test("POST, GET, PUT, DELETE in Lilt's shapes, the ids in the query", async () => {
      const created = await admin.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentIds[0]}`, {
        text: 'Is "line" the right word here?',
        annotations: [{ text: 'terminology' }],
      });
      assert.equal(created.statusCode, 201, created.body);
      const comment = created.json();
      assert.equal(typeof comment.id, 'number');
      assert.equal(comment.text, 'Is "line" the right word here?');
      assert.deepEqual(comment.annotations, [{ text: 'terminology' }]);
      assert.equal(comment.is_resolved, false);
      assert.equal(comment.document_id, documentId);
      assert.equal(comment.segment_id, segmentIds[0]);
      assert.equal(comment.segment_revision_id, 0, "the segment's version the comment was written on");
      assert.equal(comment.user, 'admin');
      assert.equal(typeof comment.user_id, 'number');
      assert.equal(comment.parent_id, null);

      const list = await admin.get(`/v2/comments?document_id=${documentId}`);
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(Object.keys(list.json()), [String(segmentIds[0])]);
      assert.deepEqual(list.json()[segmentIds[0]], [comment]);

      const resolved = await admin.put(`/v2/comments?comment_id=${comment.id}&document_id=${documentId}`, {
        is_resolved: 'true',
      });
      assert.equal(resolved.statusCode, 200, resolved.body);
      assert.equal(resolved.json().is_resolved, true, 'Lilt types is_resolved as a string: "true" is read');
      assert.equal(resolved.json().text, comment.text);

      const edited = await admin.put(`/v2/comments?comment_id=${comment.id}&document_id=${documentId}`, {
        text: 'Is "row" better?',
      });
      assert.equal(edited.json().text, 'Is "row" better?');

      const deleted = await admin.delete(`/v2/comments?comment_id=${comment.id}`);
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.deepEqual(deleted.json(), { id: comment.id, deleted: true });
      assert.deepEqual((await admin.get(`/v2/comments?document_id=${documentId}`)).json(), {});
      assert.equal((await admin.delete(`/v2/comments?comment_id=${comment.id}`)).statusCode, 404);
    });

    test('threads: a reply joins its thread, resolving a reply resolves the thread, deleting the first takes the replies', async () => {
      const first = (
        await anna.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentIds[1]}`, {
          text: 'Typo?',
        })
      ).json();
      const reply = await admin.post(`/v2/comments?document_id=${documentId}`, {
        text: 'Fixed.',
        parent_id: first.id,
      });
      assert.equal(reply.statusCode, 201, reply.body);
      assert.equal(reply.json().parent_id, first.id);
      assert.equal(reply.json().segment_id, segmentIds[1], 'a reply is on its thread’s segment');
      const replyToReply = (
        await anna.post(`/v2/comments?document_id=${documentId}`, {
          text: 'Thanks',
          parent_id: reply.json().id,
        })
      ).json();
      assert.equal(replyToReply.parent_id, first.id, 'one level of replies');

      const thread = (await admin.get(`/v2/comments?document_id=${documentId}`)).json()[segmentIds[1]];
      assert.deepEqual(
        thread.map((c: { text: string }) => c.text),
        ['Typo?', 'Fixed.', 'Thanks'],
      );
      const resolved = await anna.put(`/v2/comments?comment_id=${replyToReply.id}`, { is_resolved: true });
      assert.equal(resolved.json().is_resolved, true);
      const after = (await admin.get(`/v2/comments?document_id=${documentId}`)).json()[segmentIds[1]];
      assert.ok(after.every((c: { is_resolved: boolean }) => c.is_resolved));

      const elsewhere = await admin.post(
        `/v2/comments?document_id=${documentId}&segment_id=${segmentIds[0]}`,
        {
          text: 'x',
          parent_id: first.id,
        },
      );
      assert.equal(elsewhere.statusCode, 400);
      assert.match(elsewhere.json().message, /segment_id/);

      assert.equal((await admin.delete(`/v2/comments?comment_id=${first.id}`)).statusCode, 200);
      assert.equal(
        (await admin.get(`/v2/comments?document_id=${documentId}`)).json()[segmentIds[1]],
        undefined,
      );
    });

    test('a comment on the whole document is listed under "document"', async () => {
      const res = await anna.post(`/v2/comments?document_id=${documentId}`, { text: 'Tone: informal (du).' });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().segment_id, null);
      assert.equal(res.json().segment_revision_id, null);
      const list = (await anna.get(`/v2/comments?document_id=${documentId}`)).json();
      assert.deepEqual(list.document, [res.json()]);
      await anna.delete(`/v2/comments?comment_id=${res.json().id}`);
    });

    test('who may change what: the author edits, anyone who sees it resolves, the author or an admin deletes', async () => {
      const mine = (
        await admin.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentIds[2]}`, {
          text: 'Admin note',
        })
      ).json();
      const edit = await anna.put(`/v2/comments?comment_id=${mine.id}`, { text: 'Not mine' });
      assert.equal(edit.statusCode, 403);
      assert.match(edit.json().message, /author/);
      assert.equal(
        (await anna.put(`/v2/comments?comment_id=${mine.id}`, { is_resolved: true })).statusCode,
        200,
      );
      assert.equal((await anna.delete(`/v2/comments?comment_id=${mine.id}`)).statusCode, 403);
      const hers = (
        await anna.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentIds[2]}`, {
          text: 'Mine',
        })
      ).json();
      assert.equal(
        (await admin.delete(`/v2/comments?comment_id=${hers.id}`)).statusCode,
        200,
        'an admin deletes',
      );
      assert.equal((await admin.delete(`/v2/comments?comment_id=${mine.id}`)).statusCode, 200);
    });

    test('bad input names the parameter; another organization’s document or comment is a 404', async () => {
      const noText = await admin.post(
        `/v2/comments?document_id=${documentId}&segment_id=${segmentIds[0]}`,
        {},
      );
      assert.equal(noText.statusCode, 400);
      assert.match(noText.json().message, /text/);
      const blank = await admin.post(`/v2/comments?document_id=${documentId}`, { text: '   ' });
      assert.equal(blank.statusCode, 400);
      assert.match(blank.json().message, /text/);
      const noDoc = await admin.post(`/v2/comments?segment_id=${segmentIds[0]}`, { text: 'x' });
      assert.equal(noDoc.statusCode, 400);
      assert.match(noDoc.json().message, /document_id/);
      const badSegment = await admin.get('/v2/comments?document_id=abc');
      assert.equal(badSegment.statusCode, 400);
      assert.match(badSegment.json().message, /document_id/);
      const tooLong = await admin.post(`/v2/comments?document_id=${documentId}`, { text: 'x'.repeat(5001) });
      assert.equal(tooLong.statusCode, 400);
      assert.match(tooLong.json().message, /text/);
      const wrongSegment = await admin.post(`/v2/comments?document_id=${documentId}&segment_id=999999`, {
        text: 'x',
      });
      assert.equal(wrongSegment.statusCode, 404);

      const theirs = (
        await admin.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentIds[0]}`, {
          text: 'ours',
        })
      ).json();
      assert.equal((await rival.get(`/v2/comments?document_id=${documentId}`)).statusCode, 404);
      assert.equal(
        (
          await rival.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentIds[0]}`, {
            text: 'x',
          })
        ).statusCode,
        404,
      );
      assert.equal(
        (await rival.put(`/v2/comments?comment_id=${theirs.id}`, { is_resolved: true })).statusCode,
        404,
      );
      assert.equal((await rival.delete(`/v2/comments?comment_id=${theirs.id}`)).statusCode, 404);
      assert.equal(
        (
          await admin.put(`/v2/comments?comment_id=${theirs.id}&document_id=${documentId + 1000}`, {
            text: 'y',
          })
        ).statusCode,
        404,
        'a comment named with another document is not found',
      );
      await admin.delete(`/v2/comments?comment_id=${theirs.id}`);
    });

    test('the unresolved filter of GET /v2/documents/segments keeps the segments with an open thread', async () => {
      const open = (
        await admin.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentIds[2]}`, {
          text: 'Open',
        })
      ).json();
      const closed = (
        await admin.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentIds[0]}`, {
          text: 'Done',
          is_resolved: true,
        })
      ).json();
      const page = await admin.get(`/v2/documents/segments?id=${documentId}&unresolved=true`);
      assert.equal(page.statusCode, 200, page.body);
      assert.equal(page.json().total, 1);
      assert.deepEqual(
        page.json().segments.map((s: { id: number }) => s.id),
        [segmentIds[2]],
      );
      const withText = (
        await admin.get(`/v2/documents/segments?id=${documentId}&unresolved=true&q=first`)
      ).json();
      assert.equal(withText.total, 0, 'with the other filters');
      const withQa = (
        await admin.get(`/v2/documents/segments?id=${documentId}&unresolved=true&qa=any`)
      ).json();
      assert.ok(withQa.segments.every((s: { id: number }) => s.id === segmentIds[2]));
      await admin.put(`/v2/comments?comment_id=${open.id}`, { is_resolved: true });
      assert.equal(
        (await admin.get(`/v2/documents/segments?id=${documentId}&unresolved=true`)).json().total,
        0,
        'resolved: no longer listed',
      );
      const bad = await admin.get(`/v2/documents/segments?id=${documentId}&unresolved=maybe`);
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /unresolved/);
      await admin.delete(`/v2/comments?comment_id=${open.id}`);
      await admin.delete(`/v2/comments?comment_id=${closed.id}`);
    });

    test('a comment reaches the viewers of its document as a `comment` event (on PostgreSQL, across instances)', async () => {
      const viewers = [await openEventStream(ctx.app, `/v2/events?document_id=${documentId}`, annaKey)];
      // On PostgreSQL a second instance sharing the store has its own viewer: the event crosses instances.
      const db = target.name === 'postgres' ? openStore(ctx.config) : undefined;
      const second = db && (await buildApp({ config: ctx.config, db, runWorker: false }));
      try {
        if (second) {
          await second.listen({ port: 0, host: '127.0.0.1' });
          viewers.push(await openEventStream(second, `/v2/events?document_id=${documentId}`, annaKey));
        }
        for (const viewer of viewers) {
          assert.equal(viewer.status, 200);
          await viewer.next((e) => e.event === 'document');
        }
        const created = (
          await admin.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentIds[1]}`, {
            text: 'Live',
          })
        ).json();
        for (const viewer of viewers) {
          const event = await viewer.next((e) => e.event === 'comment' && e.data.comment_id === created.id);
          assert.deepEqual(event.data, {
            document_id: documentId,
            segment_id: segmentIds[1],
            comment_id: created.id,
            action: 'created',
            user: 'admin',
          });
        }
        await admin.put(`/v2/comments?comment_id=${created.id}`, { is_resolved: true });
        for (const viewer of viewers)
          await viewer.next((e) => e.event === 'comment' && e.data.action === 'updated');
        await admin.delete(`/v2/comments?comment_id=${created.id}`);
        for (const viewer of viewers)
          await viewer.next((e) => e.event === 'comment' && e.data.action === 'deleted');
      } finally {
        for (const viewer of viewers) viewer.close();
        await second?.close();
        await db?.close();
      }
    });

    test('reject: the segment goes back unconfirmed with a comment, in one call; its translator is notified', async () => {
      const confirmed = await anna.put('/v2/segments', {
        id: segmentIds[1],
        target: 'Zweite Zeile.',
        is_confirmed: true,
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const stream = await openEventStream(ctx.app, `/v2/events?document_id=${documentId}`, annaKey);
      try {
        await stream.next((e) => e.event === 'document');
        const res = await admin.post('/v2/segments/reject', {
          id: segmentIds[1],
          text: 'Use "Reihe", as in the glossary.',
          expected_updated_at: confirmed.json().updated_at,
        });
        assert.equal(res.statusCode, 200, res.body);
        const { segment, comment } = res.json();
        assert.equal(segment.is_confirmed, false);
        assert.equal(segment.is_reviewed, false);
        assert.equal(segment.status, 'draft');
        assert.equal(segment.target, 'Zweite Zeile.', 'the target is kept');
        assert.equal(comment.segment_id, segmentIds[1]);
        assert.equal(comment.text, 'Use "Reihe", as in the glossary.');
        assert.equal(comment.is_resolved, false);
        await stream.next(
          (e) => e.event === 'segment' && e.data.segment_id === segmentIds[1] && e.data.status === 'draft',
        );
        await stream.next((e) => e.event === 'comment' && e.data.comment_id === comment.id);
        const listed = (await admin.get(`/v2/comments?document_id=${documentId}`)).json()[segmentIds[1]];
        assert.deepEqual(listed, [comment]);
        const unresolved = (
          await admin.get(`/v2/documents/segments?id=${documentId}&unresolved=true`)
        ).json();
        assert.deepEqual(
          unresolved.segments.map((s: { id: number }) => s.id),
          [segmentIds[1]],
        );
        const history = (await admin.get(`/v2/segments/history?id=${segmentIds[1]}`)).json();
        assert.equal(history.versions[0].origin, 'reject');
        assert.equal(history.versions[0].user, 'admin');
        assert.equal(
          comment.segment_revision_id,
          history.versions[0].version,
          'written on the rejected version',
        );
        const news = (await anna.get('/v2/notifications')).json();
        assert.equal(news.notifications[0].kind, 'rejected');
        assert.equal(news.notifications[0].link, `/documents/${documentId}?seg=2`);
        assert.match(news.notifications[0].text, /^admin sent back segment 2 of page\.txt: Use "Reihe"/);
        await admin.delete(`/v2/comments?comment_id=${comment.id}`);
      } finally {
        stream.close();
      }
    });

    test('reject: bad input names the parameter, a stale segment is a conflict and changes nothing, another organization a 404', async () => {
      const confirmed = (
        await admin.put('/v2/segments', { id: segmentIds[2], target: 'Dritte Zeile.', is_confirmed: true })
      ).json();
      const noText = await admin.post('/v2/segments/reject', { id: segmentIds[2], text: '  ' });
      assert.equal(noText.statusCode, 400);
      assert.match(noText.json().message, /text/);
      const noId = await admin.post('/v2/segments/reject', { text: 'x' });
      assert.equal(noId.statusCode, 400);
      assert.match(noId.json().message, /id/);
      const stale = await admin.post('/v2/segments/reject', {
        id: segmentIds[2],
        text: 'Too late',
        expected_updated_at: confirmed.updated_at - 5,
      });
      assert.equal(stale.statusCode, 409, stale.body);
      assert.equal((await admin.get(`/v2/segments?id=${segmentIds[2]}`)).json().is_confirmed, true);
      assert.equal(
        (await admin.get(`/v2/comments?document_id=${documentId}`)).json()[segmentIds[2]],
        undefined,
        'no comment without the change: one transaction',
      );
      assert.equal(
        (await rival.post('/v2/segments/reject', { id: segmentIds[2], text: 'x' })).statusCode,
        404,
      );
    });

    test('a document or a segment deleted takes its comments along', async () => {
      const projectId = (await admin.get(`/v2/documents?id=${documentId}`)).json().project_id;
      const other = await admin.uploadDocument(projectId, 'other.txt', 'One.\n\nTwo.\n');
      const [first, second] = (await admin.get(`/v2/documents?id=${other}&with_segments=true`)).json()
        .segments;
      const onSecond = (
        await admin.post(`/v2/comments?document_id=${other}&segment_id=${second.id}`, { text: 'On two' })
      ).json();
      await admin.post(`/v2/comments?document_id=${other}&segment_id=${first.id}`, { text: 'On one' });
      await admin.post(`/v2/comments?document_id=${other}`, { text: 'On the file' });
      assert.equal((await admin.delete(`/v2/segments?id=${second.id}`)).statusCode, 200);
      assert.equal(
        (await admin.put(`/v2/comments?comment_id=${onSecond.id}`, { is_resolved: true })).statusCode,
        404,
      );
      assert.deepEqual(Object.keys((await admin.get(`/v2/comments?document_id=${other}`)).json()).sort(), [
        String(first.id),
        'document',
      ]);
      assert.equal((await admin.delete(`/v2/documents?id=${other}`)).statusCode, 200);
      assert.equal((await admin.get(`/v2/comments?document_id=${other}`)).statusCode, 404);
      const left = await ctx.db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM comments WHERE document_id = ?',
        [other],
      );
      assert.equal(Number(left?.n), 0);
    });

    test('comments are exported as XLIFF notes that validate against the strict schema', async (t) => {
      const a = (
        await admin.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentIds[0]}`, {
          text: 'Check <b> & "quotes"',
        })
      ).json();
      const b = (
        await anna.post(`/v2/comments?document_id=${documentId}`, { text: 'Fine', parent_id: a.id })
      ).json();
      const c = (
        await anna.post(`/v2/comments?document_id=${documentId}`, { text: 'Whole file note' })
      ).json();
      const res = await admin.get(`/v2/documents/files?id=${documentId}`);
      assert.equal(res.statusCode, 200, res.body);
      const xliff = res.body;
      assert.match(xliff, /<header>\s*<note from="anna">Whole file note<\/note>\s*<\/header>/);
      const unit = new RegExp(`<trans-unit id="${segmentIds[0]}"[^>]*>[\\s\\S]*?</trans-unit>`).exec(
        xliff,
      )?.[0];
      assert.ok(unit, xliff);
      assert.match(unit, /<note from="admin">Check &lt;b&gt; &amp; "quotes"<\/note>/);
      assert.match(unit, /<note from="anna">Reply to admin: Fine<\/note>/);
      if (schemaSkipReason) t.skip(schemaSkipReason);
      else assert.equal(schemaErrors(xliff), '');
      for (const id of [b.id, a.id, c.id]) await admin.delete(`/v2/comments?comment_id=${id}`);
    });
  });
}
