// The workflow through HTTP on every store: templates, assignment by e-mail, a document handed from
// translation to review and back with the checks of done, the review lock and its unlock, a project manager's
// segment locks, and the stage and assignment events on /v2/events.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { openEventStream } from './helpers/sse.ts';
import { storeTargets } from './helpers/stores.ts';

type Api = ReturnType<typeof client>;

const TEXT = 'The first sentence.\n\nThe second sentence has 3 apples.\n\nThe third one.\n';

for (const target of await storeTargets()) {
  describe(`workflow on ${target.name}`, () => {
    let ctx: TestContext;
    let admin: Api;
    let pm: Api;
    let translator: Api;
    let reviewer: Api;
    let pmKey: string;
    let translatorKey: string;
    let memory: number;
    before(async () => {
      ctx = await createContext(target);
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      admin = client(ctx.app, ctx.adminKey);
      pmKey = await userKey(ctx, { username: 'paula', password: 'paula-password', role: 'project_manager' });
      pm = client(ctx.app, pmKey);
      translatorKey = await userKey(ctx, {
        username: 'tom',
        password: 'tom-password',
        role: 'translator',
        email: 'tom@example.com',
      });
      translator = client(ctx.app, translatorKey);
      reviewer = client(
        ctx.app,
        await userKey(ctx, {
          username: 'rita',
          password: 'rita-password',
          role: 'reviewer',
          email: 'Rita@Example.com',
        }),
      );
      memory = (await admin.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json().id;
    });
    after(() => ctx?.close());

    async function reviewedProject(template = 2) {
      const project = await pm.post('/v2/projects', {
        name: 'Review me',
        memory_id: memory,
        workflow_template_id: template,
      });
      assert.equal(project.statusCode, 200, project.body);
      assert.equal(project.json().workflow_template_id, template);
      const doc = await pm.uploadDocument(project.json().id, 'text.txt', TEXT);
      for (const [email, flag] of [
        ['tom@example.com', 'is_translator'],
        ['rita@example.com', 'is_reviewer'],
      ]) {
        const res = await pm.put('/v2/documents/share', { id: doc, email, [flag]: true });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { id: doc });
      }
      const segments = (await translator.get(`/v2/documents/segments?id=${doc}`)).json().segments as {
        id: number;
        source: string;
      }[];
      return { project: project.json().id as number, doc, segments };
    }

    const targets: Record<string, string> = {
      'The first sentence.': 'Der erste Satz.',
      'The second sentence has 3 apples.': 'Der zweite Satz hat 3 Äpfel.',
      'The third one.': 'Der dritte.',
    };

    async function confirmAll(as: Api, segments: { id: number; source: string }[]) {
      for (const s of segments) {
        const res = await as.put('/v2/segments', { id: s.id, target: targets[s.source], is_confirmed: true });
        assert.equal(res.statusCode, 200, res.body);
      }
    }

    test('the bell: an assignment tells the assignee; done tells the next stage assignee; send back the translator', async () => {
      const unread = async (as: Api) =>
        (await as.get('/v2/notifications?unread=true')).json().notifications as {
          kind: string;
          text: string;
          link: string;
          actor: string;
        }[];
      await translator.post('/v2/notifications/read', {});
      await reviewer.post('/v2/notifications/read', {});
      const { doc, segments } = await reviewedProject();
      const assigned = await unread(translator);
      assert.equal(assigned.length, 1, JSON.stringify(assigned));
      assert.equal(assigned[0].kind, 'assigned');
      assert.equal(assigned[0].text, 'paula assigned you the translation of text.txt');
      assert.equal(assigned[0].link, `/documents/${doc}`);
      assert.equal((await unread(reviewer))[0].text, 'paula assigned you the review of text.txt');
      await reviewer.post('/v2/notifications/read', {});
      await confirmAll(translator, segments);
      assert.equal(
        (await translator.post('/v2/documents/done/translation', { documentIds: [doc] })).statusCode,
        200,
      );
      const handed = await unread(reviewer);
      assert.deepEqual(
        handed.map((n) => [n.kind, n.text, n.actor]),
        [['stage', 'tom handed text.txt on to you for review', 'tom']],
      );
      await translator.post('/v2/notifications/read', {});
      const back = await reviewer.post('/v2/documents/done/translation', {
        documentIds: [doc],
        isDone: false,
      });
      assert.equal(back.statusCode, 200, back.body);
      assert.deepEqual(
        (await unread(translator)).map((n) => [n.kind, n.text]),
        [['stage', 'rita sent text.txt back to you for translation']],
      );
    });

    test('templates: Lilt shape with stages; a project takes one by id, an unknown id is a 400 naming it', async () => {
      const res = await translator.get('/v2/workflows/templates');
      assert.equal(res.statusCode, 200);
      const templates = res.json();
      assert.deepEqual(
        templates.map((t: { id: number; stages: { assignment_type: string }[] }) => [
          t.id,
          t.stages.map((s) => s.assignment_type),
        ]),
        [
          [1, ['translate']],
          [2, ['translate', 'review']],
          [3, ['translate', 'review', 'review2']],
        ],
      );
      assert.equal(typeof templates[0].name, 'string');
      assert.equal(typeof templates[0].team_id, 'number');
      assert.equal(typeof templates[1].stages[1].name, 'string');
      const bad = await pm.post('/v2/projects', { name: 'X', memory_id: memory, workflow_template_id: 9 });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /workflow_template_id/);
      const plain = (await pm.post('/v2/projects', { name: 'Plain', memory_id: memory })).json();
      assert.equal(plain.workflow_template_id, 1);
    });

    test('share: by e-mail (any case) or username; the document names its translator and reviewer; bad input named', async () => {
      const { doc } = await reviewedProject();
      const answer = (await pm.get(`/v2/documents?id=${doc}`)).json();
      assert.equal(answer.translator_email, 'tom@example.com');
      assert.equal(answer.reviewer_email, 'Rita@Example.com');
      assert.deepEqual(
        answer.assignees.map((a: { stage: string; username: string }) => [a.stage, a.username]),
        [
          ['review', 'rita'],
          ['translate', 'tom'],
        ],
      );
      const unknown = await pm.put('/v2/documents/share', {
        id: doc,
        email: 'nobody@example.com',
        is_translator: true,
      });
      assert.equal(unknown.statusCode, 400);
      assert.match(unknown.json().message, /email/);
      const noFlag = await pm.put('/v2/documents/share', { id: doc, email: 'tom' });
      assert.equal(noFlag.statusCode, 400);
      assert.match(noFlag.json().message, /is_translator/);
      const noStage = await pm.put('/v2/documents/share', {
        id: doc,
        email: 'tom',
        is_second_reviewer: true,
      });
      assert.equal(noStage.statusCode, 400);
      assert.match(noStage.json().message, /second review/);
      // Unassigned, the translator no longer sees it.
      assert.equal(
        (await pm.put('/v2/documents/share', { id: doc, email: 'tom', is_translator: false })).statusCode,
        200,
      );
      assert.equal((await translator.get(`/v2/documents?id=${doc}`)).statusCode, 404);
      assert.equal((await pm.get(`/v2/documents?id=${doc}`)).json().translator_email, null);
    });

    test('done: checked (unconfirmed, QA errors), hands on to review; the reviewer sends back; reviewed segments stay locked until unlocked', async () => {
      const { project, doc, segments } = await reviewedProject();
      const stream = await openEventStream(ctx.app, `/v2/events?project_id=${project}`, pmKey);
      const events = {
        waitFor: async (name: string, match: (d: Record<string, unknown>) => boolean) =>
          (await stream.next((e) => e.event === name && match(e.data), 5000)).data,
        close: () => stream.close(),
      };
      try {
        // Nothing confirmed yet: refused, saying how many.
        const early = await translator.post('/v2/documents/done/translation', {
          documentIds: [doc],
          isDone: true,
        });
        assert.equal(early.statusCode, 409, early.body);
        assert.equal(early.json().code, 'WORKFLOW_CHECK_FAILED');
        assert.equal(early.json().unconfirmed_segments, 3);
        assert.match(early.json().message, /3 unconfirmed segments/);
        // The reviewer cannot edit in the translation stage.
        const tooSoon = await reviewer.put('/v2/segments', { id: segments[0].id, target: 'x' });
        assert.equal(tooSoon.statusCode, 409);
        assert.equal(tooSoon.json().code, 'NOT_YOUR_STAGE');
        // A QA error (a number missing) stops the hand-off too.
        await confirmAll(translator, segments);
        const second = segments.find((s) => s.source.includes('3 apples'))!;
        await translator.put('/v2/segments', {
          id: second.id,
          target: 'Der zweite Satz hat Äpfel.',
          is_confirmed: true,
        });
        const qa = await translator.post('/v2/documents/done/translation', { documentIds: [doc] });
        assert.equal(qa.statusCode, 409);
        assert.equal(qa.json().qa_errors, 1);
        assert.match(qa.json().message, /1 QA error/);
        await confirmAll(translator, [second]);

        const done = await translator.post('/v2/documents/done/translation', {
          documentIds: [doc],
          isDone: true,
        });
        assert.equal(done.statusCode, 200, done.body);
        assert.deepEqual(done.json(), [doc]);
        assert.equal((await pm.get(`/v2/documents?id=${doc}`)).json().stage, 'review');
        const stage = await events.waitFor('stage', (d) => d.document_id === doc && d.to === 'review');
        assert.equal(stage.action, 'done');
        assert.equal(stage.user, 'tom');
        assert.equal(typeof stage.assignee_user_id, 'number');

        // Now the translator may not edit, the reviewer may; the reviewer signs one segment off.
        const late = await translator.put('/v2/segments', { id: segments[0].id, target: 'y' });
        assert.equal(late.json().code, 'NOT_YOUR_STAGE');
        const signed = await reviewer.put('/v2/segments', { id: segments[0].id, is_reviewed: true });
        assert.equal(signed.statusCode, 200, signed.body);
        assert.equal(signed.json().status, 'reviewed');

        // Sent back: the reviewed segment is locked for the translator, the others are free.
        const back = await reviewer.post('/v2/documents/done/translation', {
          documentIds: [doc],
          isDone: false,
        });
        assert.equal(back.statusCode, 200, back.body);
        assert.equal((await pm.get(`/v2/documents?id=${doc}`)).json().stage, 'translate');
        await events.waitFor(
          'stage',
          (d) => d.document_id === doc && d.action === 'sent_back' && d.user === 'rita',
        );
        const locked = await translator.put('/v2/segments', {
          id: segments[0].id,
          target: 'Der allererste Satz.',
        });
        assert.equal(locked.statusCode, 409);
        assert.equal(locked.json().code, 'SEGMENT_LOCKED');
        const free = await translator.put('/v2/segments', {
          id: segments[2].id,
          target: 'Der dritte Satz.',
          is_confirmed: true,
        });
        assert.equal(free.statusCode, 200, free.body);

        // Lilt's review unlock (a manager's): confirmed, no longer reviewed, editable again.
        const unlocked = await pm.post('/v2/segments/review/unlock', {
          segmentIds: [segments[0].id, segments[1].id],
        });
        assert.deepEqual(unlocked.json(), [segments[0].id]);
        const fixed = await translator.put('/v2/segments', {
          id: segments[0].id,
          target: 'Der allererste Satz.',
          is_confirmed: true,
        });
        assert.equal(fixed.statusCode, 200, fixed.body);

        // Done again, then the review done: the document is done, review complete.
        assert.equal(
          (await translator.post('/v2/documents/done/translation', { documentIds: [doc] })).statusCode,
          200,
        );
        const reviewDone = await reviewer.post('/v2/documents/done/review', {
          documentIds: [doc],
          isDone: true,
        });
        assert.equal(reviewDone.statusCode, 200, reviewDone.body);
        const finished = (await pm.get(`/v2/documents?id=${doc}`)).json();
        assert.equal(finished.stage, 'done');
        assert.equal(finished.is_review_complete, true);
        // Finished: nobody assigned edits it; a manager unlocks it back to translation.
        assert.equal(
          (await reviewer.put('/v2/segments', { id: segments[1].id, target: 'z' })).json().code,
          'NOT_YOUR_STAGE',
        );
        assert.equal(
          (await translator.post('/v2/documents/done/review', { documentIds: [doc], isDone: false }))
            .statusCode,
          409,
        );
        const reopened = await pm.post('/v2/documents/done/unlock', { documentIds: [doc] });
        assert.deepEqual(reopened.json(), [doc]);
        const again = (await pm.get(`/v2/documents?id=${doc}`)).json();
        assert.equal(again.stage, 'translate');
        assert.equal(again.is_review_complete, false);
        await events.waitFor('stage', (d) => d.document_id === doc && d.action === 'unlocked');
      } finally {
        events.close();
      }
    });

    test('wrong stage: review done of a document in translation, a second document not assigned refuses the whole request', async () => {
      const first = await reviewedProject();
      const other = await reviewedProject();
      const notYet = await reviewer.post('/v2/documents/done/review', { documentIds: [first.doc] });
      assert.equal(notYet.statusCode, 409);
      assert.match(notYet.json().message, /translate stage/);
      await pm.put('/v2/documents/share', { id: other.doc, email: 'tom', is_translator: false });
      await confirmAll(translator, first.segments);
      const mixed = await translator.post('/v2/documents/done/translation', {
        documentIds: [first.doc, other.doc],
      });
      assert.equal(mixed.statusCode, 404);
      assert.equal((await pm.get(`/v2/documents?id=${first.doc}`)).json().stage, 'translate');
      const empty = await translator.post('/v2/documents/done/translation', { documentIds: [] });
      assert.equal(empty.statusCode, 400);
      assert.match(empty.json().message, /documentIds/);
    });

    test("another organization's document is a 404 to every workflow route, its users unknown to share", async () => {
      const { doc, segments } = await reviewedProject();
      const rival = client(
        ctx.app,
        await userKey(ctx, {
          username: 'mallory',
          password: 'mallory-password',
          role: 'admin',
          organization: 'rival',
        }),
      );
      const calls = [
        rival.put('/v2/documents/share', { id: doc, email: 'tom', is_translator: true }),
        rival.post('/v2/documents/done/translation', { documentIds: [doc] }),
        rival.post('/v2/documents/done/review', { documentIds: [doc], isDone: true }),
        rival.post('/v2/documents/done/unlock', { documentIds: [doc] }),
        rival.post('/v2/segments/lock', { document_id: doc }),
      ];
      for (const res of await Promise.all(calls)) assert.equal(res.statusCode, 404, res.body);
      await pm.put('/v2/segments', { id: segments[0].id, target: 'Der erste Satz.', is_confirmed: true });
      await pm.put('/v2/segments', { id: segments[0].id, is_reviewed: true });
      assert.deepEqual(
        (await rival.post('/v2/segments/review/unlock', { segmentIds: [segments[0].id] })).json(),
        [],
      );
      assert.equal((await pm.get(`/v2/segments?id=${segments[0].id}`)).json().is_reviewed, true);
      // A rival's user is no user of ours to assign.
      const foreign = await pm.put('/v2/documents/share', { id: doc, email: 'mallory', is_translator: true });
      assert.equal(foreign.statusCode, 400);
    });

    test('translate only: done finishes the document; there is no review to send it back from', async () => {
      const project = (await pm.post('/v2/projects', { name: 'Quick', memory_id: memory })).json().id;
      const doc = await pm.uploadDocument(project, 'quick.txt', TEXT);
      await pm.put('/v2/documents/share', { id: doc, email: 'tom', is_translator: true });
      const refused = await pm.put('/v2/documents/share', { id: doc, email: 'rita', is_reviewer: true });
      assert.equal(refused.statusCode, 400);
      const segments = (await translator.get(`/v2/documents/segments?id=${doc}`)).json().segments;
      await confirmAll(translator, segments);
      assert.equal(
        (await translator.post('/v2/documents/done/translation', { documentIds: [doc] })).statusCode,
        200,
      );
      const finished = (await pm.get(`/v2/documents?id=${doc}`)).json();
      assert.equal(finished.stage, 'done');
      assert.equal(finished.is_review_complete, false);
    });

    test("Lilt's job create: workflowTemplateId of the job, or of a language pair, is its projects' template", async () => {
      const file = (await pm.upload('/v2/files?name=job.txt', TEXT)).json().id;
      await admin.post('/v2/memories', { name: 'TM fr', srclang: 'en', trglang: 'fr' });
      const fr = (await admin.get('/v2/memories'))
        .json()
        .find((m: { trglang: string }) => m.trglang === 'fr').id;
      const job = await pm.post('/v2/jobs', {
        name: 'Reviewed job',
        fileIds: [file],
        srcLang: 'en',
        workflowTemplateId: 2,
        languagePairs: [
          { trgLang: 'de', memoryId: memory },
          { trgLang: 'fr', memoryId: fr, workflowTemplateId: '3' },
        ],
      });
      assert.equal(job.statusCode, 200, job.body);
      const projects = (await pm.get('/v2/projects')).json() as {
        job_id: number;
        trglang: string;
        workflow_template_id: number;
      }[];
      const ofJob = projects.filter((p) => p.job_id === job.json().id);
      assert.deepEqual(ofJob.map((p) => [p.trglang, p.workflow_template_id]).sort(), [
        ['de', 2],
        ['fr', 3],
      ]);
      // Another team's template id on Lilt means nothing here: the job is created, its project translate only.
      const foreign = await pm.post('/v2/jobs', {
        name: 'From Lilt',
        fileIds: [file],
        srcLang: 'en',
        languagePairs: [{ trgLang: 'de', memoryId: memory, workflowTemplateId: 4711 }],
      });
      assert.equal(foreign.statusCode, 200, foreign.body);
      const made = (await pm.get('/v2/projects'))
        .json()
        .find((p: { job_id: number }) => p.job_id === foreign.json().id);
      assert.equal(made.workflow_template_id, 1);
    });

    test('locks: min_score 101 locks the context matches pre-translation filled, and nothing else', async () => {
      const project = (await pm.post('/v2/projects', { name: 'Context', memory_id: memory })).json().id;
      const body = 'Click Save.\n\nThen close the window.\n\nA brand new sentence.\n';
      const first = await pm.uploadDocument(project, 'first.txt', 'Click Save.\n\nThen close the window.\n');
      for (const s of (await pm.get(`/v2/documents/segments?id=${first}`)).json().segments) {
        await pm.put('/v2/segments', { id: s.id, target: `DE ${s.source}`, is_confirmed: true });
      }
      const second = await pm.uploadDocument(project, 'second.txt', body);
      const started = await pm.post('/v2/documents/pretranslate', { id: [second] });
      assert.equal(started.statusCode, 202, started.body);
      for (let i = 0; i < 2000; i++) {
        if ((await pm.get(`/v2/documents?id=${second}`)).json().status.pretranslation === 'idle') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const segs = (await pm.get(`/v2/documents/segments?id=${second}`)).json().segments as {
        id: number;
        match_score: number | null;
        context_match: boolean;
      }[];
      const context = segs.filter((s) => s.context_match).map((s) => s.id);
      assert.ok(context.length >= 1, JSON.stringify(segs));
      assert.ok(context.length < segs.length);
      const locked = await pm.post('/v2/segments/lock', { document_id: second, min_score: 101 });
      assert.deepEqual(locked.json().segment_ids, context);
    });

    test('locks: confirming a segment leaves its locked repetition unfilled', async () => {
      const project = (await pm.post('/v2/projects', { name: 'Repeats', memory_id: memory })).json().id;
      const doc = await pm.uploadDocument(project, 'repeats.txt', 'Same line.\n\nSame line.\n\nSame line.\n');
      const [first, second, third] = (await pm.get(`/v2/documents/segments?id=${doc}`)).json().segments;
      await pm.post('/v2/segments/lock', { document_id: doc, segment_ids: [second.id] });
      await pm.put('/v2/segments', { id: first.id, target: 'Gleiche Zeile.', is_confirmed: true });
      const after = (await pm.get(`/v2/documents/segments?id=${doc}`)).json().segments;
      assert.deepEqual(
        after.map((s: { id: number; is_confirmed: boolean; target: string | null }) => [
          s.id,
          s.is_confirmed,
          s.target,
        ]),
        [
          [first.id, true, 'Gleiche Zeile.'],
          [second.id, false, null],
          [third.id, true, 'Gleiche Zeile.'],
        ],
      );
    });

    test('locks: a manager locks segments (listed, or all); nobody edits them, a replace leaves them; unlocked again', async () => {
      const { doc, segments } = await reviewedProject();
      const lock = await pm.post('/v2/segments/lock', { document_id: doc, segment_ids: [segments[1].id] });
      assert.equal(lock.statusCode, 200, lock.body);
      assert.deepEqual(lock.json(), { document_id: doc, locked: true, segment_ids: [segments[1].id] });
      const page = (await translator.get(`/v2/documents/segments?id=${doc}`)).json().segments;
      assert.deepEqual(
        page.map((s: { locked: boolean }) => s.locked),
        [false, true, false],
      );
      for (const as of [translator, pm, admin]) {
        const res = await as.put('/v2/segments', { id: segments[1].id, target: 'Gesperrt.' });
        assert.equal(res.statusCode, 409);
        assert.equal(res.json().code, 'SEGMENT_LOCKED');
      }
      // A replace over every target changes the two free segments and leaves the locked one as it was.
      await translator.put('/v2/segments', { id: segments[0].id, target: 'Satz eins.' });
      await translator.put('/v2/segments', { id: segments[2].id, target: 'Satz drei.' });
      await pm.post('/v2/segments/lock', { document_id: doc, segment_ids: [segments[1].id], locked: false });
      await pm.put('/v2/segments', { id: segments[1].id, target: 'Satz zwei.' });
      await pm.post('/v2/segments/lock', { document_id: doc, segment_ids: [segments[1].id] });
      const replaced = await translator.post('/v2/documents/replace', {
        id: doc,
        find: 'Satz',
        replace: 'Zeile',
      });
      assert.equal(replaced.statusCode, 200, replaced.body);
      assert.equal(replaced.json().changed, 2);
      const after = (await translator.get(`/v2/documents/segments?id=${doc}`)).json().segments;
      assert.deepEqual(
        after.map((s: { target: string }) => s.target),
        ['Zeile eins.', 'Satz zwei.', 'Zeile drei.'],
      );
      const all = await pm.post('/v2/segments/lock', { document_id: doc });
      assert.deepEqual(all.json().segment_ids, [segments[0].id, segments[2].id]);
      const none = await pm.post('/v2/segments/lock', { document_id: doc, locked: false });
      assert.equal(none.json().segment_ids.length, 3);
      assert.equal(
        (await translator.put('/v2/segments', { id: segments[1].id, target: 'Frei.' })).statusCode,
        200,
      );
      assert.equal((await translator.post('/v2/segments/lock', { document_id: doc })).statusCode, 403);
      const badScore = await pm.post('/v2/segments/lock', { document_id: doc, min_score: 500 });
      assert.equal(badScore.statusCode, 400);
      assert.match(badScore.json().message, /min_score/);
    });

    test("send back (POST /v2/segments/reject) is refused as an edit is: outside the reviewer's stage, and on a locked segment", async () => {
      const { doc, segments } = await reviewedProject();
      await confirmAll(translator, segments);
      // In translation the reviewer may not send a segment back: nothing changes, no comment is left.
      const early = await reviewer.post('/v2/segments/reject', { id: segments[0].id, text: 'Too soon.' });
      assert.equal(early.statusCode, 409, early.body);
      assert.equal(early.json().code, 'NOT_YOUR_STAGE');
      assert.equal((await pm.get(`/v2/segments?id=${segments[0].id}`)).json().status, 'confirmed');
      const none = (await pm.get(`/v2/comments?document_id=${doc}`)).json();
      assert.deepEqual(none, {}, 'no comment from a refused send-back');
      const done = await translator.post('/v2/documents/done/translation', {
        documentIds: [doc],
        isDone: true,
      });
      assert.equal(done.statusCode, 200, done.body);
      // A segment a manager locked stays as it is.
      await pm.post('/v2/segments/lock', { document_id: doc, segment_ids: [segments[1].id] });
      const locked = await reviewer.post('/v2/segments/reject', { id: segments[1].id, text: 'Redo.' });
      assert.equal(locked.statusCode, 409, locked.body);
      assert.equal(locked.json().code, 'SEGMENT_LOCKED');
      // In review, on a free segment, it goes back to the translator.
      const sent = await reviewer.post('/v2/segments/reject', { id: segments[0].id, text: 'Redo, please.' });
      assert.equal(sent.statusCode, 200, sent.body);
      assert.equal(sent.json().segment.status, 'draft');
    });
  });
}
