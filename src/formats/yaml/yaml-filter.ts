// The YAML filter for Rails-style i18n trees: every non-empty string value is a unit, its key path the
// context; translations are spliced over the scalar's source range, so comments, anchors, key order and
// quoting of untouched values stay as they were.
//
// A root mapping whose single key is the source language (`en:`) is the Rails locale key: it is left out
// of the key paths and renamed to the target language on merge. A translated scalar keeps its style when
// the new value allows it (plain only when it reads back as the same string under YAML 1.2 and 1.1, which
// Ruby's Psych speaks: `No` or `1:20` are quoted); block scalars come back as literal blocks (`|`);
// anything else is written double-quoted. Rails placeholders `%{name}` and `%<name>s` are protected tags;
// YAML has no mark for a draft: a draft whose placeholders are not the source's is not merged (the source
// stays), and a confirmed one blocks the export. Unquoted YAML 1.1 booleans (`yes`, `off`…) are booleans
// to Rails, not text to translate.

import {
  Composer,
  type CST,
  type Document,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  Parser,
  parse,
  type Scalar,
} from 'yaml';
import { FormatError } from '../../errors.ts';
import type { PlaceholderSyntax } from '../../text/placeables.ts';
import { placeholderProblem } from '../../text/qa/placeholder-differences.ts';
import {
  applyEdits,
  checkedMerge,
  type ExtractedUnit,
  type FormatFilter,
  leaveDraftSource,
  placeholderMismatches,
  type UnitTranslation,
  unitEdits,
} from '../filter.ts';
import { literalToTagged, taggedToLiteral } from '../tagged-literal.ts';
import { decodeText, encodeText } from '../text-encoding.ts';

interface StringScalar {
  path: string;
  node: Scalar<string>;
  inFlow: boolean;
}

interface YamlFile {
  text: string;
  strings: StringScalar[];
  /** Source ranges of the locale keys (`en:`) to rename on merge. */
  localeKeys: [number, number][];
}

// Strings to YAML 1.2, which this library reads, but booleans to Psych, which reads `yes`, `On`, `OFF`… in
// any case, and to the YAML 1.1 type repository, which adds `y` and `n`.
const YAML_11_BOOLEAN = /^(?:y|yes|n|no|true|false|on|off)$/i;
const PLACEHOLDER = /%\{[^{}\s]+\}|%<[A-Za-z_]\w*>[-+ 0#]*\d*(?:\.\d+)?[a-zA-Z]/g;
// I18n raises MissingInterpolationArgument for a %{name} the caller does not pass.
const PLACEHOLDERS: readonly PlaceholderSyntax[] = ['ruby'];

// Deeper than any real locale tree (Rails nests a dozen levels); JSON's reader has the same bound.
const MAX_DEPTH = 512;

function readYaml(original: Buffer, srclang: string): YamlFile & { decoded: ReturnType<typeof decodeText> } {
  const decoded = decodeText(original, 'YAML');
  const { text } = decoded;
  const lines = new LineCounter();
  const tokens = Array.from(new Parser(lines.addNewLine).parse(text));
  // The library's composer recurses once a level and, when V8's stack runs out, catches the RangeError and
  // builds its error at the stack's very edge: a regular expression compiled there can fail, and V8 then
  // aborts the whole process ("RegExpCompiler Allocation failed"), every thread of the server with it. So a
  // document nested past MAX_DEPTH is refused on the parser's token tree, which the parser builds without
  // recursion, and never reaches the composer.
  for (const token of tokens) {
    const at = deeperThan(token, MAX_DEPTH);
    if (at !== undefined) {
      const { line, col } = lines.linePos(at);
      throw new FormatError('YAML: nested too deeply', line, col);
    }
  }
  // The library's duplicate-key check is quadratic (2.6 s for 20,000 keys); walk() does it in one pass.
  const docs = Array.from(new Composer({ uniqueKeys: false }).compose(tokens)) as Document.Parsed[];
  const strings: StringScalar[] = [];
  const localeKeys: [number, number][] = [];
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) {
      const { line, col } = lines.linePos(error.pos[0]);
      throw new FormatError(
        `YAML: ${error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '')}`,
        line,
        col,
      );
    }
    const root = doc.contents;
    const locale = isMap(root) && root.items.length === 1 ? root.items[0] : undefined;
    if (
      locale &&
      isScalar(locale.key) &&
      sameLanguage(String(locale.key.value), srclang) &&
      locale.key.range
    ) {
      localeKeys.push([locale.key.range[0], locale.key.range[1]]);
      walk(locale.value as Node | null, '', false, strings, text);
    } else walk(root, '', false, strings, text);
  }
  return { text, strings, localeKeys, decoded };
}

/** The offset of the first collection nested deeper than `max` in a parser token, walked without recursion. */
function deeperThan(root: CST.Token, max: number): number | undefined {
  const pending: [CST.Token, number][] = [[root, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [token, depth] = next;
    if (token.type === 'document') {
      if (token.value) pending.push([token.value, depth]);
    } else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth === max) return token.offset;
      for (const item of token.items) {
        if (item.key) pending.push([item.key, depth + 1]);
        if (item.value) pending.push([item.value, depth + 1]);
      }
    }
  }
  return undefined;
}

