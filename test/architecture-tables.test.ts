// Every table has one owner, checked on the source: the one file that writes it (INSERT, UPDATE, DELETE, or a
// table named to insertMany, deleteInSlices, deleteStaged or a chunked file), and only the owner's module (or
// layer, outside src/modules) reads it. Other modules ask the owner's service; the few exceptions are listed
// below with their reason. OWNERS names every table's owner.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const MIGRATIONS = join(SRC, 'store', 'migrations');

/** Each table of the migrations and the one file that writes it. */
const OWNERS: Record<string, string> = {
  organizations: 'src/modules/users/repository.ts',
  users: 'src/modules/users/repository.ts',
  api_keys: 'src/modules/users/repository.ts',
  sessions: 'src/modules/users/repository.ts',
  memories: 'src/modules/memories/repository.ts',
  memory_entries: 'src/modules/memories/repository.ts',
  memory_deletions: 'src/modules/memories/repository.ts',
  memory_entry_versions: 'src/modules/memories/repository.ts',
  projects: 'src/modules/projects/repository.ts',
  documents: 'src/modules/documents/repository.ts',
  document_files: 'src/modules/documents/repository.ts',
  document_segments: 'src/modules/documents/segment-repository.ts',
  document_assignments: 'src/modules/documents/assignment-repository.ts',
  segment_versions: 'src/modules/documents/segment-repository.ts',
  replace_batches: 'src/modules/documents/segment-repository.ts',
  replace_changes: 'src/modules/documents/segment-repository.ts',
  pretranslate_staging: 'src/modules/documents/segment-repository.ts',
  propagated_segments: 'src/modules/documents/segment-repository.ts',
  source_files: 'src/modules/files/repository.ts',
  source_file_chunks: 'src/modules/files/repository.ts',
  source_file_labels: 'src/modules/files/repository.ts',
  jobs: 'src/modules/jobs/repository.ts',
  analysis_weights: 'src/modules/jobs/weights-repository.ts',
  quality_annotations: 'src/modules/quality/repository.ts',
  quality_thresholds: 'src/modules/quality/repository.ts',
  tasks: 'src/tasks/queue.ts',
  task_files: 'src/tasks/task-files.ts',
  instances: 'src/store/instances.ts',
  counters: 'src/store/counters.ts',
  comments: 'src/modules/comments/repository.ts',
  notifications: 'src/modules/notifications/repository.ts',
  mt_cache: 'src/modules/mt/repository.ts',
  mt_usage: 'src/modules/mt/repository.ts',
  term_concepts: 'src/modules/terms/repository.ts',
  terms: 'src/modules/terms/repository.ts',
  file_translations: 'src/modules/file-translations/repository.ts',
  file_translation_chunks: 'src/modules/file-translations/repository.ts',
  mt_usage_months: 'src/modules/mt/repository.ts',
  mt_engines: 'src/modules/mt/settings-repository.ts',
  mt_limits: 'src/modules/mt/settings-repository.ts',
};

/**
 * Reads across owners that stay, each justified. A file may read another module's table only when listed
 * here; a listed read the file no longer makes fails the test, so that the list stays true.
 */
const CROSS_READS: { file: string; table: string; why: string }[] = [
  {
    file: 'src/store/sqlite/sqlite-db.ts',
    table: 'memory_entries',
    why:
      'On SQLite the id sequence memory entries and document segments share (allocateIds) is memory_entries’ ' +
      'AUTOINCREMENT counter, which the store seeds from the largest id when SQLite has not made it yet.',
  },
];

/** The tables the migrations leave, in the order they apply: created, renamed, dropped. */
function migratedTables(dialect: 'sqlite' | 'postgres'): Set<string> {
  const dir = join(MIGRATIONS, dialect);
  const tables = new Set<string>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const sql = readFileSync(join(dir, file), 'utf8').replace(/--.*$/gm, '');
    const statements =
      /\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)|\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(\w+)|\bALTER\s+TABLE\s+(\w+)\s+RENAME\s+TO\s+(\w+)/gi;
    for (const [, created, dropped, from, to] of sql.matchAll(statements)) {
      if (created) tables.add(created);
      if (dropped) tables.delete(dropped);
      if (from && to) {
        tables.delete(from);
        tables.add(to);
      }
    }
  }
  return tables;
}

