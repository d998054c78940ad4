// The layout's rules, checked on the source: arrows only run down the layers, no import cycles, SQL only in
// repositories (and the task queue and the store), modules reach each other through services, never through
// another module's repository, and no code outside the dialect folders asks which database it runs on.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

// Lowest first. A file may import files of its own layer or of lower layers only.
const LAYERS: [string, number][] = [
  ['src/errors.ts', 0],
  ['src/pacing.ts', 0],
  ['src/roles.ts', 0],
  ['src/text/', 1],
  ['src/matching/', 1],
  ['src/xml/', 1],
  ['src/terminology/', 1],
  ['src/formats/', 2],
  ['src/config.ts', 3],
  ['src/store/', 3],
  ['src/tasks/', 4],
  ['src/events/', 4],
  ['src/http/', 5],
  ['src/modules/', 6],
  ['src/app.ts', 7],
  ['src/server.ts', 7],
  ['src/cli/', 8],
];

/** Layers whose code is pure: no HTTP framework, no database. */
const PURE = [
  'src/pacing.ts',
  'src/roles.ts',
  'src/text/',
  'src/matching/',
  'src/xml/',
  'src/terminology/',
  'src/formats/',
];
const IMPURE_PACKAGES = ['fastify', '@fastify/', 'pg', 'better-sqlite3'];

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true })
    .map((f) => join(SRC, String(f)))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .map((f) => relative(ROOT, f));
}

function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: Import[] = [];
  const pattern =
    /^(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of text.matchAll(pattern)) {
    const specifier = m[3] ?? m[4];
    if (!specifier) continue;
    const to = specifier.startsWith('.')
      ? relative(ROOT, resolve(dirname(join(ROOT, file)), specifier))
      : specifier;
    out.push({ from: file, to, typeOnly: Boolean(m[2]) });
  }
  return out;
}

function layerOf(file: string): number | undefined {
  return LAYERS.find(([prefix]) => file === prefix || (prefix.endsWith('/') && file.startsWith(prefix)))?.[1];
}

function moduleOf(file: string): string | undefined {
  return /^src\/modules\/([^/]+)\//.exec(file)?.[1];
}

const files = sourceFiles();
const imports = files.flatMap(importsOf);
const local = imports.filter((i) => i.to.startsWith('src/'));

test('every source file belongs to a layer', () => {
  assert.deepEqual(
    files.filter((f) => layerOf(f) === undefined),
    [],
  );
});

test('server code imports itself by relative paths, never through the web application’s @server/ alias', () => {
  // The alias is in the root tsconfig only so that tsx can run the web's unit tests; an import through it here
  // would look like a package to the layer checks above.
  assert.deepEqual(
    imports.filter((i) => i.to.startsWith('@server/')).map((i) => `${i.from} → ${i.to}`),
    [],
  );
});

test('imports only run down the layers', () => {
  const upward = local
    .filter((i) => (layerOf(i.to) ?? 0) > (layerOf(i.from) ?? 0))
    .map((i) => `${i.from} → ${i.to}`);
  assert.deepEqual(upward, []);
});

test('the pure layers import no HTTP framework and no database driver', () => {
  const impure = imports
    .filter((i) => PURE.some((p) => i.from.startsWith(p)))
    .filter(
      (i) => IMPURE_PACKAGES.some((p) => i.to === p || i.to.startsWith(p)) || i.to.startsWith('src/store/'),
    )
    .map((i) => `${i.from} → ${i.to}`);
  assert.deepEqual(impure, []);
});

test('no import cycle between files', () => {
  const edges = new Map<string, string[]>();
  for (const i of local) edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
  const cycle = findCycle(edges);
  assert.equal(cycle, undefined, `cycle: ${cycle?.join(' → ')}`);
});

test('no import cycle between modules, and no module calls into another module’s repository', () => {
  const edges = new Map<string, string[]>();
  const intoRepositories: string[] = [];
  for (const i of local) {
    const from = moduleOf(i.from);
    const to = moduleOf(i.to);
    if (!from || !to || from === to) continue;
    edges.set(from, [...(edges.get(from) ?? []), to]);
    // Row types may be named; the SQL is called through the owning module's service.
    if (/repository\.ts$/.test(i.to) && !i.typeOnly) intoRepositories.push(`${i.from} → ${i.to}`);
  }
  const cycle = findCycle(edges);
  assert.equal(cycle, undefined, `cycle: ${cycle?.join(' → ')}`);
  assert.deepEqual(intoRepositories, []);
});

test('SQL lives in repositories, the task queue and the store only', () => {
  const SQL = /['"`]\s*(SELECT\s.+\sFROM|INSERT INTO|UPDATE\s+\w+\s+SET|DELETE FROM)\b/;
  const allowed = (f: string) =>
    /(\/|-)repository\.ts$/.test(f) || f === 'src/tasks/queue.ts' || f.startsWith('src/store/');
  const outside = files.filter((f) => !allowed(f) && SQL.test(readFileSync(join(ROOT, f), 'utf8')));
  assert.deepEqual(outside, []);
});

test('only the dialect folders ask which database they run on', () => {
  const asking = files.filter(
    (f) => !f.startsWith('src/store/') && /\.dialect\s*[!=]==/.test(readFileSync(join(ROOT, f), 'utf8')),
  );
  assert.deepEqual(asking, []);
});

test('AppErrors are made in src/errors.ts only: every other file throws one of its named constructors', () => {
  // One catalogue of statuses and stable codes (docs/API.md lists them); a code made up beside a service would
  // be missing from both.
  const building = files.filter(
    (f) =>
      f !== 'src/errors.ts' &&
      /\bnew AppError\(|\bextends AppError\b/.test(readFileSync(join(ROOT, f), 'utf8')),
  );
  assert.deepEqual(building, []);
});

test('one minimum score and one set of bands: their numbers are written in src/matching/score-bands.ts only', () => {
  // 75, 85 and 95 as numbers or in a band's label ('75–84%'), in the code of src/ and web/src (comments aside;
  // tests may name the values they check). The web reads score-bands.ts through @server/ as the server does.
  const BAND_NUMBER = /(?<![\w.#-])(75|85|95)(?![\w.])/;
  const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  const web = readdirSync(join(ROOT, 'web', 'src'), { recursive: true })
    .map((f) => join('web', 'src', String(f)))
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
  const found = [...files, ...web]
    .filter((f) => f !== 'src/matching/score-bands.ts')
    .flatMap((f) =>
      code(readFileSync(join(ROOT, f), 'utf8'))
        .split('\n')
        .filter((line) => BAND_NUMBER.test(line))
        .map((line) => `${f}: ${line.trim()}`),
    );
  assert.ok(BAND_NUMBER.test("{ band: 'fuzzy75', label: '75–84%' }") && BAND_NUMBER.test('score >= 85 ?'));
  assert.ok(!BAND_NUMBER.test('0.75') && !BAND_NUMBER.test('#750') && !BAND_NUMBER.test('1975'));
  assert.deepEqual(found, []);
});

/** A cycle in a directed graph as the list of its nodes, or undefined. */
function findCycle(edges: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}
