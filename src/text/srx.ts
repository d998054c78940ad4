// Segmentation rules as SRX 2.0 holds them (language rules of ordered break/no-break rules, chosen for a
// language by map rules), how they cut a text, and the built-in rules (segment-rules.ts) written as such.
//
// A project's own rules are SRX: at each position of the text, the first rule (in the order of the
// languages the map rules give, cascading or not) whose `before` ends there and whose `after` starts there
// says whether the text is cut; where no rule matches, it is not. The expressions are the user's: hostile
// input. srxProblems bounds their number and size and compiles each; running them is the caller's to bound
// in time (the document thread, under a deadline: src/modules/documents/document-thread.ts).
import { type LanguageRules, SEGMENT_RULES } from './segment-rules.ts';

export interface SrxRule {
  break: boolean;
  /** Regular expression that must end at the position (`beforebreak`); '' matches anywhere. */
  before: string;
  /** Regular expression that must start at the position (`afterbreak`); '' matches anywhere. */
  after: string;
}

export interface SrxLanguageRules {
  name: string;
  rules: SrxRule[];
}

export interface SrxMapRule {
  /** Regular expression the whole language code must match (`languagepattern`), e.g. `en.*`. */
  pattern: string;
  /** The language rules it names (`languagerulename`). */
  name: string;
}

export interface SrxRules {
  /** Whether every map rule that matches applies, in order (`cascade="yes"`), or only the first. */
  cascade: boolean;
  languageRules: SrxLanguageRules[];
  mapRules: SrxMapRule[];
}

/** What a project's SRX may hold: more is refused rather than run on every import. */
export const SRX_LIMITS = Object.freeze({ languageRules: 100, rules: 2000, mapRules: 200, pattern: 1000 });

/** The flags every SRX expression is compiled with: Unicode (\p{Lu}), case as written. */
const FLAGS = 'u';

/**
 * Why these rules cannot be used, one line each naming the language rule and the rule (1-based) — limits,
 * unknown names, expressions JavaScript does not read; [] when they can.
 */
export function srxProblems(rules: SrxRules): string[] {
  const problems: string[] = [];
  const total = rules.languageRules.reduce((n, l) => n + l.rules.length, 0);
  if (rules.languageRules.length > SRX_LIMITS.languageRules) {
    problems.push(`${rules.languageRules.length} language rules; at most ${SRX_LIMITS.languageRules}`);
  }
  if (total > SRX_LIMITS.rules) problems.push(`${total} rules; at most ${SRX_LIMITS.rules}`);
  if (rules.mapRules.length > SRX_LIMITS.mapRules) {
    problems.push(`${rules.mapRules.length} language maps; at most ${SRX_LIMITS.mapRules}`);
  }
  if (problems.length > 0) return problems;
  const names = new Set<string>();
  for (const language of rules.languageRules) {
    if (names.has(language.name)) problems.push(`language rule "${language.name}" is defined twice`);
    names.add(language.name);
    language.rules.forEach((rule, i) => {
      for (const side of ['before', 'after'] as const) {
        const problem = srxPatternProblem(rule[side]);
        const element = side === 'before' ? 'beforebreak' : 'afterbreak';
        if (problem) problems.push(`language rule "${language.name}", rule ${i + 1}: ${element} ${problem}`);
      }
    });
  }
  rules.mapRules.forEach((map, i) => {
    const problem = srxPatternProblem(map.pattern);
    if (problem) problems.push(`language map ${i + 1}: languagepattern ${problem}`);
    if (!names.has(map.name)) {
      problems.push(`language map ${i + 1} names language rule "${map.name}", which is not defined`);
    }
  });
  return problems;
}

/** Why a pattern cannot be used (too long, not a JavaScript regular expression), or null. */
export function srxPatternProblem(pattern: string): string | null {
  if (pattern.length > SRX_LIMITS.pattern) {
    return `is ${pattern.length} characters long; at most ${SRX_LIMITS.pattern}`;
  }
  try {
    new RegExp(pattern, FLAGS);
    return null;
  } catch (err) {
    return `is not a regular expression JavaScript reads (${(err as Error).message})`;
  }
}

/**
 * Rules compiled for one language: each a regular expression whose matches end at the positions it decides
 * (matches do not overlap: of a run such as `?!`, the position after the whole run is the one decided).
 */
export interface CompiledSrx {
  rules: { break: boolean; at: RegExp }[];
}

const compiledByRules = new WeakMap<SrxRules, Map<string, CompiledSrx>>();