function walk(node: Node | null, path: string, inFlow: boolean, out: StringScalar[], text: string): void {
  if (isMap(node)) {
    const flow = inFlow || Boolean(node.flow);
    const keys = new Set<unknown>();
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '?';
      if (isScalar(pair.key)) {
        if (keys.has(pair.key.value)) {
          const at = pair.key.range?.[0] ?? 0;
          const before = text.slice(0, at);
          throw new FormatError(
            'YAML: Map keys must be unique',
            before.split('\n').length,
            at - before.lastIndexOf('\n'),
          );
        }
        keys.add(pair.key.value);
      }
      walk(pair.value as Node | null, path ? `${path}.${key}` : key, flow, out, text);
    }
  } else if (isSeq(node)) {
    const flow = inFlow || Boolean(node.flow);
    node.items.forEach((item, i) => {
      walk(item as Node | null, `${path}[${i}]`, flow, out, text);
    });
  } else if (isScalar(node) && typeof node.value === 'string' && node.value.trim() !== '' && node.range) {
    // An explicit tag other than !!str (e.g. !ruby/regexp) marks a value that is not text.
    const isText = node.tag === undefined || node.tag === 'tag:yaml.org,2002:str';
    if (isText && !(node.type === 'PLAIN' && YAML_11_BOOLEAN.test(node.value))) {
      out.push({ path, node: node as Scalar<string>, inFlow });
    }
  }
}

function sameLanguage(key: string, lang: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/_/g, '-');
  return norm(key) === norm(lang) || norm(key) === norm(lang).split('-')[0];
}

export const yamlFilter: FormatFilter = {
  name: 'yaml',
  extensions: ['.yml', '.yaml'],
  mediaType: 'application/yaml; charset=utf-8',
  contextIsKey: true,
  segmentation: 'entry',

  async extract(original, { srclang }) {
    return readYaml(original, srclang).strings.map(
      ({ path, node }): ExtractedUnit => ({
        source: literalToTagged(node.value, { protect: PLACEHOLDER }),
        context: path,
        segmentable: true,
      }),
    );
  },

  merge: checkedMerge('YAML', (original, { srclang, trglang }) => {
    const { text, strings, localeKeys, decoded } = readYaml(original, srclang);
    const eol = /\r\n|\n|\r/.exec(text)?.[0] ?? '\n';
    return {
      units: strings.length,
      write(translations) {
        const edits = unitEdits(strings, translations, ({ node, inFlow }, t) => {
          const value = taggedToLiteral(t.text);
          const problem = problemOf(node.value, t);
          if (problem !== null) return leaveDraftSource('YAML', t, problem);
          const [start, end] = node.range!;
          return { start, end, text: writeScalar(value, node, text.slice(start, end), inFlow, eol) };
        });
        for (const [start, end] of localeKeys)
          edits.push({ start, end, text: writeScalar(trglang, undefined, '', false, eol) });
        return encodeText(applyEdits(text, edits), decoded);
      },
    };
  }),

  placeholders: {
    syntaxes: PLACEHOLDERS,
    mismatch: 'blocked',
    async mismatches(original, translations, { srclang }) {
      const { strings } = readYaml(original, srclang);
      return placeholderMismatches(strings, translations, ({ node }, t) => problemOf(node.value, t));
    },
  },
};

/** Why a translation of a string would not run, or null. */
function problemOf(source: string, t: UnitTranslation): string | null {
  return placeholderProblem(source, taggedToLiteral(t.text), PLACEHOLDERS);
}

function writeScalar(
  value: string,
  node: Scalar | undefined,
  source: string,
  inFlow: boolean,
  eol: string,
): string {
  switch (node?.type ?? 'PLAIN') {
    case 'PLAIN':
      return plainSafe(value, inFlow) ? value : doubleQuoted(value);
    case 'QUOTE_SINGLE':
      return /[\x00-\x1f\x7f\u0085\u2028\u2029\ufeff]/.test(value)
        ? doubleQuoted(value)
        : `'${value.replace(/'/g, "''")}'`;
    case 'BLOCK_LITERAL':
    case 'BLOCK_FOLDED':
      return literalBlock(value, source, eol) ?? doubleQuoted(value);
    default:
      return doubleQuoted(value);
  }
}

/** A plain scalar is safe when it cannot be read as anything else, in YAML 1.2 or 1.1. */
function plainSafe(value: string, inFlow: boolean): boolean {
  if (value === '' || value !== value.trim()) return false;
  if (/[\x00-\x1f\x7f\u0085\u2028\u2029\ufeff]/.test(value)) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value) || /: |:$| #/.test(value)) return false;
  if (inFlow && /[,[\]{}]/.test(value)) return false;
  try {
    return parse(value) === value && parse(value, { version: '1.1' }) === value;
  } catch {
    return false;
  }
}

/** A `|` block at the original block's indentation; undefined when the value does not suit one. */
function literalBlock(value: string, source: string, eol: string): string | undefined {
  const indent = /\r?\n( +)\S/.exec(source)?.[1];
  if (!indent || /^[ \t]/.test(value) || /[\x00-\x08\x0b-\x1f\x7f\u0085\u2028\u2029\ufeff]/.test(value)) {
    return undefined;
  }
  const body = value.replace(/\n+$/, '');
  const trailing = value.length - body.length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const lines = body.split('\n').map((l) => (l === '' ? '' : indent + l));
  const tail = eol.repeat(Math.max(trailing, 1));
  const block = `|${chomp}${eol}${lines.join(eol)}${tail}`;
  // A block that ended the file without a final line break keeps ending it that way.
  return /\r?\n$/.test(source) ? block : block.slice(0, block.length - eol.length);
}

const DOUBLE_QUOTED_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '"': '\\"',
  '\0': '\\0',
  '\x07': '\\a',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\v': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '\x1b': '\\e',
  '\u0085': '\\N',
  '\u2028': '\\L',
  '\u2029': '\\P',
  '\ufeff': '\\uFEFF',
};

function doubleQuoted(value: string): string {
  const escaped = value.replace(
    /[\\"\x00-\x1f\x7f\u0085\u2028\u2029\ufeff]/g,
    (c) => DOUBLE_QUOTED_ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return `"${escaped}"`;
}
