// What reading an upload may cost in memory: gzip bombs (a megabyte that inflates to a gigabyte) and huge
// elements in every memory file format (TMX, XLIFF, TSV and CSV: a line of a gigabyte, of a billion empty
// cells, a quoted cell of a gigabyte), through the import API, and a DOCX that inflates to 256 MB
// through the document upload. Each import fails saying why (FILE_LIMIT_EXCEEDED and where, for memory
// files), the memory unchanged, and the process's resident memory grows by far less than the gigabyte:
// before the limits, the memory imports grew it by 0.6-1.3 GB (a TSV line, a TMX run of whitespace, an
// XLIFF read whole) and ended in INTERNAL_ERROR or V8's own message.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import yazl from 'yazl';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

/** Growth of the resident set an import may cause (a bomb's gigabyte, read whole, is far above it). */
const RSS_BOUND = 300 * 1024 * 1024;
const MiB = 1024 * 1024;

/**
 * A gzip file of head, `fill` repeated to `mib` MiB, then tail: gzip members one after another (which
 * gunzip reads as one stream), so that building a gigabyte's bomb costs a megabyte.
 */
function bomb(head: string, fill: string, mib: number, tail: string): Buffer {
  // A whole number of `fill`s per member, so that the pattern runs on across members.
  const member = gzipSync(Buffer.alloc(MiB - (MiB % fill.length), fill), { level: 9 });
  return Buffer.concat([gzipSync(head), ...Array.from({ length: mib }, () => member), gzipSync(tail)]);
}

/** `mib` MiB of spaces, a MiB at a time (never held whole). */
function* spaces(mib: number) {
  const chunk = Buffer.alloc(MiB, ' ');
  for (let i = 0; i < mib; i++) yield chunk;
}

const TMX_HEAD = '<?xml version="1.0"?>\n<tmx version="1.4"><header srclang="en"/><body>\n';
const XLIFF_HEAD =
  '<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">' +
  '<file original="a" source-language="en" target-language="de" datatype="plaintext"><body>\n';
const TU = (i: number) =>
  `<tu><tuv xml:lang="en"><seg>Sentence number ${i}</seg></tuv><tuv xml:lang="de"><seg>Satz ${i}</seg></tuv></tu>\n`;

