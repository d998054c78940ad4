// Every document format through HTTP: upload → confirm some segments → pre-translate → export both ways,
// each merged file checked by its own ecosystem's reader.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { po } from 'gettext-parser';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { parse as parseHtml } from 'parse5';
import { parse as parseYaml } from 'yaml';
import { readZip, writeZip } from '../src/formats/docx/zip-package.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const FORMATS = join(import.meta.dirname, '..', 'src', 'formats');
const XSD = join(import.meta.dirname, 'fixtures', 'schemas', 'xliff-core-1.2-strict.xsd');
const MARK = 'ÜBERSETZT';

async function docxFixture(): Promise<Buffer> {
  const root = join(FORMATS, 'docx', 'fixtures', 'report');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(root);
  return writeZip(
    files.map((path) => ({
      name: relative(root, path),
      data: readFileSync(path),
      directory: false,
      compressed: true,
      mtime: new Date(0),
    })),
  );
}

function xmlWellFormed(dir: string, name: string, data: Buffer | string) {
  const file = join(dir, name);
  writeFileSync(file, data);
  execFileSync('xmllint', ['--noout', file], { stdio: 'pipe' });
}

/** Each format: its upload name, its bytes, and the check its own ecosystem makes of a merged file. */
const CASES: {
  name: string;
  load: () => Promise<Buffer>;
  check: (merged: Buffer, dir: string) => Promise<void> | void;
}[] = [
  {
    name: 'release-notes.txt',
    load: async () => readFileSync(join(FORMATS, 'plain-text', 'fixtures', 'release-notes.txt')),
    check: (merged) => assert.ok(merged.toString('utf8').includes(MARK)),
  },
  {
    name: 'linux-pam-de.po',
    load: async () => readFileSync(join(FORMATS, 'po', 'fixtures', 'linux-pam-de.po')),
    check: (merged, dir) => {
      const catalog = po.parse(merged);
      assert.ok(JSON.stringify(catalog.translations).includes(MARK));
      const file = join(dir, 'merged.po');
      writeFileSync(file, merged);
      execFileSync('msgfmt', ['--check', '-o', '/dev/null', file], { stdio: 'pipe' });
    },
  },
  {
    name: 'en.json',
    load: async () => readFileSync(join(FORMATS, 'json', 'fixtures', 'en.json')),
    check: (merged) => assert.ok(JSON.stringify(JSON.parse(merged.toString('utf8'))).includes(MARK)),
  },
  {
    name: 'product-page.html',
    load: async () => readFileSync(join(FORMATS, 'html', 'fixtures', 'product-page.html')),
    check: (merged) => {
      const errors: string[] = [];
      parseHtml(merged.toString('utf8'), { onParseError: (e) => errors.push(e.code) });
      assert.deepEqual(errors, []);
      assert.ok(merged.toString('utf8').includes(MARK));
    },
  },
  {
    name: 'getting-started.md',
    load: async () => readFileSync(join(FORMATS, 'markdown', 'fixtures', 'getting-started.md.txt')),
    check: (merged) => {
      const tree = fromMarkdown(merged.toString('utf8'));
      assert.ok(tree.children.length > 0);
      assert.ok(merged.toString('utf8').includes(MARK));
    },
  },
  {
    name: 'report.docx',
    load: docxFixture,
    check: async (merged, dir) => {
      const entries = await readZip(merged, 'merged.docx');
      let found = false;
      for (const entry of entries) {
        if (!entry.name.endsWith('.xml') && !entry.name.endsWith('.rels')) continue;
        xmlWellFormed(dir, 'part.xml', entry.data);
        found ||= entry.data.toString('utf8').includes(MARK);
      }
      assert.ok(found, 'a translation is in the document parts');
    },
  },
  {
    name: 'strings.xml',
    load: async () => readFileSync(join(FORMATS, 'android', 'fixtures', 'strings.xml')),
    check: (merged, dir) => {
      xmlWellFormed(dir, 'strings.xml', merged);
      assert.ok(merged.toString('utf8').includes(MARK));
    },
  },
  {
    name: 'en.yml',
    load: async () => readFileSync(join(FORMATS, 'yaml', 'fixtures', 'en.yml')),
    check: (merged) => {
      const data = parseYaml(merged.toString('utf8'));
      assert.ok(data.de, 'the root language key becomes the target language');
      assert.ok(JSON.stringify(data).includes(MARK));
    },
  },
  {
    name: 'angular-messages.xlf',
    load: async () => readFileSync(join(FORMATS, 'xliff', 'fixtures', 'angular-messages.xlf')),
    check: (merged, dir) => {
      xmlWellFormed(dir, 'merged.xlf', merged);
      assert.ok(merged.toString('utf8').includes(MARK));
    },
  },
];

interface Seg {
  id: number;
  source: string;
  target: string | null;
  is_confirmed: boolean;
}