interface Lexed {
  /** The source without its comments (string literals kept), for calls that name a table. */
  code: string;
  /** Every string literal's text; a template's `${name}` of a string constant of the file is that constant. */
  strings: string[];
}

/**
 * Splits a TypeScript source into its code and its string literals: quotes, templates (with `${…}` holding
 * code, strings and templates of its own), comments and regular expression literals are told apart.
 */
function lex(source: string): Lexed {
  let i = 0;
  let code = '';
  const constants = new Map<string, string>();
  const templates: { parts: string[]; expressions: string[] }[] = [];
  const strings: string[] = [];

  const regexAllowed = () => {
    const before = code.trimEnd();
    const last = before.at(-1);
    if (last === undefined) return true;
    if (/[\w$)\]]/.test(last)) return /\b(return|typeof|case|of|in)$/.test(before);
    return true;
  };
  const constantName = () => /\bconst\s+(\w+)\s*(?::\s*\w+\s*)?=\s*$/.exec(code)?.[1];

  const quoted = (quote: string) => {
    const start = i++;
    let text = '';
    while (i < source.length && source[i] !== quote) {
      if (source[i] === '\\') text += source[i++];
      text += source[i++];
    }
    i++;
    const name = constantName();
    if (name) constants.set(name, text);
    strings.push(text);
    code += source.slice(start, i);
  };

  const template = () => {
    const name = constantName();
    const start = i++;
    const parts = [''];
    const expressions: string[] = [];
    while (i < source.length && source[i] !== '`') {
      if (source[i] === '\\') {
        parts[parts.length - 1] += source[i++] + source[i++];
      } else if (source[i] === '$' && source[i + 1] === '{') {
        i += 2;
        const from = i;
        const outer = code;
        code = '';
        scan(true);
        code = outer;
        expressions.push(source.slice(from, i - 1));
        parts.push('');
      } else {
        parts[parts.length - 1] += source[i++];
      }
    }
    i++;
    templates.push({ parts, expressions });
    if (name) constants.set(name, parts.join(' _ '));
    code += source.slice(start, i);
  };

  const regex = () => {
    let inClass = false;
    i++;
    while (i < source.length && (source[i] !== '/' || inClass)) {
      if (source[i] === '\\') i++;
      else if (source[i] === '[') inClass = true;
      else if (source[i] === ']') inClass = false;
      i++;
    }
    i++;
    code += '/re/';
  };

  /** Code up to the end (or, in a template's `${…}`, up to its closing brace). */
  function scan(inExpression: boolean) {
    let depth = 0;
    while (i < source.length) {
      const c = source[i];
      const next = source[i + 1];
      if (c === '/' && next === '/') {
        while (i < source.length && source[i] !== '\n') i++;
      } else if (c === '/' && next === '*') {
        i = source.indexOf('*/', i + 2) + 2;
      } else if (c === '/' && regexAllowed()) {
        regex();
      } else if (c === "'" || c === '"') {
        quoted(c);
      } else if (c === '`') {
        template();
      } else {
        if (c === '{') depth++;
        if (c === '}') {
          if (inExpression && depth === 0) {
            i++;
            return;
          }
          depth--;
        }
        code += c;
        i++;
      }
    }
  }

  scan(false);
  for (const { parts, expressions } of templates) {
    const resolved = expressions.map((e) => constants.get(e.trim()) ?? ' _ ');
    strings.push(parts.map((part, k) => part + (resolved[k] ?? '')).join(''));
  }
  return { code, strings };
}

interface Access {
  writes: Set<string>;
  reads: Set<string>;
}

