// The quality evaluation through HTTP on every store (issue 26): MQM annotations on document segments, the
// document's score as penalty points per 1,000 words against the project's threshold, the report and its CSV,
// bad input named, another organization's document a 404, annotations gone with their segment.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countWords } from '../src/matching/word-count.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const TEXT =
  'Open the settings page.\n\nClick Save to keep your changes.\n\nThe report lists every error by category.\n';
const SOURCES = [
  'Open the settings page.',
  'Click Save to keep your changes.',
  'The report lists every error by category.',
];
const WORDS = SOURCES.reduce((n, s) => n + countWords(s), 0);
const perThousand = (points: number) => Math.round(((points * 1000) / WORDS) * 100) / 100;

/** RFC 4180 rows of a CSV text (quoted cells with doubled quotes, CRLF line ends). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

for (const target of await storeTargets()) {
  describe(`quality evaluation on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let member: ReturnType<typeof client>;
    let rival: ReturnType<typeof client>;
    let projectId: number;
    let documentId: number;
    let segments: { id: number; source: string }[];

    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
      member = client(
        ctx.app,
        await userKey(ctx, { username: 'rita', password: 'review123', role: 'member' }),
      );
      rival = client(
        ctx.app,
        await userKey(ctx, { username: 'rex', password: 'elsewhere1', role: 'admin', organization: 'rival' }),
      );
      const memoryId = (await api.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json()
        .id;
      projectId = (await api.post('/v2/projects', { name: 'Manual', memory_id: memoryId })).json().id;
      documentId = await api.uploadDocument(projectId, 'manual.txt', TEXT);
      segments = (await api.get(`/v2/documents?id=${documentId}&with_segments=true`)).json().segments;
      assert.deepEqual(
        segments.map((s) => s.source),
        SOURCES,
      );
      for (const [i, t] of ['Öffnen Sie die Einstellungen.', 'Klicken Sie auf Sichern.'].entries()) {
        const res = await api.put('/v2/segments', { id: segments[i].id, target: t, is_confirmed: true });
        assert.equal(res.statusCode, 200, res.body);
      }
    });
    after(() => ctx.close());

    test('a document without annotations scores 0 and passes the default threshold', async () => {
      const res = await api.get(`/v2/quality/score?document_id=${documentId}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        document_id: documentId,
        words: WORDS,
        penalty_points: 0,
        points_per_1000_words: 0,
        threshold: 10,
        pass: true,
        errors: { minor: 0, major: 0, critical: 0 },
      });
      const settings = (await api.get(`/v2/quality/settings?project_id=${projectId}`)).json();
      assert.deepEqual(settings, { project_id: projectId, threshold: 10, is_default: true });
    });

    test('annotations count minor 1, major 5, critical 25 points per 1,000 words against the threshold', async () => {
      const minor = await member.post('/v2/quality/annotations', {
        segment_id: segments[1].id,
        category: 'terminology',
        severity: 'minor',
        note: '"Save" is "Speichern" in the glossary, not "Sichern"',
      });
      assert.equal(minor.statusCode, 200, minor.body);
      const a = minor.json();
      assert.equal(a.document_id, documentId);
      assert.equal(a.segment_id, segments[1].id);
      assert.equal(a.target, 'Klicken Sie auf Sichern.');
      assert.equal(a.user, 'rita');
      const major = await api.post('/v2/quality/annotations', {
        segment_id: segments[0].id,
        category: 'accuracy',
        severity: 'major',
        note: '=SUM(A1), a note a spreadsheet must not run',
      });
      assert.equal(major.statusCode, 200, major.body);

      const list = (await api.get(`/v2/quality/annotations?document_id=${documentId}`)).json();
      assert.deepEqual(
        list.map((x: { category: string; severity: string }) => [x.category, x.severity]),
        [
          ['terminology', 'minor'],
          ['accuracy', 'major'],
        ],
      );
      const ofSegment = (
        await api.get(`/v2/quality/annotations?document_id=${documentId}&segment_id=${segments[0].id}`)
      ).json();
      assert.deepEqual(
        ofSegment.map((x: { id: number }) => x.id),
        [major.json().id],
      );

      let score = (await api.get(`/v2/quality/score?document_id=${documentId}`)).json();
      assert.equal(score.penalty_points, 6);
      assert.equal(score.points_per_1000_words, perThousand(6));
      assert.equal(score.pass, perThousand(6) <= 10);
      assert.equal(score.pass, false);
      assert.deepEqual(score.errors, { minor: 1, major: 1, critical: 0 });

      // The project's threshold decides: 400 points per 1,000 words passes this short document.
      const set = await api.put('/v2/quality/settings', { project_id: projectId, threshold: 400 });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json(), { project_id: projectId, threshold: 400, is_default: false });
      score = (await api.get(`/v2/quality/score?document_id=${documentId}`)).json();
      assert.equal(score.threshold, 400);
      assert.equal(score.pass, true);

      // A major error made critical: 1 + 25 points.
      const changed = await api.put('/v2/quality/annotations', { id: major.json().id, severity: 'critical' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().severity, 'critical');
      assert.equal(changed.json().category, 'accuracy');
      score = (await api.get(`/v2/quality/score?document_id=${documentId}`)).json();
      assert.equal(score.penalty_points, 26);
      assert.equal(score.points_per_1000_words, perThousand(26));
      assert.equal(score.pass, false);

      const report = (await api.get(`/v2/quality/report?document_id=${documentId}`)).json();
      assert.equal(report.document_name, 'manual.txt');
      assert.deepEqual(report.penalties, { minor: 1, major: 5, critical: 25 });
      assert.equal(report.categories.length, 7);
      const byCategory = Object.fromEntries(
        report.categories.map((c: { category: string; penalty_points: number }) => [
          c.category,
          c.penalty_points,
        ]),
      );
      assert.deepEqual(byCategory, {
        terminology: 1,
        accuracy: 25,
        linguistic_conventions: 0,
        style: 0,
        locale_conventions: 0,
        audience_appropriateness: 0,
        design_and_markup: 0,
      });
      // Document order: segment 1's critical error before segment 2's minor one.
      assert.deepEqual(
        report.annotations.map((x: { segment_number: number; source: string; penalty_points: number }) => [
          x.segment_number,
          x.source,
          x.penalty_points,
        ]),
        [
          [1, SOURCES[0], 25],
          [2, SOURCES[1], 1],
        ],
      );

      const csv = await api.get(`/v2/quality/report.csv?document_id=${documentId}`);
      assert.equal(csv.statusCode, 200, csv.body);
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      assert.match(String(csv.headers['content-disposition']), /manual\.quality\.csv/);
      const rows = parseCsv(csv.body);
      assert.deepEqual(rows[0].slice(0, 4), ['Segment', 'Category', 'Severity', 'Penalty points']);
      assert.deepEqual(rows[1].slice(0, 6), [
        '1',
        'Accuracy',
        'Critical',
        '25',
        SOURCES[0],
        'Öffnen Sie die Einstellungen.',
      ]);
      assert.equal(rows[1][6], "'=SUM(A1), a note a spreadsheet must not run");
      assert.deepEqual(rows[2].slice(0, 4), ['2', 'Terminology', 'Minor', '1']);
      assert.equal(rows[2][6], '"Save" is "Speichern" in the glossary, not "Sichern"');
      assert.equal(rows[2][7], 'rita');
      const value = (name: string) => rows.find((r) => r[0] === name)?.[1];
      assert.equal(value('Source words'), String(WORDS));
      assert.equal(value('Penalty points'), '26');
      assert.equal(value('Points per 1,000 words'), String(perThousand(26)));
      assert.equal(value('Pass threshold (points per 1,000 words)'), '400');
      // 26 points in so few words is far above 400 per 1,000.
      assert.ok(perThousand(26) > 400);
      assert.equal(value('Result'), 'Fail');
      assert.deepEqual(
        rows.find((r) => r[0] === 'Accuracy'),
        ['Accuracy', '0', '0', '1', '25'],
      );
    });

    test('bad input is named; another organization finds nothing', async () => {
      const wrongCategory = await api.post('/v2/quality/annotations', {
        segment_id: segments[0].id,
        category: 'grammar',
        severity: 'minor',
      });
      assert.equal(wrongCategory.statusCode, 400);
      assert.match(wrongCategory.body, /category/);
      const wrongSeverity = await api.post('/v2/quality/annotations', {
        segment_id: segments[0].id,
        category: 'style',
        severity: 'fatal',
      });
      assert.equal(wrongSeverity.statusCode, 400);
      assert.match(wrongSeverity.body, /severity/);
      const nothing = await api.put('/v2/quality/annotations', { id: 1 });
      assert.equal(nothing.statusCode, 400);
      assert.match(nothing.body, /severity/);
      const negative = await api.put('/v2/quality/settings', { project_id: projectId, threshold: -1 });
      assert.equal(negative.statusCode, 400);
      assert.match(negative.body, /threshold/);
      assert.equal(
        (
          await api.post('/v2/quality/annotations', {
            segment_id: 999999,
            category: 'style',
            severity: 'minor',
          })
        ).statusCode,
        404,
      );
      assert.equal((await api.get('/v2/quality/score')).statusCode, 400);

      const mine = (await api.get(`/v2/quality/annotations?document_id=${documentId}`)).json()[0];
      assert.equal((await rival.get(`/v2/quality/annotations?document_id=${documentId}`)).statusCode, 404);
      assert.equal((await rival.get(`/v2/quality/score?document_id=${documentId}`)).statusCode, 404);
      assert.equal((await rival.get(`/v2/quality/report.csv?document_id=${documentId}`)).statusCode, 404);
      assert.equal((await rival.get(`/v2/quality/settings?project_id=${projectId}`)).statusCode, 404);
      assert.equal(
        (await rival.put('/v2/quality/settings', { project_id: projectId, threshold: 1 })).statusCode,
        404,
      );
      assert.equal(
        (
          await rival.post('/v2/quality/annotations', {
            segment_id: segments[0].id,
            category: 'style',
            severity: 'minor',
          })
        ).statusCode,
        404,
      );
      assert.equal((await rival.put('/v2/quality/annotations', { id: mine.id, note: 'x' })).statusCode, 404);
      assert.equal((await rival.delete(`/v2/quality/annotations?id=${mine.id}`)).statusCode, 404);
      assert.equal((await api.get(`/v2/quality/annotations?document_id=${documentId}`)).json().length, 2);
    });

    test('an annotation is deleted, and goes with its segment', async () => {
      const extra = (
        await api.post('/v2/quality/annotations', {
          segment_id: segments[2].id,
          category: 'style',
          severity: 'minor',
        })
      ).json();
      assert.equal((await api.get(`/v2/quality/annotations?document_id=${documentId}`)).json().length, 3);
      const first = (await api.get(`/v2/quality/annotations?document_id=${documentId}`)).json()[0];
      const deleted = await api.delete(`/v2/quality/annotations?id=${first.id}`);
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.deepEqual(deleted.json(), { id: first.id, deleted: true });
      assert.equal((await api.delete(`/v2/quality/annotations?id=${first.id}`)).statusCode, 404);

      assert.equal((await api.delete(`/v2/segments?id=${segments[2].id}`)).statusCode, 200);
      const left = (await api.get(`/v2/quality/annotations?document_id=${documentId}`)).json();
      assert.ok(!left.some((x: { id: number }) => x.id === extra.id));
      assert.equal(left.length, 1);

      assert.equal((await api.delete(`/v2/documents?id=${documentId}`)).statusCode, 200);
      assert.equal((await api.get(`/v2/quality/annotations?document_id=${documentId}`)).statusCode, 404);
    });
  });
}
