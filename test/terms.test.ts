// Terminology through the HTTP API on every store: a memory's concepts and terms (CRUD, search, isolation,
// roles), TBX 2008 and 2019 import with each dialect's statuses, all or nothing with the error's line and
// column, gzip and the size limits, Lilt's CSV round trip, TBX-Basic export (read back by translate-toolkit),
// a file csv2tbx wrote, and Lilt's termbase export and lexicon answering from the termbase.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { termsOfMemory } from '../src/modules/terms/service.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'tbx');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

/** translate-toolkit's commands, or null (after one visible line) outside CI when it is not installed. */
function toolkit(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v csv2tbx && command -v tbx2po'], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.CI === 'true')
      throw new Error('translate-toolkit is not installed, and CI=true requires it');
    console.log('# translate-toolkit (csv2tbx, tbx2po) is not installed: its exchange tests are skipped');
    return false;
  }
}
const HAS_TOOLKIT = toolkit();

interface TermAnswer {
  id: number;
  lang: string;
  text: string;
  status: string;
  case_sensitive: boolean;
  part_of_speech: string | null;
  definition: string | null;
  context: string | null;
  note: string | null;
}
interface ConceptAnswer {
  id: number;
  external_id: string | null;
  domain: string | null;
  note: string | null;
  terms: TermAnswer[];
}

