// Segment-edge whitespace through HTTP on every store: it belongs to the skeleton. Memory entries are stored,
// matched and returned without it, a document segment's target is saved and pre-translated without it, and
// the export writes the skeleton's once (docs/MATCHING.md §1.1).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pairHash } from '../src/modules/memories/entry-identity.ts';
import * as memories from '../src/modules/memories/repository.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const tmx = (units: [string, string][]) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="t" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/>
<body>
${units.map(([s, t]) => `<tu><tuv xml:lang="en"><seg>${s}</seg></tuv><tuv xml:lang="de"><seg>${t}</seg></tuv></tu>`).join('\n')}
</body></tmx>`;

const PO_HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';

for (const target of await storeTargets()) {
  describe(`segment-edge whitespace on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    async function project(name: string) {
      const memory = (await api.post('/v2/memories', { name, srclang: 'en', trglang: 'de' })).json();
      const made = (await api.post('/v2/projects', { name, memory_id: memory.id })).json();
      return { memoryId: memory.id as number, projectId: made.id as number };
    }

    async function importMemory(memoryId: number, name: string, body: string) {
      const res = await api.upload('/v2/memories/import', body, {
        'lilt-api': JSON.stringify({ memory_id: memoryId, name }),
      });
      assert.equal(res.statusCode, 200, res.body);
      const task = await api.waitForTask(res.json().task_id);
      assert.equal(task.state, 'succeeded', JSON.stringify(task));
      return task.result as { imported: number; skipped: number; duplicates: number };
    }

    async function uploadDocument(projectId: number, name: string, body: string) {
      const res = await api.upload('/v2/documents/files', body, {
        'lilt-api': JSON.stringify({ name, project_id: projectId }),
      });
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().id as number;
      for (let i = 0; i < 2000; i++) {
        const doc = (await api.get(`/v2/documents?id=${id}`)).json();
        if (!doc.import_in_progress) {
          assert.equal(doc.import_succeeded, true, doc.import_error_message);
          return id;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('import never ended');
    }

    async function pretranslate(id: number, options: Record<string, unknown> = {}) {
      assert.equal((await api.post('/v2/documents/pretranslate', { id: [id], ...options })).statusCode, 202);
      for (let i = 0; i < 2000; i++) {
        const doc = (await api.get(`/v2/documents?id=${id}`)).json();
        if (doc.status.pretranslation === 'idle') return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('pre-translation never ended');
    }

    const segmentsOf = async (id: number) =>
      (await api.get(`/v2/documents?id=${id}&with_segments=true`)).json().segments as {
        id: number;
        source: string;
        target: string | null;
        is_confirmed: boolean;
        match_score: number | null;
      }[];

    const query = async (memoryId: number, text: string) =>
      (await api.get(`/v2/memories/query?id=${memoryId}&query=${encodeURIComponent(text)}`)).json() as {
        source: string;
        target: string;
        score: number;
        metadata: { penalties: unknown[] };
      }[];

    const msgfmtAccepts = (po: string) => {
      const file = join(ctx.config.dataDir, 'check.po');
      writeFileSync(file, po);
      execFileSync('msgfmt', ['-c', '-o', '/dev/null', file], { stdio: 'pipe' });
    };

    test('a PO message ending in \\n: TMX match at 100, pre-translated and exported with one \\n', async () => {
      const { memoryId, projectId } = await project('Debian');
      await importMemory(memoryId, 'debian.tmx', tmx([['Exiting.\n', 'Programmende.\n']]));
      const id = await uploadDocument(
        projectId,
        'app.po',
        `${PO_HEADER}msgid "Exiting.\\n"\nmsgstr ""\n\nmsgid "Usage: app\\n  -h  help\\n"\nmsgstr ""\n`,
      );
      const [exiting, usage] = await segmentsOf(id);
      assert.equal(exiting.source, 'Exiting.');
      assert.equal(usage.source, 'Usage: app\n  -h  help', 'line breaks and indentation inside stay');

      const [match] = await query(memoryId, 'Exiting.');
      assert.deepEqual([match.source, match.target, match.score], ['Exiting.', 'Programmende.', 100]);
      assert.deepEqual(match.metadata.penalties, []);

      await pretranslate(id, { auto_accept: true });
      const [done] = await segmentsOf(id);
      assert.deepEqual([done.target, done.match_score, done.is_confirmed], ['Programmende.', 100, true]);

      const exported = (await api.get(`/v2/documents/files?id=${id}&is_xliff=false`)).body;
      assert.match(exported, /\nmsgid "Exiting\.\\n"\nmsgstr "Programmende\.\\n"\n/);
      assert.doesNotMatch(exported, /Programmende\.\\n"\n"\\n"/);
      msgfmtAccepts(exported);
    });

    test('memory entries are stored, matched and returned without edge whitespace, from every way in', async () => {
      const { memoryId } = await project('Ways in');
      await importMemory(memoryId, 'a.tmx', tmx([['  Open the file.\n', 'Datei öffnen.\n\n']]));
      await importMemory(
        memoryId,
        'b.xlf',
        '<?xml version="1.0"?><xliff version="1.2"><file original="x" source-language="en" target-language="de" datatype="plaintext"><body>' +
          '<trans-unit id="1"><source>Close the file. </source><target>Datei schließen. </target></trans-unit></body></file></xliff>',
      );
      await importMemory(memoryId, 'c.tsv', 'en\tde\n Save the file.\t Datei speichern.\n');
      const added = await api.post('/v2/segments', {
        memory_id: memoryId,
        source: 'Print the file.\n',
        target: '\tDatei drucken.',
      });
      assert.deepEqual([added.json().source, added.json().target], ['Print the file.', 'Datei drucken.']);
      const changed = await api.put('/v2/memories/segment', {
        id: memoryId,
        segment_id: added.json().id,
        source: 'Print the file. ',
        target: 'Datei drucken. ',
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual([changed.json().source, changed.json().target], ['Print the file.', 'Datei drucken.']);

      const entries = (await api.get(`/v2/memories/entries?id=${memoryId}`)).json().entries as {
        source: string;
        target: string;
      }[];
      assert.deepEqual(
        entries.map((e) => [e.source, e.target]),
        [
          ['Open the file.', 'Datei öffnen.'],
          ['Close the file.', 'Datei schließen.'],
          ['Save the file.', 'Datei speichern.'],
          ['Print the file.', 'Datei drucken.'],
        ],
      );
      for (const [text, translation] of [
        ['Open the file.\n', 'Datei öffnen.'],
        ['  Close the file.', 'Datei schließen.'],
        ['Save the file.', 'Datei speichern.'],
        ['Print the file.\r\n', 'Datei drucken.'],
      ]) {
        const [best] = await query(memoryId, text);
        assert.deepEqual([best.target, best.score], [translation, 100], text);
      }
      const exported = (await api.get(`/v2/memories/export?id=${memoryId}`)).body;
      assert.match(exported, /<seg>Open the file\.<\/seg>/);
      assert.match(exported, /<seg>Datei öffnen\.<\/seg>/);
    });

    test('entries stored with edge whitespace before: matched at 100 at once, then trimmed by the task migration 018 queues', async () => {
      const { memoryId } = await project('Legacy');
      await ctx.db.transaction(async (tx) => {
        const rev = await memories.bumpVersion(tx, memoryId, 3);
        for (const [source, target] of [
          ['Exiting.\n', 'Programmende.\n'],
          ['Exiting.', 'Programmende.'],
          [' Open ', '  Offen'],
        ]) {
          const hash = pairHash(source, target);
          await memories.insertEntry(tx, {
            memoryId,
            source,
            target,
            pairHash: hash,
            createdBy: 'admin',
            rev,
          });
        }
      });
      assert.deepEqual(
        (await query(memoryId, 'Exiting.')).map((m) => [m.source, m.target, m.score]),
        [
          ['Exiting.', 'Programmende.', 100],
          ['Exiting.', 'Programmende.', 100],
        ],
      );
      assert.deepEqual(
        (await query(memoryId, 'Open')).map((m) => [m.source, m.target, m.score]),
        [['Open', 'Offen', 100]],
      );

      // The statement of migration 018 that queues the trimming, as an upgraded store runs it.
      const migration = readFileSync(
        join(import.meta.dirname, '..', 'src', 'store', 'migrations', target.name, '018_entry_contexts.sql'),
        'utf8',
      );
      const queue = migration
        .replace(/^\s*--.*$/gm, '')
        .split(/;\s*$/m)
        .find((statement) => statement.includes("'memory_trim_edges'"))!;
      await ctx.db.run(queue);
      const task = await ctx.db.get<{ id: number }>(
        "SELECT id FROM tasks WHERE type = 'memory_trim_edges' AND memory_id = ?",
        [memoryId],
      );
      ctx.app.worker.wake();
      const done = await api.waitForTask(task!.id);
      assert.equal(done.state, 'succeeded', JSON.stringify(done));
      assert.deepEqual(done.result, { trimmed: 1, merged: 1 });
      const stored = await ctx.db.all<{ source: string; target: string }>(
        'SELECT source, target FROM memory_entries WHERE memory_id = ? ORDER BY id',
        [memoryId],
      );
      assert.deepEqual(
        stored.map((e) => [e.source, e.target]),
        [
          ['Exiting.', 'Programmende.'],
          ['Open', 'Offen'],
        ],
      );
      const memory = (await api.get(`/v2/memories?id=${memoryId}`)).json()[0];
      assert.equal(memory.num_segments, 2);
      assert.deepEqual(
        (await query(memoryId, 'Exiting.')).map((m) => [m.source, m.target, m.score]),
        [['Exiting.', 'Programmende.', 100]],
      );
      // Written again, the pair is found stored.
      await api.post('/v2/segments', { memory_id: memoryId, source: 'Open', target: 'Offen' });
      assert.equal((await api.get(`/v2/memories?id=${memoryId}`)).json()[0].num_segments, 2);
    });

    test('a target saved with edge whitespace is stored without it; the export writes the skeleton once', async () => {
      const { memoryId, projectId } = await project('Edits');
      const id = await uploadDocument(
        projectId,
        'edit.po',
        `${PO_HEADER}msgid "Exiting.\\n"\nmsgstr ""\n\nmsgid " Loading "\nmsgstr ""\n`,
      );
      const [exiting, loading] = await segmentsOf(id);
      assert.equal(loading.source, 'Loading');
      const saved = await api.put('/v2/segments', {
        id: exiting.id,
        target: 'Programmende.\n',
        is_confirmed: true,
      });
      assert.equal(saved.statusCode, 200, saved.body);
      assert.equal(saved.json().target, 'Programmende.');
      await api.put('/v2/segments', { id: loading.id, target: '  Laden ', is_confirmed: true });
      const [match] = await query(memoryId, 'Exiting.');
      assert.deepEqual([match.source, match.target, match.score], ['Exiting.', 'Programmende.', 100]);

      const exported = (await api.get(`/v2/documents/files?id=${id}&is_xliff=false`)).body;
      assert.match(exported, /\nmsgid "Exiting\.\\n"\nmsgstr "Programmende\.\\n"\n/);
      assert.match(exported, /\nmsgid " Loading "\nmsgstr " Laden "\n/);
      msgfmtAccepts(exported);
    });

    test('a bilingual file’s existing targets: edge whitespace goes to the skeleton', async () => {
      const { projectId } = await project('Bilingual');
      const id = await uploadDocument(
        projectId,
        'done.po',
        `${PO_HEADER}msgid "Exiting.\\n"\nmsgstr "Programmende.\\n"\n`,
      );
      const [segment] = await segmentsOf(id);
      assert.deepEqual([segment.source, segment.target], ['Exiting.', 'Programmende.']);
      const exported = (await api.get(`/v2/documents/files?id=${id}&is_xliff=false`)).body;
      assert.match(exported, /\nmsgstr "Programmende\.\\n"\n/);

      const xlf = await uploadDocument(
        projectId,
        'done.xlf',
        '<?xml version="1.0"?><xliff version="1.2"><file original="x" source-language="en" target-language="de" datatype="plaintext"><body>' +
          '<trans-unit id="1"><source> Edge </source><target> Rand </target></trans-unit></body></file></xliff>',
      );
      const [unit] = await segmentsOf(xlf);
      assert.deepEqual([unit.source, unit.target], ['Edge', 'Rand']);
      assert.match(
        (await api.get(`/v2/documents/files?id=${xlf}&is_xliff=false`)).body,
        /<target> Rand <\/target>/,
      );
    });
  });
}