const CASES: { name: string; file: string; body: () => Buffer; error: RegExp }[] = [
  {
    name: 'TMX: a gigabyte of whitespace between units (gzip)',
    file: 'space.tmx.gz',
    body: () => bomb(TMX_HEAD, ' ', 1024, '</body></tmx>'),
    error: /runs longer than 4194304 characters at line 3, column \d+/,
  },
  {
    name: 'TMX: one <seg> of a gigabyte (gzip)',
    file: 'seg.tmx.gz',
    body: () => bomb(`${TMX_HEAD}<tu><tuv xml:lang="en"><seg>`, 'a', 1024, '</seg></tuv></tu></body></tmx>'),
    error: /runs longer than 4194304 characters at line 3, column \d+/,
  },
  {
    name: 'TMX: one <seg> of a gigabyte of empty tags (gzip)',
    file: 'tags.tmx.gz',
    body: () =>
      bomb(`${TMX_HEAD}<tu><tuv xml:lang="en"><seg>`, '<ph/>', 1024, '</seg></tuv></tu></body></tmx>'),
    error: /a translation unit holds more than 4194304 characters at line 3, column \d+/,
  },
  {
    name: 'TMX: a 64 MB <seg>, not compressed',
    file: 'plain.tmx',
    body: () =>
      Buffer.concat([
        Buffer.from(`${TMX_HEAD}<tu><tuv xml:lang="en"><seg>`),
        Buffer.alloc(64 * MiB, 'a'),
        Buffer.from('</seg></tuv></tu></body></tmx>'),
      ]),
    error: /runs longer than 4194304 characters at line 3/,
  },
  {
    name: 'TSV: one line of a gigabyte (gzip)',
    file: 'line.tsv.gz',
    body: () => bomb('Hello\tHallo\n', 'a', 1024, '\tb\n'),
    error: /line 2 is longer than 4194304 characters/,
  },
  {
    name: 'TSV: one line of a gigabyte of tabs (gzip)',
    file: 'tabs.tsv.gz',
    body: () => bomb('Hello\tHallo\n', '\t', 1024, 'b\n'),
    error: /line 2 holds more than 10000 tabs/,
  },
  {
    name: 'CSV: one line of a gigabyte (gzip)',
    file: 'line.csv.gz',
    body: () => bomb('Hello,Hallo\n', 'a', 1024, ',b\n'),
    error: /line 2 is longer than 4194304 characters/,
  },
  {
    name: 'CSV: one quoted cell of a gigabyte of lines (gzip)',
    file: 'quoted.csv.gz',
    body: () => bomb('Hello,Hallo\n"', 'a\n', 1024, '",b\n'),
    error: /line \d+ is longer than 4194304 characters/,
  },
  {
    name: 'CSV: one line of a gigabyte of empty cells (gzip)',
    file: 'commas.csv.gz',
    body: () => bomb('Hello,Hallo\n', ',', 1024, 'b\n'),
    error: /line 2 holds more than 10000 commas/,
  },
  {
    name: 'XLIFF: a gigabyte of whitespace between units (gzip)',
    file: 'space.xlf',
    body: () => bomb(XLIFF_HEAD, ' ', 1024, '</body></file></xliff>'),
    error: /runs longer than 4194304 characters at line 3, column \d+/,
  },
  {
    name: 'XLIFF: one <source> of a gigabyte (gzip)',
    file: 'source.xlf',
    body: () =>
      bomb(
        `${XLIFF_HEAD}<trans-unit id="1"><source>`,
        'a',
        1024,
        '</source></trans-unit></body></file></xliff>',
      ),
    error: /runs longer than 4194304 characters at line 3, column \d+/,
  },
  {
    name: 'XLIFF: one trans-unit of a gigabyte of empty tags (gzip)',
    file: 'tags.xlf',
    body: () =>
      bomb(
        `${XLIFF_HEAD}<trans-unit id="1"><source>`,
        '<x id="1"/>',
        1024,
        '</source></trans-unit></body></file></xliff>',
      ),
    error: /a trans-unit longer than 8388608 characters at line 3, column \d+/,
  },
];

