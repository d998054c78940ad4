// Tessera's index loaded on its own, for a resident-memory figure comparable with an engine that holds only
// its loaded index: builds the engine bench's corpus index, saves it (src/matching/index-file.ts), then a
// fresh Node process loads it, as the engine bench does (read, checked, restored, refreshed), and reports
// its RSS before and after. The engine bench's own RSS figure is taken with the corpus held.
//
//   node --max-old-space-size=16384 --import tsx bench/compare/tessera-load.ts \
//     --size 1000000 --out tessera-load-1m.json
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadIndexFile, saveIndexFile } from '../../src/matching/index-file.ts';
import { MemoryIndex } from '../../src/matching/memory-index.ts';
import { buildCorpus, chooseCorpus } from '../corpus.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '42' },
    corpus: { type: 'string', default: 'real' },
    out: { type: 'string' },
    // Internal: the child process's part, loading the file given.
    'load-only': { type: 'string' },
  },
});
// The comparison is built on the corpus it names, or not at all (bench/corpus.ts, chooseCorpus).
// (The child that only loads a saved file reads no corpus.)
const corpusRefused = values['load-only'] ? null : chooseCorpus(values.corpus!);
if (corpusRefused) {
  console.error(corpusRefused);
  process.exit(2);
}
const mb = (bytes: number) => bytes / 2 ** 20;

if (values['load-only']) {
  const rss_before_mb = mb(process.memoryUsage().rss);
  const start = performance.now();
  const loaded = await loadIndexFile(values['load-only']);
  if (!loaded.ok) throw new Error(`the saved index did not load: ${loaded.reason}`);
  loaded.index.refresh();
  const load_ms = performance.now() - start;
  // A query, so that nothing built lazily on the first one is missing from the figure.
  loaded.index.search('a first query', { n: 10, threshold: 75 });
  const rss_after_mb = mb(process.memoryUsage().rss);
  console.log(JSON.stringify({ entries: loaded.index.size, load_ms, rss_before_mb, rss_after_mb }));
  process.exit(0);
}

if (!values.out) {
  console.error('usage: tessera-load.ts --size N --out FILE.json [--seed 42]');
  process.exit(2);
}
const size = Number(values.size);
const dir = mkdtempSync(join(tmpdir(), 'tessera-load-'));
try {
  const file = join(dir, 'memory.idx');
  {
    const corpus = buildCorpus(size, Number(values.seed));
    const index = new MemoryIndex();
    for (let i = 0; i < corpus.length; i++) index.add(i + 1, corpus[i].source, i % 100_000);
    index.refresh();
    await saveIndexFile(file, index, 1);
  }
  const child = execFileSync(
    process.execPath,
    ['--max-old-space-size=16384', '--import', 'tsx', import.meta.filename, '--load-only', file],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const result = { size, file_mb: mb(statSync(file).size), ...JSON.parse(child) };
  writeFileSync(values.out, `${JSON.stringify(result)}\n`);
  console.log(JSON.stringify(result));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
