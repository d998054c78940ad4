// Reads a PO/POT file for both directions: decoded text, located entries, gettext-parser's view of each
// message, the header and the plural rule of the target language.

import { po as gettextPo, type PoTranslation } from 'gettext-parser';
import { FormatError } from '../../errors.ts';
import { decodeText } from '../text-encoding.ts';
import { catalogPluralRule, type PluralRule } from './plural-forms.ts';
import { locatePoEntries, type PoEntry } from './po-entries.ts';

export interface PoMessage {
  entry: PoEntry;
  data: PoTranslation;
  /** How many units (and msgstr lines on merge) the message has: 1, or nplurals for a plural entry. */
  forms: number;
}

export interface PoCatalog {
  text: string;
  /** Whether the file is UTF-8 (else it is re-encoded as UTF-8 when translations are merged). */
  utf8: boolean;
  bom: boolean;
  header?: PoEntry;
  headers: Record<string, string>;
  rule: PluralRule;
  /** Every message except the header and obsolete ones, in file order. */
  messages: PoMessage[];
  /** False when the header names a language other than the target: its msgstr are not translations. */
  targetsAreOurs: boolean;
}

export function readCatalog(original: Buffer, trglang: string): PoCatalog {
  const { text, utf8, bom } = decodePo(original);
  const entries = locatePoEntries(text);
  let data: ReturnType<typeof gettextPo.parse>;
  try {
    data = gettextPo.parse(text);
  } catch (e) {
    const line = (e as { lineNumber?: number }).lineNumber;
    throw new FormatError(
      `PO file: ${(e as Error).message.replace(/ at line \d+.*$/s, '')}`,
      line,
      line && 1,
    );
  }
  const live = entries.filter((e) => !e.obsolete);
  const header = live.find((e) => e.msgid?.value === '' && !e.msgctxt);
  const headers = parseHeaderFields(header?.msgstr[0]?.value ?? '');
  const rule = catalogPluralRule(headers, trglang);
  const messages = live
    .filter((e) => e !== header)
    .map((entry): PoMessage => {
      const byContext = data.translations[entry.msgctxt?.value ?? ''];
      const found =
        byContext && Object.hasOwn(byContext, entry.msgid!.value) ? byContext[entry.msgid!.value] : undefined;
      if (!found) throw new FormatError('PO entry that gettext-parser does not read', entry.line, 1);
      return { entry, data: found, forms: entry.msgidPlural ? rule.nplurals : 1 };
    });
  const language = headers.Language?.toLowerCase().split(/[-_@.]/)[0];
  const targetsAreOurs = !language || language === trglang.toLowerCase().split(/[-_]/)[0];
  return { text, utf8, bom, header, headers, rule, messages, targetsAreOurs };
}

/** Header fields by name ("Plural-Forms", "Language"…), as written, later lines winning. */
function parseHeaderFields(value: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of value.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields[canonicalName(line.slice(0, colon).trim())] = line.slice(colon + 1).trim();
  }
  return fields;
}

/** Header names compare case-insensitively; "plural-forms" and "Plural-Forms" are one field. */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

/**
 * Decodes by the header's charset: UTF-8 (also for the template's "CHARSET"), or any charset the
 * platform's TextDecoder knows (ISO-8859-*, windows-125*, EUC-JP, GBK…).
 */
function decodePo(bytes: Buffer): { text: string; utf8: boolean; bom: boolean } {
  const charset = sniffCharset(bytes.toString('latin1'));
  if (!charset || /^(utf-?8|charset|ascii|us-ascii)$/i.test(charset)) {
    const { text, encoding, bom } = decodeText(bytes, 'PO file');
    if (encoding !== 'utf-8') throw new FormatError('PO file: UTF-16 is not a gettext encoding');
    return { text, utf8: true, bom };
  }
  const decoder = (() => {
    try {
      return new TextDecoder(charset, { fatal: true });
    } catch {
      throw new FormatError(`PO file: unsupported charset "${charset}"`);
    }
  })();
  try {
    return { text: decoder.decode(bytes), utf8: false, bom: false };
  } catch {
    throw new FormatError(`PO file: bytes that are not valid ${charset}`);
  }
}

/** The charset named in the header entry (the first msgstr of the file, before the second msgid). */
function sniffCharset(latin1: string): string | undefined {
  const firstMsgid = latin1.search(/^[ \t]*msgid\b/m);
  if (firstMsgid < 0) return undefined;
  const next = latin1.slice(firstMsgid + 5).search(/^[ \t]*(?:msgid|msgctxt)\b/m);
  const head = latin1.slice(firstMsgid, next < 0 ? undefined : firstMsgid + 5 + next);
  return /charset\s*=\s*([A-Za-z0-9_.:-]+)/i.exec(head)?.[1];
}
