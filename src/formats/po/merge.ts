// PO merge: splices new msgstr values into the original text, so everything else stays as it was.
//
// gettext-parser's compile() re-wraps and re-orders the whole file; splicing keeps a translated catalog
// reviewable as a small diff. What msgfmt --check demands of a translated catalog is made true here:
// msgstr[0..nplurals-1] for plural entries with a Plural-Forms header that agrees, a header at all, a real
// charset, msgstr that begin and end with "\n" exactly when msgid does, and format strings whose
// arguments are the msgid's. An unconfirmed translation is written `#, fuzzy`, gettext's own mark for a
// draft: msgfmt leaves it out of the compiled catalog until a translator clears the flag. So is a translation
// whose format arguments are not the msgid's, confirmed or not, with a translator comment naming the problem:
// the catalog still passes msgfmt -c, and the translator's work is in the file, not dropped from it.
import { type PlaceholderSyntax, placeablesOf } from '../../text/placeables.ts';
import { placeholderProblem } from '../../text/qa/placeholder-differences.ts';
import { applyEdits, type Edit, type PlaceholderMismatch, type UnitTranslation } from '../filter.ts';
import { literalToTagged, taggedToLiteral } from '../tagged-literal.ts';
import { examplesForForm } from './plural-forms.ts';
import { canonicalName, type PoCatalog, type PoMessage } from './po-catalog.ts';
import type { PoEntry, PoField } from './po-entries.ts';

const WIDTH = 79;

/**
 * The format flags whose placeholders are checked, with the syntaxes msgfmt -c checks them in. Other
 * printf flavours (javascript-, perl-, lua-format…) differ from C in details, so they get the default
 * check below rather than a claim of agreeing with msgfmt.
 */
const FORMAT_FLAGS = new Map<string, readonly PlaceholderSyntax[]>([
  ['c-format', ['printf']],
  ['objc-format', ['printf']],
  ['php-format', ['printf']],
  ['python-format', ['printf', 'python']],
  ['python-brace-format', ['brace']],
  ['sh-format', ['shell']],
]);
const PRINTF: readonly PlaceholderSyntax[] = ['printf', 'python'];
/** Every syntax a message's flags may declare: what the PO filter says its strings use. */
export const PO_PLACEHOLDERS: readonly PlaceholderSyntax[] = [...new Set([...FORMAT_FLAGS.values()].flat())];
/** How the translator comment of a message written fuzzy for its placeholders begins. */
const COMMENT = '# Tessera: fuzzy, its placeholders would not run:';

/** The catalog's text with the translations (one per unit, at least one not null) in place. */
export function mergeCatalog(
  catalog: PoCatalog,
  translations: ReadonlyArray<UnitTranslation | null>,
  trglang: string,
): string {
  const { text } = catalog;
  const eol = /\r\n|\n|\r/.exec(text)?.[0] ?? '\n';
  // The header first: inserted at the top of a file without one, it goes before a flag line inserted there.
  const edits: Edit[] = headerEdits(catalog, trglang, eol);
  let unit = 0;
  for (const message of catalog.messages) {
    const { entry, data, forms } = message;
    const mine = translations.slice(unit, unit + forms);
    unit += forms;
    if (mine.every((t) => t == null)) continue;
    // One form whose placeholders would not run makes the whole message a draft, with a comment saying why.
    const problems = formProblems(catalog, message, mine);
    const values = mine.map((t, form) =>
      t == null ? (data.msgstr[form] ?? '') : matchNewlines(taggedToLiteral(t.text), data.msgid),
    );
    const first = entry.msgstr[0];
    const last = entry.msgstr[entry.msgstr.length - 1];
    const keyword = (form: number) => (entry.msgidPlural ? `msgstr[${form}]` : 'msgstr');
    const rendered = values.map((v, form) => renderField(keyword(form), v, eol)).join(eol);
    edits.push({ start: first.start, end: last.end, text: rendered });
    const wasFuzzy = entry.flagLines.some((line) => line.flags.includes('fuzzy'));
    const fuzzy =
      problems.length > 0 ||
      mine.some((t) => t != null && !t.confirmed) ||
      // A form kept from the file stays as unreviewed as it was.
      (wasFuzzy && mine.some((t, form) => t == null && values[form] !== '')) ||
      // Some forms empty: not a finished translation (and msgfmt would refuse it as one).
      (values.some((v) => v === '') && values.some((v) => v !== ''));
    // The translator comment first: a message with no comment or flag line gets both at one place, and PO
    // writes translator comments before flags (as msgmerge and every editor do).
    if (problems.length > 0) {
      const comment = problemComment(problems, entry.msgidPlural !== undefined);
      if (!text.slice(entry.start, entry.flagAt).includes(comment)) {
        edits.push({ start: entry.start, end: entry.start, text: `${comment}${eol}` });
      }
    }
    if (fuzzy && !wasFuzzy) edits.push(withFuzzy(text, entry, eol));
    if (!fuzzy && wasFuzzy) edits.push(...withoutFuzzy(text, entry));
  }
  return applyEdits(text, edits);
}