for (const target of (await storeTargets()).filter((t) => t.name === 'sqlite')) {
  describe(`memory imports stay bounded in memory (${target.name})`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    /** Imports the file; answers the task and the largest growth of the resident set meanwhile. */
    async function importMeasured(
      api: ReturnType<typeof client>,
      memoryId: number,
      name: string,
      body: Buffer,
    ) {
      global.gc?.();
      const baseline = process.memoryUsage.rss();
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage.rss());
      }, 5);
      try {
        const res = await api.upload('/v2/memories/import', body, {
          'lilt-api': JSON.stringify({ memory_id: memoryId, name }),
        });
        assert.equal(res.statusCode, 200, res.body);
        const task = await api.waitForTask(res.json().job_id);
        return { task, growth: Math.max(peak, process.memoryUsage.rss()) - baseline };
      } finally {
        clearInterval(sampler);
      }
    }

    async function assertUnchanged(api: ReturnType<typeof client>, memory: { id: number; version: number }) {
      const now = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
      assert.equal(now.num_segments, 0);
      assert.equal(now.version, memory.version);
    }

    for (const c of CASES) {
      test(`${c.name}: refused with where, memory unchanged, RSS bounded`, async (t) => {
        const memory = (
          await api.post('/v2/memories', { name: c.file, srclang: 'en', trglang: 'de' })
        ).json();
        const { task, growth } = await importMeasured(api, memory.id, c.file, c.body());
        t.diagnostic(`resident set grew by ${Math.round(growth / MiB)} MB`);
        assert.ok(growth < RSS_BOUND, `resident set grew by ${Math.round(growth / MiB)} MB`);
        assert.equal(task.state, 'failed', JSON.stringify(task));
        assert.equal(task.error_code, 'FILE_LIMIT_EXCEEDED', task.error);
        assert.match(task.error, c.error);
        assert.ok(task.error.startsWith(`${c.file}: `), task.error);
        await assertUnchanged(api, memory);
      });
    }

    test('a file larger than TESSERA_MAX_DECOMPRESSED_BYTES once inflated is refused, naming the setting', async () => {
      // A small limit on inflated size, for this case alone.
      const small = await createContext(target, { TESSERA_MAX_DECOMPRESSED_BYTES: String(4 * MiB) });
      after(() => small.close());
      const api = client(small.app, small.adminKey);
      const memory = (await api.post('/v2/memories', { name: 'cap', srclang: 'en', trglang: 'de' })).json();
      const units = Array.from({ length: 60_000 }, (_, i) => TU(i)).join('');
      const body = gzipSync(`${TMX_HEAD}${units}</body></tmx>`);
      const { task } = await importMeasured(api, memory.id, 'many.tmx.gz', body);
      assert.equal(task.state, 'failed', JSON.stringify(task));
      assert.equal(task.error_code, 'FILE_LIMIT_EXCEEDED');
      assert.match(
        task.error,
        /larger than 4194304 bytes once decompressed \(TESSERA_MAX_DECOMPRESSED_BYTES\)/,
      );
      await assertUnchanged(api, memory);
    });

    test('a document upload that inflates (a DOCX holding 256 MB) is refused, RSS bounded', async (t) => {
      // Documents are read whole (their formats need the whole file), under the upload limit; a DOCX is the
      // one that inflates, and its zip reader refuses a bomb from the sizes the entries declare.
      const zip = new yazl.ZipFile();
      zip.addBuffer(Buffer.from('<Types/>'), '[Content_Types].xml');
      // 256 MiB, over the package limit (200 MiB in all) and the ratio (100:1): both refuse it.
      zip.addReadStream(Readable.from(spaces(256)), 'word/document.xml');
      zip.end();
      const chunks: Buffer[] = [];
      for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
      const docx = Buffer.concat(chunks);
      const memoryId = (await api.post('/v2/memories', { name: 'docs', srclang: 'en', trglang: 'de' })).json()
        .id;
      const projectId = (await api.post('/v2/projects', { name: 'Docs', memory_id: memoryId })).json().id;
      global.gc?.();
      const baseline = process.memoryUsage.rss();
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage.rss());
      }, 5);
      let doc: Record<string, unknown>;
      try {
        const res = await api.upload('/v2/documents/files', docx, {
          'lilt-api': JSON.stringify({ name: 'bomb.docx', project_id: projectId }),
        });
        assert.equal(res.statusCode, 200, res.body);
        for (;;) {
          doc = (await api.get(`/v2/documents?id=${res.json().id}`)).json();
          if (!doc.import_in_progress) break;
          await new Promise((r) => setTimeout(r, 20));
        }
      } finally {
        clearInterval(sampler);
      }
      const growth = peak - baseline;
      t.diagnostic(`resident set grew by ${Math.round(growth / MiB)} MB`);
      assert.ok(growth < RSS_BOUND, `resident set grew by ${Math.round(growth / MiB)} MB`);
      assert.equal(doc.import_succeeded, false);
      assert.match(
        String(doc.import_error_message),
        /zip bomb refused: "word\/document\.xml" inflates to 268435456 bytes/,
      );
    });

    test('a well-formed XLIFF still imports, streamed: every pair with its context across units', async () => {
      const memory = (await api.post('/v2/memories', { name: 'ok', srclang: 'en', trglang: 'de' })).json();
      const units = Array.from(
        { length: 3000 },
        (_, i) =>
          `<trans-unit id="${i}" resname="k${i}"><source>Sentence ${i}</source><target>Satz ${i}</target></trans-unit>\n`,
      ).join('');
      const body = gzipSync(`${XLIFF_HEAD}${units}</body></file></xliff>`);
      const { task } = await importMeasured(api, memory.id, 'ok.xlf', body);
      assert.equal(task.state, 'succeeded', JSON.stringify(task));
      assert.equal(task.result.imported, 3000);
      const entry = await ctx.db.get<{ context_key: string; context_prev: string; context_next: string }>(
        'SELECT context_key, context_prev, context_next FROM memory_entries WHERE memory_id = ? AND source = ?',
        [memory.id, 'Sentence 1500'],
      );
      assert.deepEqual(
        { ...entry },
        {
          context_key: 'k1500',
          context_prev: 'Sentence 1499',
          context_next: 'Sentence 1501',
        },
      );
    });
  });
}
