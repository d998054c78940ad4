// Cuts the test corpus samples in test/fixtures/corpus from the real memories: every STEP-th translation unit
// of each file, header and all, so that the sample keeps the file's spread of placeholders, accelerators and
// scripts. Run once; the samples are committed (see their README).
//
//   node scripts/cut-corpus-sample.mjs FOLDER      (FOLDER, or TESSERA_BENCH_DATA: en-de/en-es/en-ja.tmx.gz)
import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

const STEP = 20;
const SOURCE = process.argv[2] ?? process.env.TESSERA_BENCH_DATA;
const TARGET = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus');
if (!SOURCE) {
  console.error(
    'usage: node scripts/cut-corpus-sample.mjs FOLDER (the folder of the real memories; see bench/README.md)',
  );
  process.exit(2);
}

async function* sample(file) {
  const lines = createInterface({ input: createReadStream(join(SOURCE, file)).pipe(createGunzip()) });
  let unit = [];
  let inUnit = false;
  let n = 0;
  for await (const line of lines) {
    if (line.trim() === '<tu>') inUnit = true;
    if (!inUnit) {
      yield `${line}\n`;
      continue;
    }
    unit.push(line);
    if (line.trim() === '</tu>') {
      if (n++ % STEP === 0) yield `${unit.join('\n')}\n`;
      unit = [];
      inUnit = false;
    }
  }
}

for (const file of ['en-de.tmx.gz', 'en-es.tmx.gz', 'en-ja.tmx.gz']) {
  await pipeline(sample(file), createGzip({ level: 9 }), createWriteStream(join(TARGET, file)));
  process.stdout.write(`${file}\n`);
}