/** The units (forms) of the catalog whose translation's format arguments would not run, with the problem. */
export function catalogMismatches(
  catalog: PoCatalog,
  translations: ReadonlyArray<UnitTranslation | null>,
): PlaceholderMismatch[] {
  const found: PlaceholderMismatch[] = [];
  let unit = 0;
  for (const message of catalog.messages) {
    const mine = translations.slice(unit, unit + message.forms);
    for (const { form, problem } of formProblems(catalog, message, mine))
      found.push({ unit: unit + form, problem });
    unit += message.forms;
  }
  return found;
}

/** The forms of a message whose translation would not run, and why: what mergeCatalog and catalogMismatches decide by. */
function formProblems(
  catalog: PoCatalog,
  message: PoMessage,
  mine: ReadonlyArray<UnitTranslation | null | undefined>,
): { form: number; problem: string }[] {
  const found: { form: number; problem: string }[] = [];
  mine.forEach((t, form) => {
    const problem = t == null ? null : argumentProblem(catalog, message, form, t.text);
    if (problem !== null) found.push({ form, problem });
  });
  return found;
}

/** One comment line naming the problem of each form (`msgstr[1]: …` in a plural message). */
function problemComment(problems: readonly { form: number; problem: string }[], plural: boolean): string {
  const each = problems.map(({ form, problem }) => (plural ? `msgstr[${form}]: ${problem}` : problem));
  return `${COMMENT} ${each.join('; ').replace(/[\r\n]+/g, ' ')}`;
}

/**
 * Why a translation of one form does not keep the message's format arguments, as msgfmt -c checks them, or
 * null when it does: the syntaxes of the entry's format flags, or printf's when the entry has none and its
 * msgid holds printf placeholders (tools other than xgettext rarely write flags, and the program still calls
 * printf). Like gettext, every form is checked against msgid_plural when there is one, and a form the plural
 * rule picks for fewer than 5 of the counts 0…1000 ("one" in German) may leave arguments out.
 */
function argumentProblem(
  catalog: PoCatalog,
  { entry, data }: PoMessage,
  form: number,
  translation: string,
): string | null {
  const flags = entry.flagLines.flatMap((line) => line.flags);
  const declared = flags.flatMap((flag) => FORMAT_FLAGS.get(flag) ?? []);
  const source = literalToTagged(data.msgid_plural ?? data.msgid);
  const negated = flags.some((flag) => /^no-(c|objc|php|python)-format$/.test(flag));
  const printf = placeablesOf(source).some((p) => p.syntax === 'printf' || p.syntax === 'python');
  const syntaxes = declared.length > 0 ? declared : negated || !printf ? [] : PRINTF;
  if (syntaxes.length === 0) return null;
  const { rule } = catalog;
  const allowMissing =
    entry.msgidPlural !== undefined && rule.nplurals > 1 && examplesForForm(rule, form, 5).length < 5;
  return placeholderProblem(source, translation, syntaxes, { allowMissing });
}

/** The entry marked fuzzy: the flag joins its first flag line (`#, fuzzy, c-format`), or gets one. */
function withFuzzy(text: string, entry: PoEntry, eol: string): Edit {
  const line = entry.flagLines[0];
  if (!line) return { start: entry.flagAt, end: entry.flagAt, text: `#, fuzzy${eol}` };
  const lineEnd = /(\r\n|\n|\r)?$/.exec(text.slice(line.start, line.end))![0];
  return { start: line.start, end: line.end, text: `#, ${['fuzzy', ...line.flags].join(', ')}${lineEnd}` };
}

/** A message no longer fuzzy: the flag goes, and so does a flag line left empty. */
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
function renderField(keyword: string, value: string, eol: string, multiline = false): string {
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

function escapePo(s: string): string {
  return s.replace(
    /[\\"\x00-\x1f]/g,
    (c) => NAMED_ESCAPES[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`,
  );
}
