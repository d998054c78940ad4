// PO merge: splices new msgstr values into the original text, so everything else stays as it was.
//
// gettext-parser's compile() re-wraps and re-orders the whole file; splicing keeps an untranslated merge
// byte-identical and a translated one reviewable as a small diff. What msgfmt --check demands of a
// translated catalog is made true here: msgstr[0..nplurals-1] for plural entries with a Plural-Forms
// header that agrees, a header at all, a real charset, and msgstr that begin and end with "\n" exactly
// when msgid does.

import { taggedToLiteral } from '../text/tagged-literal.ts';
import { canonicalName, type PoCatalog } from './po-catalog.ts';
import type { PoEntry, PoField } from './po-entries.ts';

interface Edit {
  start: number;
  end: number;
  text: string;
}

const WIDTH = 79;

export function mergeCatalog(
  catalog: PoCatalog,
  translations: ReadonlyArray<string | null>,
  trglang: string,
): string | undefined {
  const { text } = catalog;
  const eol = /\r\n|\n|\r/.exec(text)?.[0] ?? '\n';
  const edits: Edit[] = [];
  let unit = 0;
  for (const { entry, data, forms } of catalog.messages) {
    const mine = translations.slice(unit, unit + forms);
    unit += forms;
    if (mine.every((t) => t == null)) continue;
    const values = mine.map((t, form) =>
      t == null ? (data.msgstr[form] ?? '') : matchNewlines(taggedToLiteral(t), data.msgid),
    );
    const first = entry.msgstr[0];
    const last = entry.msgstr[entry.msgstr.length - 1];
    const keyword = (form: number) => (entry.msgidPlural ? `msgstr[${form}]` : 'msgstr');
    const rendered = values.map((v, form) => renderField(keyword(form), v, eol)).join(eol);
    edits.push({ start: first.start, end: last.end, text: rendered });
    edits.push(...withoutFuzzy(text, entry));
  }
  if (edits.length === 0) return undefined;
  edits.push(...headerEdits(catalog, trglang, eol));
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

/** A translated message is no longer fuzzy: the flag goes, and so does a flag line left empty. */
function withoutFuzzy(text: string, entry: PoEntry): Edit[] {
  return entry.flagLines
    .filter((line) => line.flags.includes('fuzzy'))
    .map((line) => {
      const flags = line.flags.filter((f) => f !== 'fuzzy');
      const lineEnd = /(\r\n|\n|\r)?$/.exec(text.slice(line.start, line.end))![0];
      return {
        start: line.start,
        end: line.end,
        text: flags.length ? `#, ${flags.join(', ')}${lineEnd}` : '',
      };
    });
}

/**
 * The header a translated catalog needs: the target Language, the Plural-Forms its msgstr[n] follow, and
 * UTF-8 (templates say "CHARSET"; legacy charsets are re-encoded). Other fields stay as written.
 */
function headerEdits(catalog: PoCatalog, trglang: string, eol: string): Edit[] {
  const { header, headers, rule } = catalog;
  const wanted: Record<string, string> = {};
  // A catalog already of the target language keeps its own spelling of it (de_DE for "de").
  if (!headers.Language || !catalog.targetsAreOurs) wanted.Language = trglang.replace(/-/g, '_');
  if (catalog.messages.some((m) => m.entry.msgidPlural) || headers['Plural-Forms'] !== undefined) {
    wanted['Plural-Forms'] = `nplurals=${rule.nplurals}; plural=${rule.plural};`;
  }
  if (!catalog.utf8 || !/charset\s*=\s*utf-?8/i.test(headers['Content-Type'] ?? '')) {
    wanted['Content-Type'] = 'text/plain; charset=UTF-8';
  }
  if (!/^(8bit|7bit|binary)$/i.test(headers['Content-Transfer-Encoding'] ?? '')) {
    wanted['Content-Transfer-Encoding'] = '8bit';
  }
  const old = header?.msgstr[0].value ?? '';
  const lines = old.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1);
  for (const [name, value] of Object.entries(wanted)) {
    const at = lines.findIndex((l) => canonicalName(l.slice(0, l.indexOf(':')).trim()) === name);
    if (at < 0) lines.push(`${name}: ${value}`);
    else if (lines[at].slice(lines[at].indexOf(':') + 1).trim() !== value) lines[at] = `${name}: ${value}`;
  }
  const value = lines.map((l) => `${l}\n`).join('');
  if (!header) {
    const entry = `msgid ""${eol}${renderField('msgstr', value, eol, true)}${eol}${eol}`;
    return [{ start: 0, end: 0, text: entry }];
  }
  if (value === old) return [];
  const field: PoField = header.msgstr[0];
  // A template's header is fuzzy until someone fills it in, which this just did.
  const edit = { start: field.start, end: field.end, text: renderField('msgstr', value, eol, true) };
  return [edit, ...withoutFuzzy(catalog.text, header)];
}

/** msgfmt requires msgstr to begin and end with a newline exactly when msgid does. */
function matchNewlines(value: string, msgid: string): string {
  let v = value;
  if (msgid.startsWith('\n') !== v.startsWith('\n'))
    v = msgid.startsWith('\n') ? `\n${v}` : v.replace(/^\n+/, '');
  if (msgid.endsWith('\n') !== v.endsWith('\n')) v = msgid.endsWith('\n') ? `${v}\n` : v.replace(/\n+$/, '');
  return v;
}

/**
 * One field the way msgmerge writes it: on one line when it fits in 79 columns and holds no inner line
 * break, else an empty first string and one string per line, wrapped at spaces.
 */
export function renderField(keyword: string, value: string, eol: string, multiline = false): string {
  const single = `${keyword} "${escapePo(value)}"`;
  if (!multiline && single.length <= WIDTH && !/\n[\s\S]/.test(value)) return single;
  const chunks = value.split(/(?<=\n)/).flatMap((line) => wrapLine(line, WIDTH - 2));
  return [`${keyword} ""`, ...chunks.map((c) => `"${c}"`)].join(eol);
}

function wrapLine(line: string, width: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const word of line.split(/(?<= )/)) {
    const escaped = escapePo(word);
    if (current && current.length + escaped.length > width) {
      chunks.push(current);
      current = '';
    }
    current += escaped;
  }
  if (current || chunks.length === 0) chunks.push(current);
  return chunks;
}

const NAMED_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\t': '\\t',
  '\r': '\\r',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
};

export function escapePo(s: string): string {
  return s.replace(
    /[\\"\x00-\x1f]/g,
    (c) => NAMED_ESCAPES[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`,
  );
}
