// The repository explains itself and stands alone, checked on every tracked file: nothing refers to design
// documents or data in a sibling folder of the checkout or to a folder of the machine it was written on, nothing builds or
// runs code fetched from elsewhere, and every reference to docs/ — a file, a numbered section, a path a recipe
// of docs/DEVELOPING.md names — leads somewhere.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');
/** This file names what it refuses, in its comments and its own checks: it is not read. */
const SELF = relative(ROOT, import.meta.filename);

/** Folders that are never the repository's own text: installed packages, builds, local output. */
const NOT_OURS = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage', '.tmp']);

/** The files git tracks; outside a checkout (an unpacked archive), every file but NOT_OURS. */
function trackedFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
      .split('\0')
      .filter((f) => f !== '' && existsSync(join(ROOT, f)));
  } catch {
    const walk = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
        const path = dir === '' ? e.name : `${dir}/${e.name}`;
        if (e.isDirectory()) return NOT_OURS.has(e.name) ? [] : walk(path);
        return e.isFile() ? [path] : [];
      });
    return walk('');
  }
}

/** A file's text, or undefined for a binary one (a NUL in its first 8 KiB, as git decides). */
function textOf(file: string): string | undefined {
  const path = join(ROOT, file);
  if (statSync(path).size > 8 << 20) return undefined;
  const bytes = readFileSync(path);
  return bytes.subarray(0, 8192).includes(0) ? undefined : bytes.toString('utf8');
}

const files = trackedFiles();
const texts = new Map(
  files.flatMap((f): [string, string][] => {
    if (f === SELF) return [];
    const text = textOf(f);
    return text === undefined ? [] : [[f, text]];
  }),
);

/** Each line of the tracked text files matching a pattern, as `file:line: text`. */
function linesMatching(pattern: RegExp, skip: (file: string) => boolean = () => false): string[] {
  const found: string[] = [];
  for (const [file, text] of texts) {
    if (skip(file)) continue;
    text.split('\n').forEach((line, i) => {
      if (pattern.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)}`);
    });
  }
  return found;
}

// The patterns are built from pieces, so that this file does not name what it looks for.
/** The design documents and data beside the checkout, which the project's users never have. */
const SHARED = new RegExp(`\\.\\./${'sha'}red\\b`);
/**
 * Folders of a particular machine: working and home folders, temporary ones, mirrors of other repositories.
 * System locations that Debian packages install to (/usr/bin/chromium, /usr/share/apertium) are the same on
 * every machine CI builds on and stay allowed; so do made-up paths a test feeds to a function.
 */
const MACHINE_PATH = new RegExp(
  `(^|[\\s'"\`(=:])/(${['wo' + 'rk', 'ho' + 'me', 'Users', 'ro' + 'ot', 't' + 'mp', 'mnt'].join('|')})/|\\.${'mir' + 'ror'}/`,
);
/** A path under one of those folders, made up for the checks' own test. */
const under = (folder: string, rest: string) => `/${folder}/${rest}`;

test('the file list is the repository (the checks below read something)', () => {
  for (const file of ['package.json', 'README.md', 'docs/DEVELOPING.md', 'src/app.ts']) {
    assert.ok(texts.has(file), `${file} not among the ${files.length} files read`);
  }
});

test('nothing refers to design documents or data kept beside the repository', () => {
  assert.deepEqual(linesMatching(SHARED), []);
});

test('nothing names a folder of the machine it was written on', () => {
  assert.deepEqual(linesMatching(MACHINE_PATH), []);
});

test('nothing builds or runs another project’s code: no shell scripts, no C or C++ in the repository', () => {
  // .ci/run (no extension) installs the system packages CI needs; everything else the project runs is Node.
  const foreign = files.filter((f) =>
    /\.(sh|bash|c|cc|cpp|cxx|h|hpp)$|(^|\/)(CMakeLists\.txt|Makefile)$/.test(f),
  );
  assert.deepEqual(foreign, []);
});

/** The numbers of a markdown file's numbered headings: `## 2. Score` gives 2, `### 2.4 Ranking` 2.4, `## 9a.` 9a. */
function sectionsOf(doc: string): Set<string> {
  const numbers = new Set<string>();
  for (const m of (texts.get(doc) ?? '').matchAll(/^#{1,6}\s+(\d+[a-z]?(?:\.\d+)*)\.?\s/gm))
    numbers.add(m[1]);
  return numbers;
}

test('every docs/ file named exists, and every section named by number (docs/X.md §N) is a heading there', () => {
  const broken: string[] = [];
  for (const [file, text] of texts) {
    for (const m of text.matchAll(/\bdocs\/([A-Za-z-]+\.md)(?:[ ,]*§ ?(\d+[a-z]?(?:\.\d+)*))?/g)) {
      const doc = `docs/${m[1]}`;
      if (!texts.has(doc)) broken.push(`${file}: ${doc} does not exist`);
      else if (m[2] && !sectionsOf(doc).has(m[2])) broken.push(`${file}: ${doc} has no section ${m[2]}`);
    }
  }
  assert.deepEqual(broken, []);
});

test('the README lists every document of docs/', () => {
  const readme = texts.get('README.md') ?? '';
  const docs = files.filter((f) => /^docs\/[^/]+\.md$/.test(f));
  assert.ok(docs.length >= 5, `only ${docs.length} documents in docs/`);
  assert.deepEqual(
    docs.filter((doc) => !readme.includes(`](${doc})`)),
    [],
  );
});

test('every path the recipes of docs/DEVELOPING.md name exists, but for the files their examples create', () => {
  // The examples add comments (an endpoint and its panel), a memory_reindex task and a .properties filter:
  // those files are to be written; every other path is one a newcomer opens, and must be where it says.
  const EXAMPLE = /comments|reindex|properties|\d{3}_comments\.sql/;
  const recipes = texts.get('docs/DEVELOPING.md') ?? '';
  const paths = [...recipes.matchAll(/`((?:src|web|test|docs|bench|scripts|\.ci)\/[^`\s*{},;()]*)/g)].map(
    (m) => m[1].replace(/[.:]$/, ''),
  );
  assert.ok(paths.length > 30, `only ${paths.length} paths found in the recipes`);
  const missing = [...new Set(paths)].filter((p) => !EXAMPLE.test(p) && !existsSync(join(ROOT, p)));
  assert.deepEqual(missing, []);
});

test('the checks see what they must (a machine path, a reference beside the checkout, a missing section)', () => {
  const work = 'wo' + 'rk';
  assert.ok(
    MACHINE_PATH.test(`see ${under(work, 'fm/data')}`) && MACHINE_PATH.test(`'${under('ho' + 'me', 'x/y')}'`),
  );
  assert.ok(
    MACHINE_PATH.test(`FM_ROOT=${under(work, `.${'mir' + 'ror'}/x`)}`) &&
      MACHINE_PATH.test(`--dir=${under('t' + 'mp', 'prof')}`),
  );
  assert.ok(
    !MACHINE_PATH.test('/usr/bin/chromium') && !MACHINE_PATH.test("indexDirFor({ dataDir: '/srv/t' })"),
  );
  assert.ok(!MACHINE_PATH.test('src/modules/documents/routes.ts') && !MACHINE_PATH.test(`a/${'t' + 'mp'}/b`));
  assert.ok(SHARED.test(`(../${'sha'}red/design/API.md)`));
  assert.ok(sectionsOf('docs/MATCHING.md').has('2.4') && !sectionsOf('docs/MATCHING.md').has('2.99'));
});