/** The rules that apply to a language (its map rules', in order), compiled once per rules and language. */
export function srxFor(rules: SrxRules, lang: string): CompiledSrx {
  let byLang = compiledByRules.get(rules);
  if (!byLang) {
    byLang = new Map();
    compiledByRules.set(rules, byLang);
  }
  let compiled = byLang.get(lang);
  if (!compiled) {
    const byName = new Map(rules.languageRules.map((l) => [l.name, l]));
    const applying: SrxRule[] = [];
    for (const map of rules.mapRules) {
      if (!new RegExp(`^(?:${map.pattern})$`, `i${FLAGS}`).test(lang)) continue;
      applying.push(...(byName.get(map.name)?.rules ?? []));
      if (!rules.cascade) break;
    }
    compiled = {
      rules: applying.map((r) => ({
        break: r.break,
        // `before` matched forwards, the position at its end, `after` a lookahead there: a lookbehind would
        // be tried at every position and backtrack over every run (quadratic on a line of dots).
        at: new RegExp(`(?:${r.before})(?=${r.after})`, `g${FLAGS}`),
      })),
    };
    byLang.set(lang, compiled);
  }
  return compiled;
}

/** The positions (0 < p < text.length) where the rules cut the text: the first rule matching there decides. */
export function srxCuts(compiled: CompiledSrx, text: string): number[] {
  const decided = new Map<number, boolean>();
  for (const rule of compiled.rules) {
    for (const m of text.matchAll(rule.at)) {
      const at = m.index + m[0].length;
      if (at > 0 && at < text.length && !decided.has(at)) decided.set(at, rule.break);
    }
  }
  return [...decided]
    .filter(([, cut]) => cut)
    .map(([at]) => at)
    .sort((a, b) => a - b);
}

// ---- The built-in rules, written as SRX.

const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  ja: 'Japanese',
  zh: 'Chinese',
};

/**
 * The built-in rules as SRX: per language its abbreviations and rules as no-break and break rules, then a
 * default that expresses what Intl.Segmenter (ICU, UAX #29) does for the common case — a full stop, question
 * or exclamation mark and the closing quotes or brackets after it end a sentence before whitespace, unless a
 * lower-case letter follows a full stop. The built-in engine itself runs ICU with the language's rules on top;
 * another tool (or this one, importing the file) runs these rules alone, which cut the same way on ordinary
 * prose.
 */
export function builtInSrx(): SrxRules {
  const languageRules: SrxLanguageRules[] = Object.entries(SEGMENT_RULES).map(([code, rules]) => ({
    name: LANGUAGE_NAMES[code] ?? code,
    rules: languageSrxRules(rules),
  }));
  languageRules.push({ name: 'Default', rules: DEFAULT_RULES });
  return {
    cascade: true,
    languageRules,
    mapRules: [
      ...Object.keys(SEGMENT_RULES).map((code) => ({
        pattern: `${code}(?:[-_].*)?`,
        name: LANGUAGE_NAMES[code] ?? code,
      })),
      { pattern: '.*', name: 'Default' },
    ],
  };
}

const CLOSERS = `["'”’»\\p{Pe}\\p{Pf}]*`;

// The break rule is tried only at the start of a run of stops, as the CJK rule is (segment-rules.ts): tried
// inside one too, a line of dots not followed by a space was read again from every dot (60,000: 18 s).
const DEFAULT_RULES: SrxRule[] = [
  { break: false, before: '\\.', after: '\\s+\\p{Ll}' },
  { break: true, before: `(?<![.!?…])[.!?…]+${CLOSERS}`, after: '\\s' },
  { break: true, before: '[\\u2029]', after: '' },
];

function languageSrxRules(rules: LanguageRules): SrxRule[] {
  const out: SrxRule[] = [];
  const abbreviation = (abbr: string, afterLast: string) => {
    const words = abbr.split(/\s+/).map(escapeRegExp);
    words.forEach((_, i) => {
      out.push({
        break: false,
        before: `(?<![\\p{L}\\p{N}])${words.slice(0, i + 1).join('\\s*')}`,
        after: i < words.length - 1 ? `\\s*${words.slice(i + 1).join('\\s*')}` : afterLast,
      });
    });
  };
  for (const abbr of rules.abbreviations ?? []) abbreviation(abbr, '');
  for (const abbr of rules.abbreviationsBeforeNumber ?? []) abbreviation(abbr, '\\s*\\p{N}');
  // No-break rules first: in SRX the first rule that matches decides, and the built-in engine lets them win.
  const own = rules.rules ?? [];
  for (const r of own.filter((r) => !r.break)) out.push({ break: false, before: r.before, after: r.after });
  for (const r of own.filter((r) => r.break)) out.push({ break: true, before: r.before, after: r.after });
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
