// TBX import rate (issue 28): a TBX-Basic file (v3) of the en-de memory's short entries as concepts — each an
// English and a German term, a part of speech and a definition as real termbases carry — imported into a
// memory's termbase through the server (POST /v2/memories/terms/import, all or nothing), on the embedded store.
import { createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { writeTbx } from '../src/formats/tbx/tbx-writer.ts';
import type { ConceptRecord } from '../src/formats/tbx/termbase.ts';
import { readTmxPairs } from './corpus.ts';
import { withServer } from './http-bench.ts';

export interface TbxBenchResult {
  concepts: number;
  terms: number;
  file_mb: number;
  import_s: number;
  concepts_per_s: number;
}

/** `count` concepts: the memory's entries of one to three words (each source once), then numbered variants. */
function concepts(count: number): (ConceptRecord & { id: number })[] {
  const seen = new Set<string>();
  const base: { source: string; target: string }[] = [];
  for (const p of readTmxPairs('en-de.tmx.gz', 'en', 'de')) {
    const words = p.source.trim().split(/\s+/);
    if (
      words.length > 3 ||
      !/^[\p{L}][\p{L} '-]*$/u.test(p.source.trim()) ||
      seen.has(p.source.toLowerCase())
    )
      continue;
    seen.add(p.source.toLowerCase());
    base.push({ source: p.source.trim(), target: p.target.trim() });
  }
  return Array.from({ length: count }, (_, i) => {
    const { source, target } = base[i % base.length];
    const round = Math.floor(i / base.length);
    const suffix = round === 0 ? '' : ` ${round + 1}`;
    return {
      id: i + 1,
      terms: [
        {
          lang: 'en',
          text: `${source}${suffix}`,
          status: 'preferred',
          caseSensitive: false,
          partOfSpeech: 'noun',
          definition: `The ${source.toLowerCase()} as the user interface names it.`,
        },
        { lang: 'de', text: `${target}${suffix}`, status: 'preferred', caseSensitive: false },
      ],
    };
  });
}

export async function runTbxBench(options: {
  dataDir: string;
  workDir: string;
  apiKey: string;
  concepts?: number;
  log: (line: string) => void;
}): Promise<TbxBenchResult> {
  const count = options.concepts ?? 20_000;
  const file = join(options.workDir, 'termbase.tbx');
  const list = concepts(count);
  await pipeline(
    Readable.from(writeTbx(list, { version: 3, lang: 'en', source: 'Tessera bench' })),
    createWriteStream(file),
  );
  const fileMb = statSync(file).size / 2 ** 20;
  options.log(`tbx: ${count} concepts written, ${fileMb.toFixed(1)} MB`);
  return withServer({ dataDir: options.dataDir, apiKey: options.apiKey }, async (_server, api) => {
    const memory = await api.json<{ id: number }>('POST', '/v2/memories', {
      name: 'termbase',
      srclang: 'en',
      trglang: 'de',
    });
    const started = performance.now();
    const imported = await api.upload<{ concepts: number; terms: number }>(
      '/v2/memories/terms/import',
      file,
      { memory_id: memory.id, name: 'termbase.tbx' },
    );
    const seconds = (performance.now() - started) / 1000;
    // The figure is of a whole import: every concept stored, or the bench says why not.
    if (imported.concepts !== count || imported.terms !== 2 * count) {
      throw new Error(
        `the import stored ${imported.concepts} concepts and ${imported.terms} terms of ${count}`,
      );
    }
    options.log(`tbx: imported in ${seconds.toFixed(1)} s`);
    return {
      concepts: count,
      terms: 2 * count,
      file_mb: fileMb,
      import_s: seconds,
      concepts_per_s: count / seconds,
    };
  });
}
