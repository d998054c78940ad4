// What the web application (web/src) may take from the server's src/: code only from the pure layers that run
// the same in a browser (matching, text, terminology), types only from those and from the modules' TypeBox
// schemas — never the store, the HTTP layer, the modules' services or anything else that needs Node or a
// database. src/xml/ is reached only through src/text/ (inline tags escape XML); src/formats/ never (file parsers
// on Node libraries).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');
const WEB = join(ROOT, 'web', 'src');

/** Where web code may import server code from (values and types). */
const CODE = ['src/matching/', 'src/text/', 'src/terminology/'];
/**
 * Where web code may import server types from, besides CODE: the modules' schemas (`schemas.ts`, or one of a module's
 * several, `settings-schemas.ts`), the shapes they share, the live events'.
 */
const SCHEMAS = /^src\/(modules\/[^/]+\/([a-z-]+-)?schemas|http\/schemas|events\/live-events)\.ts$/;
/** Where the server code the browser runs may lie: CODE and what CODE imports. */
const BUNDLED = [...CODE, 'src/xml/'];
/**
 * Packages the bundled server code may import: pure JavaScript that runs the same in a browser. The
 * stemmers of term recognition (src/terminology/stemmers.ts), which the editor runs as you type.
 */
const BROWSER_PACKAGES = ['@orama/stemmers/'];

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** The imports of a file, each resolved to a path from the root when relative or through the `@server/` alias. */
function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const pattern =
    /^(import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  const out: Import[] = [];
  for (const m of text.matchAll(pattern)) {
    const specifier = m[4] ?? m[5];
    const to = specifier.startsWith('@server/')
      ? join('src', specifier.slice('@server/'.length))
      : specifier.startsWith('.')
        ? relative(ROOT, resolve(dirname(join(ROOT, file)), specifier))
        : specifier;
    // `import { type A, type B }` brings no value either.
    const names = m[3]?.trim() ?? '';
    const allTypes = /^\{[^}]*\}$/.test(names) && names.slice(1, -1).split(',').every(isTypeName);
    out.push({ from: file, to, typeOnly: Boolean(m[2]) || (names !== '' && allTypes) });
  }
  return out;
}

const isTypeName = (name: string) => name.trim() === '' || /^type\s/.test(name.trim());

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => relative(ROOT, f));
}

const webImports = filesUnder(WEB).flatMap(importsOf);
const intoServer = webImports.filter((i) => i.to.startsWith('src/'));
const inCode = (file: string) => CODE.some((prefix) => file.startsWith(prefix));

test('the web imports server code only from the pure layers (matching, text, terminology)', () => {
  const refused = intoServer.filter((i) => !i.typeOnly && !inCode(i.to)).map((i) => `${i.from} → ${i.to}`);
  assert.deepEqual(refused, []);
});

test('the web imports server types only from the pure layers and the schemas of the API and its live events', () => {
  const refused = intoServer
    .filter((i) => i.typeOnly && !inCode(i.to) && !SCHEMAS.test(i.to))
    .map((i) => `${i.from} → ${i.to}`);
  assert.deepEqual(refused, []);
});

test('every server file the web bundles is pure and needs nothing of Node', () => {
  // The closure of the web's value imports into src/: what Vite puts in the browser's bundle.
  const seen = new Set<string>();
  const queue = intoServer.filter((i) => !i.typeOnly).map((i) => i.to);
  const problems: string[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!existsSync(join(ROOT, file))) problems.push(`${file}: not found`);
    else if (!BUNDLED.some((prefix) => file.startsWith(prefix)))
      problems.push(`${file}: outside the pure layers`);
    else {
      for (const i of importsOf(file).filter((i) => !i.typeOnly)) {
        if (i.to.startsWith('src/')) queue.push(i.to);
        else if (!BROWSER_PACKAGES.some((p) => i.to.startsWith(p))) problems.push(`${file} → ${i.to}`);
      }
    }
  }
  assert.ok(seen.size > 0, 'the web imports no server code: the walk found nothing to check');
  assert.deepEqual(problems, []);
});

test('the web reaches server code through the @server/ alias, never by a relative path out of web/', () => {
  const relativeIntoServer = filesUnder(WEB).flatMap((file) =>
    [
      ...readFileSync(join(ROOT, file), 'utf8').matchAll(
        /\bfrom\s+['"](\.\.\/[^'"]*)['"]|import\(\s*['"](\.\.\/[^'"]*)['"]/g,
      ),
    ]
      .map((m) => m[1] ?? m[2])
      .filter((specifier) => relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)).startsWith('src/'))
      .map((specifier) => `${file} → ${specifier}`),
  );
  assert.deepEqual(relativeIntoServer, []);
});

test('query keys are made in web/src/api/keys/ only: no key written as a literal elsewhere', () => {
  // A key spelled out in a component drifts from the one its invalidation uses; the keys' files hold both.
  const KEYS = join('web', 'src', 'api', 'keys');
  const LITERAL_KEY = /\bqueryKey:\s*\[\s*['"`]|\b(?:setQueryData|getQueryData|removeQueries)\(\s*\[\s*['"`]/;
  const literal = filesUnder(WEB)
    .filter((file) => !file.startsWith(KEYS) && !/\.test\.tsx?$/.test(file))
    .flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (LITERAL_KEY.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
  assert.ok(LITERAL_KEY.test("queryKey: ['job-stats']") && !LITERAL_KEY.test('queryKey: jobStatsKey(id)'));
  assert.deepEqual(literal, []);
});
