// XLIFF 1.x as a memory file: every trans-unit with a target gives a pair (segmented units a pair per
// <mrk mtype="seg">, matched by mid), in tagged text as the XLIFF filter reads it. The <file> languages, when
// given, must be the memory's (by primary subtag): an en→fr file is refused rather than stored as German.
// Each pair carries its context: the unit's resname, and the sources of the segments before and after it.
// XLIFF is read whole (the upload limit bounds it), unlike TMX, which streams.
import { FormatError } from '../../errors.ts';
import { primaryLanguage as primary } from '../../text/language-tags.ts';
import { gunzipIfCompressed } from '../../xml/gzip.ts';
import { decodeXml } from '../../xml/xml-scan.ts';
import type { TmxReader, TmxReadOptions, TmxReadStats, TmxUnit } from '../tmx/tmx-reader.ts';
import { readTransUnits } from './xliff-trans-units.ts';

export function readXliffPairs(input: AsyncIterable<Uint8Array>, options: TmxReadOptions): TmxReader {
  const stats: TmxReadStats = { units: 0, skipped: 0 };
  return Object.assign(readPairs(input, options, stats), { stats });
}

async function* readPairs(
  input: AsyncIterable<Uint8Array>,
  options: TmxReadOptions,
  stats: TmxReadStats,
): AsyncGenerator<TmxUnit, TmxReadStats> {
  const chunks: Buffer[] = [];
  for await (const chunk of gunzipIfCompressed(input)) chunks.push(Buffer.from(chunk));
  const { text } = decodeXml(Buffer.concat(chunks), 'XLIFF');
  for (const file of text.matchAll(/<(?:[\w.-]+:)?file\b([^>]*)>/g)) {
    const lang = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`).exec(file[1])?.[1];
    for (const [attr, want] of [
      ['source-language', options.srclang],
      ['target-language', options.trglang],
    ] as const) {
      const given = lang(attr);
      if (given && primary(given) !== primary(want)) {
        throw new FormatError(`XLIFF: the file's ${attr} is ${given}, the memory's is ${want}`);
      }
    }
  }
  // Every source segment in file order, translated or not: each pair's context is its unit's resname and the
  // segments around it, as the document this file holds would give them.
  const pieces: { source: string; target: string | undefined; key: string | null }[] = [];
  for (const unit of readTransUnits(text)) {
    const source = unit.segSource ?? unit.source;
    const target = unit.target;
    const key = unit.resname || null;
    if (!source || !target) stats.skipped++;
    if (!source) continue;
    if (source.segments && (!target || target.segments)) {
      const targets = new Map(target?.segments?.map((s) => [s.mid, s.tagged]));
      for (const s of source.segments) {
        pieces.push({ source: s.tagged, target: target ? (targets.get(s.mid) ?? '') : undefined, key });
      }
    } else {
      pieces.push({ source: source.tagged, target: target?.tagged, key });
    }
  }
  for (const [i, { source, target, key }] of pieces.entries()) {
    if (target === undefined) continue;
    if (source.trim() === '' || target.trim() === '') {
      stats.skipped++;
      continue;
    }
    stats.units++;
    const context = { key, prev: pieces[i - 1]?.source ?? null, next: pieces[i + 1]?.source ?? null };
    yield { source, target, context };
  }
  return stats;
}