for (const target of await storeTargets()) {
  describe(`every format through HTTP on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let projectId: number;
    let memoryId: number;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
      memoryId = (await api.post('/v2/memories', { name: 'Formats', srclang: 'en', trglang: 'de' })).json()
        .id;
      projectId = (await api.post('/v2/projects', { name: 'Formats', memory_id: memoryId })).json().id;
    });
    after(() => ctx.close());

    async function waitFor(
      id: number,
      ok: (d: { import_in_progress: boolean; is_pretranslating: boolean }) => boolean,
    ) {
      for (let i = 0; i < 3000; i++) {
        const doc = (await api.get(`/v2/documents?id=${id}`)).json();
        if (ok(doc)) return doc;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`document ${id} stuck`);
    }

    async function uploadDoc(name: string, data: Buffer) {
      const res = await api.upload('/v2/documents/files', data, {
        'lilt-api': JSON.stringify({ name, project_id: projectId }),
      });
      assert.equal(res.statusCode, 200, res.body);
      const doc = await waitFor(res.json().id, (d) => !d.import_in_progress);
      assert.equal(doc.import_succeeded, true, `${name}: ${doc.import_error_message}`);
      return doc as { id: number; num_segments: number };
    }

    const segmentsOf = async (id: number) =>
      (await api.get(`/v2/documents?id=${id}&with_segments=true`)).json().segments as Seg[];

    for (const c of CASES) {
      test(c.name, async () => {
        const original = await c.load();
        const doc = await uploadDoc(c.name, original);
        assert.ok(doc.num_segments > 0, 'the filter found segments');

        const untouched = await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`);
        assert.equal(untouched.statusCode, 200);
        // Bilingual files arrive with translations already; every other format merges back to its bytes.
        if (!c.name.endsWith('.xlf') && !c.name.endsWith('.po'))
          assert.ok(untouched.rawPayload.equals(original));

        const segments = await segmentsOf(doc.id);
        const open = segments.filter((s) => !s.is_confirmed).slice(0, 2);
        assert.ok(open.length > 0);
        for (const s of open) {
          const res = await api.put('/v2/segments', {
            id: s.id,
            target: `${MARK} ${s.source}`,
            is_confirmed: true,
          });
          assert.equal(res.statusCode, 200, res.body);
        }
        const pre = await api.post('/v2/documents/pretranslate', { id: [doc.id], auto_accept: true });
        assert.equal(pre.statusCode, 202);
        await waitFor(doc.id, (d) => !d.is_pretranslating);

        const merged = await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`);
        assert.equal(merged.statusCode, 200, merged.body);
        await c.check(merged.rawPayload, ctx.config.dataDir);

        const xliff = await api.get(`/v2/documents/files?id=${doc.id}`);
        assert.equal(xliff.statusCode, 200);
        const file = join(ctx.config.dataDir, 'export.xlf');
        writeFileSync(file, xliff.rawPayload);
        execFileSync('xmllint', ['--noout', '--schema', XSD, file], { stdio: 'pipe' });

        const back = await uploadDoc(`${c.name}.xlf`, xliff.rawPayload);
        const pairs = (segs: Seg[]) => segs.map((s) => [s.source, s.target ?? null]);
        assert.deepEqual(pairs(await segmentsOf(back.id)), pairs(await segmentsOf(doc.id)));
      });
    }

    test('strings.xml: control characters of a target are written as Android \\uXXXX escapes; the export parses and reads back', async () => {
      const strings =
        '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n  <string name="bell">Ring the bell</string>\n  <string name="quoted">"Two  spaces"</string>\n</resources>\n';
      const doc = await uploadDoc('strings.xml', Buffer.from(strings));
      const [bell, quoted] = await segmentsOf(doc.id);
      for (const [seg, text] of [
        [bell, 'Läuten\u0007 Sie\u001B[0m die\u000BGlocke\u0001'],
        [quoted, '"Zwei\u0002  Leerzeichen\uFFFF"'],
      ] as const) {
        const res = await api.put('/v2/segments', { id: seg.id, target: text, is_confirmed: true });
        assert.equal(res.statusCode, 200, res.body);
      }
      const merged = await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`);
      assert.equal(merged.statusCode, 200, merged.body);
      xmlWellFormed(ctx.config.dataDir, 'control.xml', merged.rawPayload);
      const text = merged.rawPayload.toString('utf8');
      assert.match(
        text,
        /<string name="bell">Läuten\\u0007 Sie\\u001B\[0m die\\u000BGlocke\\u0001<\/string>/,
      );
      assert.match(text, /<string name="quoted">"Zwei\\u0002 {2}Leerzeichen\\uFFFF"<\/string>/);
      const back = await segmentsOf((await uploadDoc('strings.xml', merged.rawPayload)).id);
      assert.deepEqual(
        back.map((s) => s.source),
        ['Läuten\\u0007 Sie\\u001B[0m die\\u000BGlocke\\u0001', '"Zwei\\u0002  Leerzeichen\\uFFFF"'],
        'Android reads the escapes back as the characters; the file shows them as written',
      );
    });
  });
}