/** The tables a source writes and reads. SQL keywords are upper case throughout the code base. */
function accessOf(source: string): Access {
  const { code, strings } = lex(source);
  const writes = new Set<string>();
  const reads = new Set<string>();
  for (const sql of strings) {
    for (const m of sql.matchAll(
      /\bINSERT\s+INTO\s+(\w+)|\bDELETE\s+FROM\s+(\w+)|(?<!\bDO\s+)\bUPDATE\s+(\w+)\s+SET\b/g,
    )) {
      writes.add(m[1] ?? m[2] ?? m[3]);
    }
    for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+(\w+)/g)) reads.add(m[1]);
  }
  const named = [
    /\binsertMany\(\s*['"](\w+)['"]/g,
    /\bdeleteInSlices\(\s*[\w.]+\s*,\s*\{\s*table:\s*['"](\w+)['"]/g,
    /\bdeleteStaged\(\s*[\w.]+\s*,\s*['"](\w+)['"]/g,
    /:\s*ChunkTable\s*=\s*\{\s*table:\s*['"](\w+)['"]/g,
  ];
  for (const pattern of named) for (const m of code.matchAll(pattern)) writes.add(m[1]);
  return { writes, reads };
}

/** Who answers for a file: its module under src/modules, else its folder (or the file) under src. */
function ownerUnit(file: string): string {
  return /^src\/modules\/[^/]+/.exec(file)?.[0] ?? /^src\/[^/]+/.exec(file)![0];
}

const tables = migratedTables('sqlite');
const files = readdirSync(SRC, { recursive: true })
  .map((f) => relative(ROOT, join(SRC, String(f))))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'));
const access = new Map(files.map((f) => [f, accessOf(readFileSync(join(ROOT, f), 'utf8'))]));

function writersOf(table: string): string[] {
  return files.filter((f) => access.get(f)!.writes.has(table));
}

test('both dialects’ migrations leave the same tables', () => {
  assert.deepEqual([...migratedTables('postgres')].sort(), [...tables].sort());
});

test('the SQL scan finds what it must (a template’s constant, a multi-line statement, a named table)', () => {
  const sample = `
    const STAGED = 'staging s WHERE s.task_id = ?';
    // DELETE FROM commented_out
    await db.run(\`UPDATE segments SET target = s.target
      FROM \${STAGED} AND segments.id = s.segment_id\`, [/['"]/.test(x) ? 1 : 0]);
    await tx.insertMany(
      'versions', COLUMNS, rows);
    const FILES: ChunkTable = { table: 'files', owner: 'document_id' };
    await db.run('INSERT INTO counters (key) VALUES (?) ON CONFLICT (key) DO UPDATE SET count = count + 1');`;
  const found = accessOf(sample);
  assert.deepEqual([...found.writes].sort(), ['counters', 'files', 'segments', 'versions']);
  assert.deepEqual([...found.reads].sort(), ['staging']);
});

test('every table is written by exactly one file', () => {
  const shared = [...tables]
    .map((table) => ({ table, writers: writersOf(table) }))
    .filter((t) => t.writers.length > 1)
    .map((t) => `${t.table}: ${t.writers.join(', ')}`);
  assert.deepEqual(shared, []);
});

test('every table of the migrations has an owner', () => {
  assert.deepEqual(
    [...tables].filter((table) => writersOf(table).length === 0),
    [],
  );
});

test('the owners are the ones listed', () => {
  assert.deepEqual(Object.keys(OWNERS).sort(), [...tables].sort());
  assert.deepEqual(
    Object.fromEntries([...tables].sort().map((table) => [table, writersOf(table).join(', ')])),
    Object.fromEntries(Object.entries(OWNERS).sort()),
  );
});

test('a file reads only the tables of its own module (or layer), but for the listed exceptions', () => {
  const crossing: string[] = [];
  const used = new Set<string>();
  for (const file of files) {
    for (const table of access.get(file)!.reads) {
      // A table without one writer is the tests above's to report.
      const writers = writersOf(table);
      if (!tables.has(table) || writers.length !== 1) continue;
      const owner = writers[0];
      if (ownerUnit(owner) === ownerUnit(file)) continue;
      const allowed = CROSS_READS.find((r) => r.file === file && r.table === table);
      if (allowed) used.add(`${file} → ${table}`);
      else crossing.push(`${file} reads ${table} (owned by ${owner})`);
    }
  }
  assert.deepEqual(crossing, []);
  assert.deepEqual(
    CROSS_READS.map((r) => `${r.file} → ${r.table}`).filter((r) => !used.has(r)),
    [],
    'an exception no longer needed',
  );
});
