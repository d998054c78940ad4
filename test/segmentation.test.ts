// Segmentation through HTTP on every store (issue 25): software strings keep one segment per entry, prose is
// cut by sentence unless the memory holds the whole paragraph (TM-driven), a project setting overrides the
// format's default, and the project's rules travel as SRX 2.0.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { client, multipartBody } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';
import { schemaSkipReason, wellFormedErrors } from './helpers/xmllint.ts';

const PO = readFileSync(join(import.meta.dirname, 'fixtures', 'segmentation', 'tool.po'));

/** The memory: every message of tool.po word for word, the two-sentence ones whole. */
const MEMORY: [string, string][] = [
  ["The group `%s' is not a system group. Exiting.", 'Die Gruppe »%s« ist keine Systemgruppe. Programmende.'],
  ['Exiting.', 'Programmende.'],
  ["Adding user `%s' ... Done.", 'Benutzer »%s« wird hinzugefügt … Fertig.'],
  [
    'Please enter a new password. It must have eight characters or more.',
    'Bitte geben Sie ein neues Passwort ein. Es muss mindestens acht Zeichen haben.',
  ],
];

interface Segment {
  id: number;
  position: number;
  source: string;
  target: string | null;
  status: string;
  match_score: number | null;
}

/** The `document` events of a document's live stream, as they arrive (GET /v2/events on a listening app). */
async function documentEvents(ctx: TestContext, documentId: number) {
  const { port } = ctx.app.server.address() as AddressInfo;
  const events: Record<string, unknown>[] = [];
  const request = http.get({
    host: '127.0.0.1',
    port,
    path: `/v2/events?document_id=${documentId}`,
    headers: { authorization: `Bearer ${ctx.adminKey}`, accept: 'text/event-stream' },
  });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.on('response', resolve);
    request.on('error', reject);
  });
  let raw = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    raw += chunk;
    for (let end = raw.indexOf('\n\n'); end >= 0; end = raw.indexOf('\n\n')) {
      const block = raw.slice(0, end);
      raw = raw.slice(end + 2);
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (/^event: document$/m.test(block) && data) events.push(JSON.parse(data));
    }
  });
  response.on('error', () => {});
  return {
    /** The stream's first event (the document's counts): from then on the stream is subscribed. */
    async ready() {
      for (let i = 0; i < 1000 && events.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      return events.length > 0;
    },
    async reloaded() {
      for (let i = 0; i < 500 && !events.some((e) => e.reload === true); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      return events.some((e) => e.reload === true);
    },
    close: () => request.destroy(),
  };
}

for (const target of await storeTargets()) {
  describe(`segmentation on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let memoryId: number;
    before(async () => {
      ctx = await createContext(target);
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      api = client(ctx.app, ctx.adminKey);
      memoryId = (await api.post('/v2/memories', { name: 'Tool TM', srclang: 'en', trglang: 'de' })).json()
        .id;
      for (const [source, t] of MEMORY) {
        const res = await api.post('/v2/segments', { memory_id: memoryId, source, target: t });
        assert.equal(res.statusCode, 200, res.body);
      }
    });
    after(() => ctx.close());

    async function project(segmentation?: string) {
      const res = await api.post('/v2/projects', {
        name: `Tool ${segmentation ?? 'default'}`,
        memory_id: memoryId,
        ...(segmentation ? { segmentation } : {}),
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { id: number; segmentation: string; segmentation_rules: string };
    }

    /** Uploads a file, pre-translated with auto-accept, and answers its segments once both are done. */
    async function imported(projectId: number, name: string, body: Buffer | string) {
      const res = await api.upload('/v2/documents/files', body, {
        'lilt-api': JSON.stringify({ name, project_id: projectId, pretranslate: 'TM', auto_accept: true }),
      });
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().id as number;
      for (let i = 0; ; i++) {
        const doc = (await api.get(`/v2/documents?id=${id}&with_segments=true`)).json();
        if (!doc.import_in_progress && doc.status.pretranslation === 'idle' && !doc.is_pretranslating) {
          assert.equal(doc.import_succeeded, true, doc.import_error_message);
          return { id, segments: doc.segments as Segment[] };
        }
        assert.ok(i < 3000, 'the import and pre-translation never ended');
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    test('PO: one segment per message, each an exact match, exported once', async () => {
      const p = await project();
      assert.equal(p.segmentation, 'auto');
      assert.equal(p.segmentation_rules, 'built-in');
      const doc = await imported(p.id, 'tool.po', PO);
      assert.deepEqual(
        doc.segments.map((s) => s.source),
        MEMORY.map(([source]) => source),
      );
      for (const s of doc.segments) {
        assert.equal(s.match_score, 100, s.source);
        assert.equal(s.status, 'confirmed', s.source);
      }
      const exported = await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`);
      assert.equal(exported.statusCode, 200);
      assert.match(
        exported.body,
        /msgid "The group `%s' is not a system group\. Exiting\.\\n"\nmsgstr "Die Gruppe »%s« ist keine Systemgruppe\. Programmende\.\\n"\n/,
      );
      assert.equal(exported.body.split('Programmende.').length - 1, 2, 'each translation written once');
      assert.match(exported.body, /msgstr "Programmende\.\\n"/);
    });

    test('PO forced to sentences: the old cut, one sentence a fuzzy match and one a new segment', async () => {
      const p = await project('sentence');
      const doc = await imported(p.id, 'tool.po', PO);
      assert.equal(doc.segments.length, 7);
      const first = doc.segments[0];
      assert.equal(first.source, "The group `%s' is not a system group.");
      assert.notEqual(first.match_score, 100);
    });

    test('prose: sentences, unless the memory holds the whole paragraph (TM-driven)', async () => {
      const p = await project();
      const text =
        'Please enter a new password. It must have eight characters or more.\n\n' +
        'Open the file. Save it again.\n';
      const doc = await imported(p.id, 'notes.txt', text);
      assert.deepEqual(
        doc.segments.map((s) => [s.source, s.match_score]),
        [
          ['Please enter a new password. It must have eight characters or more.', 100],
          ['Open the file.', null],
          ['Save it again.', null],
        ],
      );
      const exported = await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`);
      assert.equal(
        exported.body,
        'Bitte geben Sie ein neues Passwort ein. Es muss mindestens acht Zeichen haben.\n\n' +
          'Open the file. Save it again.\n',
      );
    });

    test('the setting: paragraph keeps prose whole; set, read back, refused when unknown', async () => {
      const p = await project();
      const changed = await api.put('/v2/projects', { id: p.id, segmentation: 'paragraph' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().segmentation, 'paragraph');
      assert.equal((await api.get(`/v2/projects?id=${p.id}`)).json()[0].segmentation, 'paragraph');
      const doc = await imported(p.id, 'notes.txt', 'Open the file. Save it again.\n');
      assert.deepEqual(
        doc.segments.map((s) => s.source),
        ['Open the file. Save it again.'],
      );
      const bad = await api.put('/v2/projects', { id: p.id, segmentation: 'words' });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /segmentation/);
    });

    test('SRX: the built-in rules exported, imported elsewhere, and used', async () => {
      const p = await project('sentence');
      const exported = await api.get(`/v2/projects/segmentation?id=${p.id}`);
      assert.equal(exported.statusCode, 200);
      assert.match(String(exported.headers['content-type']), /^application\/xml/);
      assert.match(exported.body, /<srx version="2\.0" xmlns="http:\/\/www\.lisa\.org\/srx20">/);
      assert.match(exported.body, /<languagerule languagerulename="English">/);
      // xmllint reads it (missing outside CI: the helper's rule, as the XLIFF tests have it).
      if (!schemaSkipReason) assert.equal(wellFormedErrors(exported.body), '');

      // The exported rules as another project's own: abbreviations hold, sentences cut.
      const other = await project('sentence');
      const put = await ctx.app.inject({
        method: 'PUT',
        url: `/v2/projects/segmentation?id=${other.id}`,
        headers: { authorization: `Bearer ${ctx.adminKey}`, 'content-type': 'application/xml' },
        payload: exported.body,
      });
      assert.equal(put.statusCode, 200, put.body);
      assert.equal(put.json().segmentation_rules, 'project');
      const doc = await imported(other.id, 'notes.txt', 'Dr. Smith came at 10. He left. See p. 5 now.\n');
      assert.deepEqual(
        doc.segments.map((s) => s.source),
        ['Dr. Smith came at 10.', 'He left.', 'See p. 5 now.'],
      );
      // Read back as written (normalised), and back to the built-in rules.
      const again = await api.get(`/v2/projects/segmentation?id=${other.id}`);
      assert.equal(again.body, exported.body);
      const reset = await api.delete(`/v2/projects/segmentation?id=${other.id}`);
      assert.equal(reset.json().segmentation_rules, 'built-in');
    });

    test('SRX: own rules cut as SRX says; bad files refused with line and column', async () => {
      const p = await project('sentence');
      const srx = `<?xml version="1.0"?>
<srx version="2.0" xmlns="http://www.lisa.org/srx20">
  <header cascade="no"/>
  <body>
    <languagerules>
      <languagerule languagerulename="Semicolons">
        <rule break="yes"><beforebreak>;</beforebreak><afterbreak>\\s</afterbreak></rule>
      </languagerule>
    </languagerules>
    <maprules><languagemap languagepattern=".*" languagerulename="Semicolons"/></maprules>
  </body>
</srx>`;
      const form = multipartBody({}, { name: 'rules.srx', data: Buffer.from(srx) });
      const put = await ctx.app.inject({
        method: 'PUT',
        url: `/v2/projects/segmentation?id=${p.id}`,
        headers: { authorization: `Bearer ${ctx.adminKey}`, 'content-type': form.contentType },
        payload: form.body,
      });
      assert.equal(put.statusCode, 200, put.body);
      const doc = await imported(p.id, 'notes.txt', 'One; two. Three; four.\n');
      assert.deepEqual(
        doc.segments.map((s) => s.source),
        ['One;', 'two. Three;', 'four.'],
      );

      const refuse = async (body: string, pattern: RegExp) => {
        const res = await ctx.app.inject({
          method: 'PUT',
          url: `/v2/projects/segmentation?id=${p.id}`,
          headers: { authorization: `Bearer ${ctx.adminKey}`, 'content-type': 'application/xml' },
          payload: body,
        });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, 'MALFORMED_FILE');
        assert.match(res.json().message, pattern);
      };
      await refuse(srx.replace('</languagerule>', ''), /line \d+, column \d+/);
      await refuse(srx.replace('<beforebreak>;', '<beforebreak>(;'), /line 7, column \d+.*beforebreak/);
      await refuse(
        srx.replace(
          '<?xml version="1.0"?>',
          '<?xml version="1.0"?><!DOCTYPE srx [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
        ),
        /line 1/,
      );
      await refuse(srx.replace('version="2.0"', 'version="1.0"'), /SRX 2\.0/);
      await refuse(
        srx.replace('languagerulename="Semicolons"/>', 'languagerulename="Commas"/>'),
        /line 10, column \d+: languagerulename "Commas" names no languagerule/,
      );
      // Still the project's rules after every refusal.
      assert.match((await api.get(`/v2/projects/segmentation?id=${p.id}`)).body, /Semicolons/);
    });

    test('SRX: a rule that backtracks without end is refused, and the server keeps answering', async () => {
      const short = await createContext(target, { TESSERA_REGEX_TIMEOUT_MS: '1500' });
      try {
        const shortApi = client(short.app, short.adminKey);
        const mem = (await shortApi.post('/v2/memories', { name: 'M', srclang: 'en', trglang: 'de' })).json();
        const p = (await shortApi.post('/v2/projects', { name: 'P', memory_id: mem.id })).json();
        const srx = `<srx version="2.0" xmlns="http://www.lisa.org/srx20"><header cascade="no"/><body><languagerules>
<languagerule languagerulename="Evil"><rule break="yes"><beforebreak>(a+)+b</beforebreak><afterbreak></afterbreak></rule></languagerule>
</languagerules><maprules><languagemap languagepattern=".*" languagerulename="Evil"/></maprules></body></srx>`;
        const pending = short.app.inject({
          method: 'PUT',
          url: `/v2/projects/segmentation?id=${p.id}`,
          headers: { authorization: `Bearer ${short.adminKey}`, 'content-type': 'application/xml' },
          payload: srx,
        });
        const health = await short.app.inject({ method: 'GET', url: '/healthz' });
        assert.equal(health.statusCode, 200);
        const res = await pending;
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, 'REGEX_TIMEOUT');
        assert.equal(
          (await shortApi.get(`/v2/projects?id=${p.id}`)).json()[0].segmentation_rules,
          'built-in',
        );

        // Rules the probe text does not trip, and a document that does: the import ends at its deadline.
        const sly = srx.replace('(a+)+b', '(q+q+)+r');
        const kept = await short.app.inject({
          method: 'PUT',
          url: `/v2/projects/segmentation?id=${p.id}`,
          headers: { authorization: `Bearer ${short.adminKey}`, 'content-type': 'application/xml' },
          payload: sly,
        });
        assert.equal(kept.statusCode, 200, kept.body);
        const doc = await shortApi.upload('/v2/documents/files', `Start. ${'q'.repeat(40)}.\n`, {
          'lilt-api': JSON.stringify({ name: 'trap.txt', project_id: p.id }),
        });
        assert.equal(doc.statusCode, 200, doc.body);
        let view: {
          import_in_progress: boolean;
          import_succeeded: boolean;
          import_error_message: string | null;
        };
        for (;;) {
          view = (await shortApi.get(`/v2/documents?id=${doc.json().id}`)).json();
          if (!view.import_in_progress) break;
          assert.equal((await short.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.equal(view.import_succeeded, false);
        assert.match(String(view.import_error_message), /segmentation rules took longer than/);
      } finally {
        await short.close();
      }
    });

    test('join and split: one paragraph only, the export unchanged by the join, history and live events', async () => {
      const p = await project();
      const text = 'Open the file. Save it again.\n\nClose it.\n';
      const doc = await imported(p.id, 'steps.txt', text);
      const [open, save, close] = doc.segments;
      assert.deepEqual(
        doc.segments.map((s) => s.source),
        ['Open the file.', 'Save it again.', 'Close it.'],
      );
      const confirmed = await api.put('/v2/segments', {
        id: open.id,
        target: 'Öffne die Datei.',
        is_confirmed: true,
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const exportText = async () => (await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`)).body;
      const before = await exportText();
      assert.equal(before, 'Öffne die Datei. Save it again.\n\nClose it.\n');

      const live = await documentEvents(ctx, doc.id);
      assert.ok(await live.ready(), 'the live stream opens');
      const joined = await api.post('/v2/segments/join', { id: open.id });
      assert.equal(joined.statusCode, 200, joined.body);
      assert.equal(joined.json().removed, save.id);
      const [whole] = joined.json().segments as Segment[];
      assert.equal(whole.id, open.id);
      assert.equal(whole.source, 'Open the file. Save it again.');
      assert.equal(whole.target, 'Öffne die Datei. Save it again.');
      assert.equal(whole.status, 'draft');
      assert.equal(await exportText(), before, 'a join changes no byte of the export');
      assert.ok(await live.reloaded(), 'viewers are told to read the segments again');
      live.close();
      const after = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json();
      assert.equal(after.num_segments, 2);
      assert.deepEqual(
        (after.segments as Segment[]).map((s) => [s.position, s.source]),
        [
          [0, 'Open the file. Save it again.'],
          [1, 'Close it.'],
        ],
      );
      const history = (await api.get(`/v2/segments/history?id=${open.id}`)).json();
      assert.equal(history.versions[0].origin, 'join');
      assert.equal(history.versions[0].target, 'Öffne die Datei. Save it again.');

      // Across paragraphs, past the end: refused, saying why.
      const across = await api.post('/v2/segments/join', { id: open.id });
      assert.equal(across.statusCode, 409);
      assert.equal(across.json().code, 'SEGMENTS_NOT_JOINABLE');
      assert.match(across.json().message, /Segments 1 and 2 belong to different paragraphs/);
      const last = await api.post('/v2/segments/join', { id: close.id });
      assert.equal(last.statusCode, 409);
      assert.match(last.json().message, /Segment 2 is the last/);

      // Split where the translator says, in the source and in the target.
      const target = 'Öffne die Datei. Speichere sie erneut.';
      await api.put('/v2/segments', { id: open.id, target });
      const noTargetCut = await api.post('/v2/segments/split', { id: open.id, offset: 15 });
      assert.equal(noTargetCut.statusCode, 400);
      assert.match(noTargetCut.json().message, /target_offset/);
      const edge = await api.post('/v2/segments/split', { id: open.id, offset: 0, target_offset: 17 });
      assert.equal(edge.statusCode, 400);
      assert.match(edge.json().message, /Parameter "offset"/);
      const split = await api.post('/v2/segments/split', { id: open.id, offset: 15, target_offset: 17 });
      assert.equal(split.statusCode, 200, split.body);
      const parts = split.json().segments as Segment[];
      assert.deepEqual(
        parts.map((s) => [s.position, s.source, s.target, s.status]),
        [
          [0, 'Open the file.', 'Öffne die Datei.', 'draft'],
          [1, 'Save it again.', 'Speichere sie erneut.', 'draft'],
        ],
      );
      for (const part of parts) {
        const res = await api.put('/v2/segments', { id: part.id, target: part.target, is_confirmed: true });
        assert.equal(res.statusCode, 200, res.body);
      }
      assert.equal(await exportText(), 'Öffne die Datei. Speichere sie erneut.\n\nClose it.\n');
      assert.equal(
        (await api.get(`/v2/segments/history?id=${parts[1].id}`)).json().versions.at(-1).origin,
        'split',
      );
      const segs = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json()
        .segments as Segment[];
      assert.deepEqual(
        segs.map((s) => s.position),
        [0, 1, 2],
      );
    });

    test('split never cuts a tag or a tag pair; tags stay with their text', async () => {
      const p = await project();
      const doc = await imported(p.id, 'page.html', '<p>Click <b>Save now</b> please, then wait.</p>');
      const [segment] = doc.segments;
      const source = segment.source;
      const inPair = await api.post('/v2/segments/split', { id: segment.id, offset: source.indexOf('now') });
      assert.equal(inPair.statusCode, 400);
      assert.match(inPair.json().message, /Parameter "offset": the cut falls between .* and its closing tag/);
      const inTag = await api.post('/v2/segments/split', { id: segment.id, offset: source.indexOf('<') + 2 });
      assert.equal(inTag.statusCode, 400);
      assert.match(inTag.json().message, /inside the tag/);
      const cut = source.indexOf(' then');
      const ok = await api.post('/v2/segments/split', { id: segment.id, offset: cut });
      assert.equal(ok.statusCode, 200, ok.body);
      const [first, second] = ok.json().segments as Segment[];
      assert.equal(first.source, source.slice(0, cut));
      assert.equal(second.source, 'then wait.');
      await api.put('/v2/segments', {
        id: first.id,
        target: first.source.replace('Click', 'Klicken Sie').replace('please,', 'bitte,'),
        is_confirmed: true,
      });
      await api.put('/v2/segments', { id: second.id, target: 'dann warten.', is_confirmed: true });
      const exported = (await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`)).body;
      assert.equal(exported, '<p>Klicken Sie <b>Save now</b> bitte, dann warten.</p>');
      // A target whose tag would land on the other side of its source's is refused.
      const joined = await api.post('/v2/segments/join', { id: first.id });
      assert.equal(joined.statusCode, 200, joined.body);
      const whole = (joined.json().segments as Segment[])[0];
      const wrongSide = await api.post('/v2/segments/split', {
        id: whole.id,
        offset: whole.source.indexOf(' then'),
        target_offset: whole.target!.indexOf('Klicken') + 8,
      });
      assert.equal(wrongSide.statusCode, 400);
      assert.match(wrongSide.json().message, /target_offset/);
    });

    test("another organization's project is a 404 for its rules", async () => {
      const p = await project();
      const rival = client(
        ctx.app,
        await userKey(ctx, {
          username: 'rival',
          password: 'elsewhere1',
          role: 'admin',
          organization: 'rival',
        }),
      );
      assert.equal((await rival.get(`/v2/projects/segmentation?id=${p.id}`)).statusCode, 404);
      assert.equal((await rival.delete(`/v2/projects/segmentation?id=${p.id}`)).statusCode, 404);
      assert.equal((await api.get(`/v2/projects/segmentation?id=${p.id}`)).statusCode, 200);
    });
  });
}
