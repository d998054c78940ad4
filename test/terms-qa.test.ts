// Term QA through the HTTP API on every store: the glossary the editor reads for a document (its project
// memory's terms in the document's pair; whoever may open the document may read it, nobody else), a forbidden
// term recorded as a QA error of the confirmation that went through it ("Confirm anyway"), and document QA
// listing missing, forbidden and inconsistently translated terms — which hold a document's hand-off too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

type Api = ReturnType<typeof client>;

interface Segment {
  id: number;
  position: number;
  source: string;
  target: string | null;
  status: string;
}

interface GlossaryTerm {
  concept_id: number;
  term_id: number;
  lang: string;
  text: string;
  status: string;
  definition: string | null;
}

const TEXT = [
  'Save the file.',
  'Open the file.',
  'Close the file.',
  'Delete the folder.',
  'Rename the folder.',
  'Print the page.',
].join('\n\n');

for (const target of await storeTargets()) {
  describe(`term QA on ${target.name}`, () => {
    let ctx: TestContext;
    let pm: Api;
    let translator: Api;
    let stranger: Api;
    let rival: Api;
    let memoryId: number;
    let docId: number;
    let segments: Segment[];

    before(async () => {
      ctx = await createContext(target);
      pm = client(
        ctx.app,
        await userKey(ctx, { username: 'pam', password: 'pam-password-1', role: 'project_manager' }),
      );
      translator = client(
        ctx.app,
        await userKey(ctx, {
          username: 'tom',
          password: 'tom-password-1',
          role: 'translator',
          email: 'tom@example.com',
        }),
      );
      stranger = client(
        ctx.app,
        await userKey(ctx, { username: 'sue', password: 'sue-password-1', role: 'translator' }),
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
      memoryId = (await pm.post('/v2/memories', { name: 'UI', srclang: 'en', trglang: 'de' })).json().id;
      for (const terms of [
        [
          { lang: 'en', text: 'file', definition: 'A named collection of data on a disk' },
          { lang: 'de', text: 'Datei', status: 'preferred' },
          { lang: 'de', text: 'Akte', status: 'admitted' },
        ],
        [
          { lang: 'en', text: 'folder' },
          { lang: 'de', text: 'Ordner', status: 'preferred' },
          { lang: 'de', text: 'Verzeichnis', status: 'forbidden' },
        ],
        // Another pair's term: never in this document's glossary.
        [
          { lang: 'fr', text: 'dossier' },
          { lang: 'es', text: 'carpeta' },
        ],
      ]) {
        const res = await pm.post(`/v2/memories/terms?id=${memoryId}`, { terms });
        assert.equal(res.statusCode, 200, res.body);
      }
      const project = await pm.post('/v2/projects', { name: 'App', memory_id: memoryId });
      assert.equal(project.statusCode, 200, project.body);
      docId = await pm.uploadDocument(project.json().id, 'ui.txt', TEXT);
      const shared = await pm.put('/v2/documents/share', {
        id: docId,
        email: 'tom@example.com',
        is_translator: true,
      });
      assert.equal(shared.statusCode, 200, shared.body);
      segments = (await translator.get(`/v2/documents/segments?id=${docId}&limit=100`)).json().segments;
      assert.equal(segments.length, 6);
    });
    after(() => ctx.close());

    test("the document's glossary: its memory's terms in its pair, for whoever may open the document", async () => {
      const res = await translator.get(`/v2/documents/terms?id=${docId}`);
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json() as { memory_id: number; srclang: string; terms: GlossaryTerm[] };
      assert.equal(answer.memory_id, memoryId);
      assert.deepEqual(answer.terms.map((t) => `${t.lang}:${t.text}:${t.status}`).sort(), [
        'de:Akte:admitted',
        'de:Datei:preferred',
        'de:Ordner:preferred',
        'de:Verzeichnis:forbidden',
        'en:file:preferred',
        'en:folder:preferred',
      ]);
      assert.equal(
        answer.terms.find((t) => t.text === 'file')?.definition,
        'A named collection of data on a disk',
      );
      // A translator not assigned to it, and another organization, see no such document.
      assert.equal((await stranger.get(`/v2/documents/terms?id=${docId}`)).statusCode, 404);
      assert.equal((await rival.get(`/v2/documents/terms?id=${docId}`)).statusCode, 404);
      const bad = await pm.get('/v2/documents/terms?id=abc');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /id/);
      // A term added to the memory is in the glossary at the next read.
      await pm.post(`/v2/memories/terms?id=${memoryId}`, {
        terms: [
          { lang: 'en', text: 'page' },
          { lang: 'de', text: 'Seite' },
        ],
      });
      const again = (await translator.get(`/v2/documents/terms?id=${docId}`)).json().terms as GlossaryTerm[];
      assert.ok(again.some((t) => t.text === 'Seite'));
    });

    test('a forbidden term is a QA error of the confirmation: recorded when confirmed anyway', async () => {
      const folder = segments[3];
      const put = await translator.put('/v2/segments', {
        id: folder.id,
        target: 'Löschen Sie das Verzeichnis.',
        is_confirmed: true,
      });
      assert.equal(put.statusCode, 200, put.body);
      assert.equal(put.json().status, 'confirmed');
      const history = (await translator.get(`/v2/segments/history?id=${folder.id}`)).json();
      assert.deepEqual(history.versions[0].qa_errors, ['"Verzeichnis" is a forbidden term; use "Ordner"']);
      // The preferred term confirms without any error.
      const fine = await translator.put('/v2/segments', {
        id: folder.id,
        target: 'Löschen Sie den Ordner.',
        is_confirmed: true,
      });
      assert.equal(fine.statusCode, 200, fine.body);
      const later = (await translator.get(`/v2/segments/history?id=${folder.id}`)).json();
      assert.deepEqual(later.versions[0].qa_errors, []);
      // Back to the forbidden one for the document QA below.
      await translator.put('/v2/segments', {
        id: folder.id,
        target: 'Löschen Sie das Verzeichnis.',
        is_confirmed: true,
      });
    });

    test('document QA lists missing, forbidden and inconsistent terms; a forbidden one holds the hand-off', async () => {
      const targets = [
        'Speichern Sie die Datei.',
        'Öffnen Sie die Datei.',
        'Schließen Sie die Akte.',
        null, // confirmed above with "Verzeichnis"
        'Benennen Sie es um.',
        'Drucken Sie die Seite.',
      ];
      for (const [i, text] of targets.entries()) {
        if (text === null) continue;
        const res = await translator.put('/v2/segments', {
          id: segments[i].id,
          target: text,
          is_confirmed: true,
        });
        assert.equal(res.statusCode, 200, res.body);
      }
      const res = await translator.get(`/v2/documents/qa?id=${docId}`);
      assert.equal(res.statusCode, 200, res.body);
      const report = res.json() as {
        counts: { error: number; warning: number };
        issues: { position: number; code: string; severity: string; message: string }[];
      };
      const terms = report.issues
        .filter((i) => i.code.startsWith('TERM_'))
        .map((i) => [i.position, i.code, i.severity, i.message]);
      const at = (i: number) => segments[i].position;
      assert.deepEqual(terms, [
        [
          at(2),
          'TERM_INCONSISTENT',
          'warning',
          'Term "file" is translated as "Akte" here and as "Datei" in 2 other segments',
        ],
        [
          at(3),
          'TERM_MISSING',
          'warning',
          'Term "folder" of the source is not translated as the termbase says: "Ordner"',
        ],
        [at(3), 'TERM_FORBIDDEN', 'error', '"Verzeichnis" is a forbidden term; use "Ordner"'],
        [
          at(4),
          'TERM_MISSING',
          'warning',
          'Term "folder" of the source is not translated as the termbase says: "Ordner"',
        ],
      ]);
      assert.equal(report.counts.error, 1);
      // QA errors stop the translator's hand-off; the forbidden term is one.
      const done = await translator.post('/v2/documents/done/translation', { documentIds: [docId] });
      assert.equal(done.statusCode, 409, done.body);
      assert.equal(done.json().qa_errors, 1);
      // The segment list's QA filter finds what the report finds.
      const errorsOnly = async () =>
        (
          (await translator.get(`/v2/documents/segments?id=${docId}&qa=error`)).json().segments as Segment[]
        ).map((s) => s.position);
      assert.deepEqual(await errorsOnly(), [at(3)]);
      // A term forbidden since is checked at once (the server's glossary follows the termbase).
      const added = await pm.post(`/v2/memories/terms?id=${memoryId}`, {
        terms: [
          { lang: 'en', text: 'print' },
          { lang: 'de', text: 'Ausdrucken', status: 'preferred' },
          { lang: 'de', text: 'Drucken', status: 'forbidden' },
        ],
      });
      assert.equal(added.statusCode, 200, added.body);
      assert.deepEqual(await errorsOnly(), [at(3), at(5)]);
      const confirmed = await translator.put('/v2/segments', {
        id: segments[5].id,
        target: 'Drucken Sie die Seite!',
        is_confirmed: true,
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const history = (await translator.get(`/v2/segments/history?id=${segments[5].id}`)).json();
      assert.deepEqual(history.versions[0].qa_errors, ['"Drucken" is a forbidden term; use "Ausdrucken"']);
    });
  });
}
