// Streaming TMX 1.4 writer: memory entries in, ~64 KB string chunks out, valid against tmx14.dtd.

import { endTag, startTag, textElement, XmlChunks } from '../../xml/xml-writer.ts';
import { contextProps, type UnitContext } from './tmx-context.ts';
import { taggedToTmx } from './tmx-inline.ts';

export interface TmxEntry {
  /** Tagged text (src/text/inline-tags.ts); inline tags are mapped as tmx-inline.ts describes. */
  source: string;
  target: string;
  /** Unix seconds. */
  createdAt?: number;
  updatedAt?: number;
  /** Written as the unit's creationid. */
  createdBy?: string;
  /** Written as <prop type="x-resource-name">, which readTmx gives back in props. */
  resourceName?: string;
  /** Written as the unit's tuid. */
  id?: number | string;
  /** Written as the props of tmx-context.ts, which readTmx gives back as the unit's context. */
  context?: UnitContext;
}

export interface TmxHeader {
  /** Language tags written as each unit's <tuv xml:lang>; srclang also goes into the header. */
  srclang: string;
  trglang: string;
  creationTool: string;
  creationToolVersion: string;
  adminLang?: string;
  segType?: 'block' | 'paragraph' | 'sentence' | 'phrase';
  dataType?: string;
  /** The original translation memory format. */
  oTmf?: string;
  /** Unix seconds. */
  creationDate?: number;
}

const RESOURCE_NAME_PROP = 'x-resource-name';

/**
 * Writes a TMX 1.4 document. Pipe it with `Readable.from(writeTmx(…))`: entries are pulled only as
 * fast as the output is consumed, and the output comes in chunks of about 64 KB.
 */
export async function* writeTmx(
  entries: AsyncIterable<TmxEntry> | Iterable<TmxEntry>,
  header: TmxHeader,
): AsyncGenerator<string, void> {
  const out = new XmlChunks();
  out.write('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  ');
  out.write(
    startTag(
      'header',
      {
        creationtool: header.creationTool,
        creationtoolversion: header.creationToolVersion,
        segtype: header.segType ?? 'sentence',
        'o-tmf': header.oTmf ?? 'tessera',
        adminlang: header.adminLang ?? 'en',
        srclang: header.srclang,
        datatype: header.dataType ?? 'plaintext',
        creationdate: header.creationDate === undefined ? undefined : formatTmxDate(header.creationDate),
      },
      true,
    ),
  );
  out.write('\n  <body>\n');
  const srcTuv = `      ${startTag('tuv', { 'xml:lang': header.srclang })}`;
  const trgTuv = `</seg></tuv>\n      ${startTag('tuv', { 'xml:lang': header.trglang })}<seg>`;
  for await (const entry of entries) {
    out.write(
      `    ${startTag('tu', {
        tuid: entry.id,
        creationdate: entry.createdAt === undefined ? undefined : formatTmxDate(entry.createdAt),
        creationid: entry.createdBy,
        changedate: entry.updatedAt === undefined ? undefined : formatTmxDate(entry.updatedAt),
      })}\n`,
    );
    if (entry.resourceName !== undefined) {
      out.write(`      ${textElement('prop', { type: RESOURCE_NAME_PROP }, entry.resourceName)}\n`);
    }
    const context = entry.context && contextProps(entry.context);
    if (context?.unit) out.write(`      ${context.unit}\n`);
    out.write(
      `${srcTuv + (context?.source ?? '')}<seg>${taggedToTmx(entry.source)}${trgTuv}${taggedToTmx(entry.target)}</seg></tuv>\n`,
    );
    out.write(`    ${endTag('tu')}\n`);
    if (out.full) yield out.take();
  }
  out.write('  </body>\n</tmx>\n');
  yield out.take();
}

/** Unix seconds → TMX `YYYYMMDDThhmmssZ`. */
export function formatTmxDate(unixSeconds: number): string {
  const iso = new Date(Math.floor(unixSeconds) * 1000).toISOString(); // 2024-01-31T12:00:00.000Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}
