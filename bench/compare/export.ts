// Writes the engine bench's corpus and timed queries as text files, so that another fuzzy-match engine can be
// timed on exactly what Tessera's engine bench times (README.md here):
//   sources.txt   the corpus sources, one per line (buildCorpus(size, seed), as bench/engine-bench.ts)
//   targets.txt   their targets, one per line (only with --targets)
//   queries.txt   the timed queries, one per line (buildQuerySet(corpus, seed + 1, perClass), same order)
//   classes.txt   the class of each query, one per line
//   warmup.txt    the engine bench's warm-up queries (buildQuerySet(corpus, seed + 2, 25)), looked up
//                 untimed before the timed ones
//   export.json   the options and how many texts had characters replaced
//
//   node --import tsx bench/compare/export.ts --size 1000000 --out DIR
//
// One text a line: line feeds, carriage returns and tabs in a text are each written as a space (a tab would
// also split a line into source and target for tools that read pairs). Tessera's tokenizer splits on all
// three alike, so the texts keep their tokens; the count is in export.json.
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCorpus, buildQuerySet, chooseCorpus } from '../corpus.ts';
import { WARMUP_PER_CLASS } from '../engine-bench.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '42' },
    corpus: { type: 'string', default: 'real' },
    'per-class': { type: 'string', default: '200' },
    out: { type: 'string' },
    targets: { type: 'boolean', default: false },
  },
});
// The comparison is built on the corpus it names, or not at all (bench/corpus.ts, chooseCorpus).
const corpusRefused = chooseCorpus(values.corpus!);
if (corpusRefused) {
  console.error(corpusRefused);
  process.exit(2);
}
if (!values.out) {
  console.error('usage: export.ts --size N --out DIR [--seed 42] [--per-class 200] [--targets]');
  process.exit(2);
}
const size = Number(values.size);
const seed = Number(values.seed);
const perClass = Number(values['per-class']);
const out = values.out;
mkdirSync(out, { recursive: true });

/** One line of text: the characters that would end or split a line are made spaces. */
function oneLine(text: string, counter: { replaced: number }): string {
  if (!/[\r\n\t]/.test(text)) return text;
  counter.replaced++;
  return text.replace(/[\r\n\t]/g, ' ');
}

async function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  const stream = createWriteStream(file);
  let buffer = '';
  for (const line of lines) {
    buffer += `${line}\n`;
    if (buffer.length > 1 << 20) {
      if (!stream.write(buffer)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
      buffer = '';
    }
  }
  stream.end(buffer);
  await new Promise<void>((resolve, reject) => stream.on('finish', resolve).on('error', reject));
}

const started = performance.now();
const corpus = buildCorpus(size, seed);
// As bench/engine-bench.ts: the timed set is drawn with seed + 1, the warm-up set with seed + 2.
const queries = buildQuerySet(corpus, seed + 1, perClass);
const warmup = buildQuerySet(corpus, seed + 2, WARMUP_PER_CLASS);

const sources = { replaced: 0 };
const targets = { replaced: 0 };
const queried = { replaced: 0 };
await writeLines(
  join(out, 'sources.txt'),
  corpus.map((p) => oneLine(p.source, sources)),
);
if (values.targets)
  await writeLines(
    join(out, 'targets.txt'),
    corpus.map((p) => oneLine(p.target, targets)),
  );
await writeLines(
  join(out, 'queries.txt'),
  queries.map((q) => oneLine(q.query, queried)),
);
await writeLines(
  join(out, 'classes.txt'),
  queries.map((q) => q.cls),
);
await writeLines(
  join(out, 'warmup.txt'),
  warmup.map((q) => oneLine(q.query, { replaced: 0 })),
);
const summary = {
  size,
  seed,
  query_seed: seed + 1,
  per_class: perClass,
  entries: corpus.length,
  queries: queries.length,
  empty_sources: corpus.filter((p) => p.source.trim() === '').length,
  empty_queries: queries.filter((q) => q.query.trim() === '').length,
  sources_with_line_breaks_or_tabs_replaced: sources.replaced,
  targets_with_line_breaks_or_tabs_replaced: values.targets ? targets.replaced : null,
  queries_with_line_breaks_or_tabs_replaced: queried.replaced,
  warmup_queries: warmup.length,
  seconds: (performance.now() - started) / 1000,
};
writeFileSync(join(out, 'export.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary));
