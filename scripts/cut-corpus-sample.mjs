// Cuts the test corpus samples in test/fixtures/corpus from the real memories in ../shared/data: every
// STEP-th translation unit of each file, header and all, so that the sample keeps the file's spread of
// placeholders, accelerators and scripts. Run once; the samples are committed (see their README).
import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

const STEP = 20;
const SOURCE = join(import.meta.dirname, '..', '..', 'shared', 'data');
const TARGET = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus');

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