for (const target of await storeTargets()) {
  describe(`terms on ${target.name}`, () => {
    let ctx: TestContext;
    let admin: ReturnType<typeof client>;
    let translator: ReturnType<typeof client>;
    let rival: ReturnType<typeof client>;
    let work: string;

    const newMemory = async (name: string) =>
      (await admin.post('/v2/memories', { name, srclang: 'en', trglang: 'de' })).json().id as number;
    const allConcepts = async (memoryId: number): Promise<ConceptAnswer[]> => {
      const res = await admin.get(`/v2/memories/terms?id=${memoryId}&limit=500`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().concepts;
    };
    const termOf = (concepts: ConceptAnswer[], text: string) =>
      concepts.flatMap((c) => c.terms).find((t) => t.text === text);
    const importFile = (memoryId: number, name: string, body: Buffer | string, extra = '') =>
      admin.upload(
        `/v2/memories/terms/import?memory_id=${memoryId}&name=${encodeURIComponent(name)}${extra}`,
        body,
      );

    before(async () => {
      ctx = await createContext(target, {
        TESSERA_MAX_UPLOAD_BYTES: String(2 * 1024 * 1024),
        TESSERA_MAX_DECOMPRESSED_BYTES: String(4 * 1024 * 1024),
      });
      admin = client(ctx.app, ctx.adminKey);
      translator = client(
        ctx.app,
        await userKey(ctx, { username: 'tina', password: 'tina-password-1', role: 'translator' }),
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
      work = mkdtempSync(join(tmpdir(), 'tessera-terms-'));
    });
    after(async () => {
      rmSync(work, { recursive: true, force: true });
      await ctx.close();
    });

    test('create, browse, search, edit and delete concepts; translators read; other organizations see nothing', async () => {
      const memoryId = await newMemory('UI');
      const created = await admin.post(`/v2/memories/terms?id=${memoryId}`, {
        domain: 'user interface',
        note: 'Menu labels',
        terms: [
          {
            lang: 'en',
            text: 'Save as',
            part_of_speech: 'verb',
            definition: 'Store under a new name',
            case_sensitive: true,
          },
          { lang: 'de', text: 'Speichern unter', status: 'preferred', context: 'Datei > Speichern unter' },
          { lang: 'de', text: 'Sichern als', status: 'forbidden' },
        ],
      });
      assert.equal(created.statusCode, 200, created.body);
      const concept = created.json() as ConceptAnswer & { created_by: string };
      assert.equal(concept.domain, 'user interface');
      assert.equal(concept.created_by, 'admin');
      assert.deepEqual(
        concept.terms.map((t) => [t.lang, t.text, t.status, t.case_sensitive]),
        [
          ['en', 'Save as', 'preferred', true],
          ['de', 'Speichern unter', 'preferred', false],
          ['de', 'Sichern als', 'forbidden', false],
        ],
      );
      await admin.post(`/v2/memories/terms?id=${memoryId}`, {
        terms: [
          { lang: 'en', text: 'Open' },
          { lang: 'de', text: 'Öffnen' },
        ],
      });

      // Search: substring by default, prefix on request, in either language, case aside.
      const search = async (q: string, extra = '') =>
        (await translator.get(`/v2/memories/terms?id=${memoryId}&q=${encodeURIComponent(q)}${extra}`)).json();
      assert.deepEqual(
        (await search('UNTER')).concepts.map((c: ConceptAnswer) => c.id),
        [concept.id],
      );
      assert.equal((await search('unter', '&match=prefix')).total, 0);
      assert.equal((await search('speich', '&match=prefix')).total, 1);
      assert.equal((await search('öff')).total, 1);
      assert.equal((await search('öff', '&lang=en')).total, 0);
      assert.equal((await search('%')).total, 0, 'a LIKE wildcard is searched as a character');
      const page = (await translator.get(`/v2/memories/terms?id=${memoryId}&limit=1&offset=1`)).json();
      assert.equal(page.total, 2);
      assert.equal(page.concepts.length, 1);
      assert.equal(page.concepts[0].terms[0].text, 'Open');

      // Edit: a term named by id keeps it; one left out goes; a new one comes.
      const [en, de] = concept.terms;
      const edited = await admin.put(`/v2/memories/terms?id=${memoryId}&concept_id=${concept.id}`, {
        domain: 'menus',
        terms: [
          { id: en.id, lang: 'en', text: 'Save As…', case_sensitive: true },
          { id: de.id, lang: 'de', text: 'Speichern unter…', status: 'admitted' },
          { lang: 'de', text: 'Sichern', status: 'deprecated' },
        ],
      });
      assert.equal(edited.statusCode, 200, edited.body);
      const after = edited.json() as ConceptAnswer;
      assert.equal(after.domain, 'menus');
      assert.equal(after.note, null);
      assert.deepEqual(
        after.terms.slice(0, 2).map((t) => t.id),
        [en.id, de.id],
      );
      assert.deepEqual(
        after.terms.map((t) => `${t.text}:${t.status}`),
        ['Save As…:preferred', 'Speichern unter…:admitted', 'Sichern:deprecated'],
      );

      // Bad input is a 400 naming the parameter.
      const twice = await admin.post(`/v2/memories/terms?id=${memoryId}`, {
        terms: [
          { lang: 'en', text: 'x' },
          { lang: 'en', text: 'X' },
        ],
      });
      assert.equal(twice.statusCode, 400);
      assert.match(twice.json().message, /terms\[1\]/);
      const badStatus = await admin.post(`/v2/memories/terms?id=${memoryId}`, {
        terms: [{ lang: 'en', text: 'x', status: 'banned' }],
      });
      assert.equal(badStatus.statusCode, 400);
      assert.match(badStatus.json().message, /status/);
      const foreignTerm = await admin.put(`/v2/memories/terms?id=${memoryId}&concept_id=${concept.id}`, {
        terms: [{ id: 999999, lang: 'en', text: 'x' }],
      });
      assert.equal(foreignTerm.statusCode, 400);
      assert.match(foreignTerm.json().message, /terms\[0\]\.id/);

      // Roles: a translator reads but does not write.
      assert.equal(
        (await translator.post(`/v2/memories/terms?id=${memoryId}`, { terms: [{ lang: 'en', text: 'x' }] }))
          .statusCode,
        403,
      );
      assert.equal(
        (await translator.delete(`/v2/memories/terms?id=${memoryId}&concept_id=${concept.id}`)).statusCode,
        403,
      );

      // Another organization: the memory and the concept are missing.
      assert.equal((await rival.get(`/v2/memories/terms?id=${memoryId}`)).statusCode, 404);
      assert.equal(
        (await rival.delete(`/v2/memories/terms?id=${memoryId}&concept_id=${concept.id}`)).statusCode,
        404,
      );
      const otherMemory = (
        await rival.post('/v2/memories', { name: 'Theirs', srclang: 'en', trglang: 'de' })
      ).json().id;
      assert.equal(
        (await rival.delete(`/v2/memories/terms?id=${otherMemory}&concept_id=${concept.id}`)).statusCode,
        404,
      );

      const deleted = await admin.delete(`/v2/memories/terms?id=${memoryId}&concept_id=${concept.id}`);
      assert.deepEqual(deleted.json(), { id: concept.id, deleted: true });
      assert.equal(
        (await admin.delete(`/v2/memories/terms?id=${memoryId}&concept_id=${concept.id}`)).statusCode,
        404,
      );
      assert.equal((await allConcepts(memoryId)).length, 1);
    });

    test('TBX 2019 DCA and DCT import alike, with statuses, definitions, contexts and parts of speech', async () => {
      const read = async (name: string) => {
        const memoryId = await newMemory(name);
        const res = await importFile(memoryId, name, fixture(name));
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { id: memoryId, concepts: 2, terms: 13, skipped: 0 });
        return allConcepts(memoryId);
      };
      const dca = await read('astronomy-dca.tbx');
      const dct = await read('astronomy-dct.tbx');
      const shape = (concepts: ConceptAnswer[]) =>
        concepts.map((c) => ({
          external_id: c.external_id,
          domain: c.domain,
          terms: c.terms.map(({ lang, text, status, part_of_speech, definition, context }) => ({
            lang,
            text,
            status,
            part_of_speech,
            definition,
            context,
          })),
        }));
      assert.deepEqual(shape(dct), shape(dca), 'the two styles of one termbase read the same');
      assert.equal(dca[0].external_id, 'c1');
      assert.equal(dca[0].domain, 'General');
      const open = termOf(dca, 'open cluster')!;
      assert.equal(open.status, 'preferred');
      assert.equal(open.part_of_speech, 'noun');
      assert.ok(open.definition && open.definition.length > 10, 'the language section definition');
      assert.equal(termOf(dca, 'galactic cluster')!.status, 'deprecated', 'superseded is deprecated');
      assert.equal(termOf(dca, 'carbon cycle')!.status, 'deprecated');
      assert.equal(termOf(dca, 'CN cycle')!.status, 'admitted');
      assert.equal(termOf(dca, 'ciclo del carbono')!.lang, 'es');
    });

    test('TBX 2008: TBX-Basic and TBX-Default martif, forbidden and deprecated from each', async () => {
      const memoryId = await newMemory('v2');
      for (const name of ['basic-v2.tbx', 'default-v2.tbx']) {
        const res = await importFile(memoryId, name, fixture(name));
        assert.equal(res.statusCode, 200, res.body);
      }
      const concepts = await allConcepts(memoryId);
      assert.equal(concepts.length, 3);
      const file = termOf(concepts, 'file')!;
      assert.equal(file.lang, 'en-US');
      assert.equal(file.definition, 'A named collection of data kept on a disk.');
      assert.equal(file.context, 'Save the file before you close it.');
      assert.equal(termOf(concepts, 'Datei')!.status, 'preferred');
      assert.equal(termOf(concepts, 'Akte')!.status, 'forbidden');
      assert.equal(termOf(concepts, 'Akte')!.note, null, 'the status note is a status, not a note');
      assert.equal(termOf(concepts, 'File')!.status, 'deprecated');
      assert.equal(termOf(concepts, 'File')!.note, 'An anglicism some teams still write.');
      assert.equal(termOf(concepts, 'folder')!.status, 'admitted', 'ntig/termGrp');
      assert.equal(termOf(concepts, 'folder')!.part_of_speech, 'noun');
      assert.equal(termOf(concepts, 'Ordner')!.status, 'preferred', 'no status: preferred');
      // TBX-Default's normativeAuthorization and usage note.
      assert.equal(termOf(concepts, 'mouse')!.status, 'preferred');
      assert.equal(termOf(concepts, 'mouse')!.definition, 'A device that moves the pointer on the screen.');
      assert.equal(termOf(concepts, 'Zeigegerät')!.status, 'deprecated');
      assert.equal(termOf(concepts, 'Nager')!.status, 'forbidden');
      const mouse = concepts.find((c) => c.external_id === 'tid-7')!;
      assert.equal(mouse.domain, 'hardware');
      assert.equal(mouse.note, 'Approved by the terminology board.');
    });

    test('all or nothing: a malformed or invalid file adds nothing and names its line and column', async () => {
      const memoryId = await newMemory('broken');
      const good = fixture('basic-v2.tbx').toString();
      const broken = good.replace('<term>Ordner</term>', '<term>Ordner</trm>');
      const res = await importFile(memoryId, 'broken.tbx', broken);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 'MALFORMED_FILE');
      const line = broken.split('\n').findIndex((l) => l.includes('</trm>')) + 1;
      assert.match(res.json().message, new RegExp(`line ${line}, column \\d+`));
      const empty = good.replace(
        '<tig><term>Ordner</term></tig>',
        '<tig><termNote type="partOfSpeech">noun</termNote></tig>',
      );
      const invalid = await importFile(memoryId, 'empty-term.tbx', empty);
      assert.equal(invalid.statusCode, 400);
      assert.match(
        invalid.json().message,
        /Invalid TBX at line \d+, column \d+: a <tig> without the text of its <term>/,
      );
      const notTbx = await importFile(memoryId, 'x.tbx', '<?xml version="1.0"?><tmx version="1.4"/>');
      assert.match(notTbx.json().message, /Not a TBX file at line 1, column \d+/);
      const entities = await importFile(
        memoryId,
        'x.tbx',
        '<?xml version="1.0"?><!DOCTYPE martif [<!ENTITY x SYSTEM "file:///etc/passwd">]><martif>&x;</martif>',
      );
      assert.equal(entities.statusCode, 400);
      assert.match(entities.json().message, /entities/);
      assert.equal((await allConcepts(memoryId)).length, 0);
      const unsupported = await importFile(memoryId, 'terms.xlsx', 'x');
      assert.equal(unsupported.statusCode, 415);
    });

    test('gzip, the upload limit and the decompressed limit', async () => {
      const memoryId = await newMemory('gz');
      const res = await importFile(memoryId, 'basic-v2.tbx.gz', gzipSync(fixture('basic-v2.tbx')));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().concepts, 2);
      const tooBig = await importFile(memoryId, 'big.tbx', Buffer.alloc(3 * 1024 * 1024, 0x20));
      assert.equal(tooBig.statusCode, 413);
      const bomb = gzipSync(
        Buffer.concat([Buffer.from('<martif><text><body>'), Buffer.alloc(6 * 1024 * 1024, 0x20)]),
      );
      assert.ok(bomb.length < 2 * 1024 * 1024);
      const inflated = await importFile(memoryId, 'bomb.tbx.gz', bomb);
      assert.equal(inflated.statusCode, 400);
      assert.match(inflated.json().message, /decompressed/);
      assert.equal((await allConcepts(memoryId)).length, 2);
    });

    test("Lilt's CSV: import with and without a header, export and read back; termbase export and download", async () => {
      const memoryId = await newMemory('csv');
      const lilt =
        'source text,target text,status,created date,updated date\nhello,hallo,272542,2021-04-09 15:25,2021-04-09 15:25\n"save, then close","speichern, dann schließen",272542,2021-04-10 16:33,2021-04-10 16:33\nlonely,,1,,\n';
      const res = await importFile(memoryId, 'lilt.csv', lilt);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { id: memoryId, concepts: 2, terms: 4, skipped: 1 });
      const plain = await importFile(memoryId, 'plain.csv', 'world,Welt\n', '&has_header_row=false');
      assert.equal(plain.json().concepts, 1);
      await admin.post(`/v2/memories/terms?id=${memoryId}`, {
        domain: 'ui',
        terms: [
          { lang: 'en', text: 'file', part_of_speech: 'noun', case_sensitive: true },
          {
            lang: 'de',
            text: 'Datei',
            definition: 'Gespeicherte Daten',
            context: 'Datei öffnen',
            note: 'Duden',
          },
          { lang: 'de', text: 'Akte', status: 'forbidden' },
        ],
      });

      const started = await admin.post(`/v2/memories/termbase/export?id=${memoryId}`, {});
      assert.deepEqual(started.json(), { id: memoryId, is_processing: 0 });
      const download = await admin.get(`/v2/memories/termbase/download?id=${memoryId}`);
      assert.equal(download.statusCode, 200);
      assert.match(download.headers['content-type'] as string, /^text\/csv/);
      const csv = download.body;
      assert.ok(csv.startsWith('source text,target text,status,created date,updated date,'));
      assert.match(csv, /\r\n"save, then close","speichern, dann schließen",preferred,/);
      assert.match(csv, /\r\nfile,Akte,forbidden,/);

      const copy = await newMemory('csv copy');
      const back = await importFile(copy, 'copy.csv', csv);
      assert.equal(back.statusCode, 200, back.body);
      assert.equal(back.json().concepts, 5);
      const concepts = await allConcepts(copy);
      assert.equal(termOf(concepts, 'Akte')!.status, 'forbidden');
      const datei = termOf(concepts, 'Datei')!;
      assert.deepEqual(
        [datei.definition, datei.context, datei.note, datei.case_sensitive, datei.part_of_speech],
        ['Gespeicherte Daten', 'Datei öffnen', 'Duden', true, 'noun'],
      );
      assert.equal(concepts.find((c) => c.terms.some((t) => t.text === 'Datei'))!.domain, 'ui');
      assert.equal(termOf(concepts, 'speichern, dann schließen')!.lang, 'de');

      // Lilt's own import route takes a termbase CSV when has_header_row is given, and .tbx always.
      const viaLilt = await admin.upload('/v2/memories/import', lilt, {
        'lilt-api': JSON.stringify({ memory_id: copy, name: 'lilt.csv', has_header_row: true }),
      });
      assert.equal(viaLilt.statusCode, 200, viaLilt.body);
      assert.equal(viaLilt.json().isProcessing, 0);
      const viaLiltTbx = await admin.upload(
        `/v2/memories/import?memory_id=${copy}&name=basic.tbx`,
        fixture('basic-v2.tbx'),
      );
      assert.equal(viaLiltTbx.statusCode, 200, viaLiltTbx.body);
      assert.equal((await allConcepts(copy)).length, 5 + 2 + 2);
      assert.equal((await translator.get(`/v2/memories/termbase/download?id=${memoryId}`)).statusCode, 403);
      assert.equal((await rival.get(`/v2/memories/termbase/download?id=${memoryId}`)).statusCode, 404);
    });

    test('TBX-Basic export: v3 by default, v2 on request, both well-formed and read back alike', async () => {
      const memoryId = await newMemory('export');
      await importFile(memoryId, 'basic-v2.tbx', fixture('basic-v2.tbx'));
      await importFile(memoryId, 'astronomy-dct.tbx', fixture('astronomy-dct.tbx'));
      const before = await allConcepts(memoryId);
      for (const version of [3, 2]) {
        const res = await admin.get(
          `/v2/memories/terms/export?id=${memoryId}${version === 2 ? '&version=2' : ''}`,
        );
        assert.equal(res.statusCode, 200);
        assert.match(res.headers['content-disposition'] as string, /export\.tbx/);
        const tbx = res.body;
        if (version === 3) {
          assert.match(
            tbx,
            /<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">/,
          );
        } else assert.match(tbx, /<martif type="TBX-Basic" xml:lang="en">/);
        const file = join(work, `export-v${version}.tbx`);
        writeFileSync(file, tbx);
        // Well-formed: an XML parser other than ours reads it.
        execFileSync('python3', [
          '-c',
          'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])',
          file,
        ]);
        const copy = await newMemory(`copy v${version}`);
        const back = await importFile(copy, `export-v${version}.tbx`, tbx);
        assert.equal(back.statusCode, 200, back.body);
        const strip = (concepts: ConceptAnswer[]) =>
          concepts.map((c) => ({
            domain: c.domain,
            note: c.note,
            terms: c.terms.map(({ lang, text, status, part_of_speech, definition, context, note }) => ({
              lang,
              text,
              status,
              part_of_speech,
              definition: definition,
              context,
              note,
            })),
          }));
        assert.deepEqual(strip(await allConcepts(copy)), strip(before), `v${version} reads back as it was`);
      }
    });

    test('translate-toolkit: a file csv2tbx wrote imports; tbx2po reads what Tessera writes', {
      skip: !HAS_TOOLKIT,
    }, async () => {
      const csv = join(work, 'glossary.csv');
      writeFileSync(csv, 'source,target\nfile,Datei\n"menu bar",Menüleiste\n');
      const tbxFile = join(work, 'glossary.tbx');
      execFileSync('csv2tbx', [csv, tbxFile], { stdio: 'ignore' });
      const memoryId = await newMemory('toolkit');
      const res = await importFile(memoryId, 'glossary.tbx', readFileSync(tbxFile));
      assert.equal(res.statusCode, 200, res.body);
      const concepts = await allConcepts(memoryId);
      assert.deepEqual(
        concepts.map((c) => c.terms.map((t) => `${t.lang}:${t.text}`)),
        // csv2tbx names no target language: it writes "xx".
        [
          ['en:file', 'xx:Datei'],
          ['en:menu bar', 'xx:Menüleiste'],
        ],
      );

      await admin.post(`/v2/memories/terms?id=${memoryId}`, {
        terms: [
          { lang: 'en', text: 'Save & close' },
          { lang: 'de', text: 'Speichern & schließen' },
        ],
      });
      const exported = await admin.get(`/v2/memories/terms/export?id=${memoryId}&version=2`);
      const out = join(work, 'tessera.tbx');
      writeFileSync(out, exported.body);
      const po = join(work, 'tessera.po');
      execFileSync('tbx2po', [out, po], { stdio: 'ignore' });
      const text = readFileSync(po, 'utf8');
      assert.match(text, /msgid "menu bar"\nmsgstr "Menüleiste"/);
      assert.match(text, /msgid "Save & close"\nmsgstr "Speichern & schließen"/);
    });

    test('termsOfMemory (for the recognizer and term QA), examples from the memory, and terms go with their memory', async () => {
      const memoryId = await newMemory('recognizer');
      const made = (
        await admin.post(`/v2/memories/terms?id=${memoryId}`, {
          terms: [
            {
              lang: 'en',
              text: 'Print',
              case_sensitive: true,
              part_of_speech: 'verb',
              definition: 'Put on paper',
            },
            { lang: 'de', text: 'Drucken' },
            { lang: 'de', text: 'Ausdrucken', status: 'deprecated' },
          ],
        })
      ).json() as ConceptAnswer;
      const organizationId = (await admin.get('/v2/me')).json().organization_id as number;
      const terms = await termsOfMemory(ctx.db, organizationId, memoryId);
      assert.deepEqual(terms, [
        {
          conceptId: made.id,
          termId: made.terms[0].id,
          lang: 'en',
          text: 'Print',
          status: 'preferred',
          caseSensitive: true,
          partOfSpeech: 'verb',
          definition: 'Put on paper',
        },
        {
          conceptId: made.id,
          termId: made.terms[1].id,
          lang: 'de',
          text: 'Drucken',
          status: 'preferred',
          caseSensitive: false,
          partOfSpeech: null,
          definition: null,
        },
        {
          conceptId: made.id,
          termId: made.terms[2].id,
          lang: 'de',
          text: 'Ausdrucken',
          status: 'deprecated',
          caseSensitive: false,
          partOfSpeech: null,
          definition: null,
        },
      ]);
      assert.deepEqual(
        await termsOfMemory(ctx.db, organizationId + 1000, memoryId),
        [],
        'another organization: none',
      );

      // The lexicon's examples are the memory's concordance of the word.
      for (const [source, target] of [
        ['Print the page.', 'Drucken Sie die Seite.'],
        ['Close the window.', 'Schließen Sie das Fenster.'],
      ]) {
        assert.equal(
          (await admin.post('/v2/segments', { memory_id: memoryId, source, target })).statusCode,
          200,
        );
      }
      const [entry] = (
        await translator.get(`/v2/lexicon?memory_id=${memoryId}&srclang=en&trglang=de&query=print`)
      ).json();
      assert.deepEqual(
        entry.translations.map((t: { target: string }) => t.target),
        ['Drucken', 'Ausdrucken'],
      );
      assert.deepEqual(entry.examples, [
        { source: 'Print the page.', target: 'Drucken Sie die Seite.', memory_id: memoryId },
      ]);

      const twice = await admin.put(`/v2/memories/terms?id=${memoryId}&concept_id=${made.id}`, {
        terms: [
          { id: made.terms[0].id, lang: 'en', text: 'Print' },
          { id: made.terms[0].id, lang: 'en', text: 'Printing' },
        ],
      });
      assert.equal(twice.statusCode, 400);
      assert.match(twice.json().message, /terms\[1\]\.id/);

      assert.equal((await admin.delete(`/v2/memories?id=${memoryId}`)).statusCode, 200);
      assert.deepEqual(await termsOfMemory(ctx.db, organizationId, memoryId), []);
    });

    test("Lilt's lexicon: GET answers from the termbase in Lilt's shape, POST adds an entry", async () => {
      const memoryId = await newMemory('lexicon');
      await admin.post(`/v2/memories/terms?id=${memoryId}`, {
        terms: [
          { lang: 'en', text: 'File' },
          { lang: 'de', text: 'Datei', status: 'preferred' },
          { lang: 'de', text: 'Akte', status: 'forbidden' },
          { lang: 'de', text: 'Dokument', status: 'admitted' },
        ],
      });
      const added = await admin.post('/v2/lexicon', { memory_id: memoryId, source: 'file', target: 'Datei' });
      assert.deepEqual(added.json(), { memory_id: memoryId, success: true });
      const tooLong = await admin.post('/v2/lexicon', {
        memory_id: memoryId,
        source: 'x'.repeat(251),
        target: 'y',
      });
      assert.equal(tooLong.statusCode, 400);
      assert.match(tooLong.json().message, /source/);

      const res = await translator.get(`/v2/lexicon?memory_id=${memoryId}&srclang=en&trglang=de&query=file`);
      assert.equal(res.statusCode, 200, res.body);
      const [entry] = res.json();
      assert.deepEqual(entry.translations, [
        {
          source: 'File',
          target: 'Datei',
          frequency: 2,
          memory_id: memoryId,
          status: 'preferred',
          origin: 'termbase',
        },
        {
          source: 'File',
          target: 'Dokument',
          frequency: 1,
          memory_id: memoryId,
          status: 'admitted',
          origin: 'termbase',
        },
      ]);
      assert.deepEqual(entry.examples, []);
      const none = (
        await translator.get(`/v2/lexicon?memory_id=${memoryId}&srclang=en&trglang=de&query=nothing`)
      ).json();
      assert.deepEqual(none, [{ translations: [], examples: [] }]);
      assert.equal(
        (await translator.post('/v2/lexicon', { memory_id: memoryId, source: 'a', target: 'b' })).statusCode,
        403,
      );
      assert.equal(
        (await rival.get(`/v2/lexicon?memory_id=${memoryId}&srclang=en&trglang=de&query=file`)).statusCode,
        404,
      );
      const missing = await translator.get(`/v2/lexicon?memory_id=${memoryId}&srclang=en&trglang=de`);
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().message, /query/);
    });
  });
}
