// How a translation's placeholders differ from its source's: missing, extra or changed, each named as written
// (`%s`, `{count}`). QA reports them (qa-checks.ts); the filters of formats whose placeholders execute name
// them as the problem of a translation they cannot write as it is (placeholderProblem: a PO export's
// translator comment, the 422 EXPORT_BLOCKED of the others).
import { nativeCode, parseTagged } from '../inline-tags.ts';
import {
  PLACEHOLDER_SYNTAXES,
  type Placeable,
  type PlaceholderSyntax,
  placeablesOf,
  placeholdersCorrespond,
  sameFormatArguments,
} from '../placeables.ts';

export type PlaceholderDifferenceCode = 'PLACEHOLDER_MISSING' | 'PLACEHOLDER_EXTRA' | 'PLACEHOLDER_CHANGED';

export interface PlaceholderDifference {
  code: PlaceholderDifferenceCode;
  message: string;
  /** An extra or changed placeholder's place in the target (UTF-16 offsets in the tagged text). */
  start?: number;
  end?: number;
}

/** A placeholder as QA names it: its key and syntax, how it is written, and where (its code element, if in one). */
interface Found extends Placeable {
  written: string;
}

/**
 * The placeholders of tagged text, those in code elements included (Android's `<xliff:g>%1$s</xliff:g>`):
 * what the program reads, however the filter protected it.
 */
function placeholdersIn(tagged: string): Found[] {
  return placeablesOf(tagged).flatMap((p): Found[] => {
    if (p.kind === 'number') return [];
    const [part] = parseTagged(p.text);
    const native = part?.type === 'tag' && part.form === 'code' ? nativeCode(part) : undefined;
    if (p.kind === 'placeholder') return [{ ...p, written: native ?? writtenForm(p) }];
    if (native === undefined) return [];
    // Inside a code element: named as written, placed where the element is.
    return placeholdersIn(native).map((inner) => ({ ...inner, text: p.text, start: p.start, end: p.end }));
  });
}

/** `{n, plural,` — the head of a plural whose branches are text — is named `{n, plural, …}`. */
function writtenForm(p: Placeable): string {
  return p.syntax === 'brace' && p.text.endsWith(',') ? `${p.text} …}` : p.text;
}

const FORMAT_ARGUMENTS: readonly PlaceholderSyntax[] = ['printf', 'python'];
const isArgument = (p: Placeable) => FORMAT_ARGUMENTS.includes(p.syntax!);

/**
 * The differences between the placeholders of `source` and of `target` (tagged text), of the given syntaxes:
 *   - compared by key, so that each placeholder of the source must be in the target as often (`{{ n }}` is
 *     `{{n}}`, and `<ph id="1">{{n}}</ph>` too); one left out is missing, one not in the source extra, and a
 *     missing and an extra one of the same syntax, in order, are one that changed (`%s` became `%d`);
 *   - except printf's and Python's where their arguments, as msgfmt -c reads them, say more: `%2$d %1$s` for
 *     `%s %d` is a correct reordering (no difference), and `%d %s` for it, though every placeholder is there,
 *     reads the arguments with the wrong types (changed).
 */
export function placeholderDifferences(
  source: string,
  target: string,
  syntaxes: readonly PlaceholderSyntax[] = PLACEHOLDER_SYNTAXES,
): PlaceholderDifference[] {
  const of = (tagged: string) => placeholdersIn(tagged).filter((p) => syntaxes.includes(p.syntax!));
  let ours = of(source);
  let theirs = of(target);
  if (sameFormatArguments(ours.filter(isArgument), theirs.filter(isArgument))) {
    ours = ours.filter((p) => !isArgument(p));
    theirs = theirs.filter((p) => !isArgument(p));
  }
  const found = byKey(ours, theirs);
  if (!found.some((d) => isArgument(d.placeholder))) {
    const order = orderDifference(ours.filter(isArgument), theirs.filter(isArgument));
    if (order) found.push(order);
  }
  return found.map(({ placeholder: _, ...difference }) => difference);
}

type Difference = PlaceholderDifference & { placeholder: Found };

/** Each placeholder of `from` that `other` lacks (counting repeats), in order. */
function lacking(from: readonly Found[], other: readonly Found[]): Found[] {
  const left = new Map<string, number>();
  for (const p of other) left.set(p.key, (left.get(p.key) ?? 0) + 1);
  return from.filter((p) => {
    const n = left.get(p.key) ?? 0;
    left.set(p.key, n - 1);
    return n <= 0;
  });
}

function byKey(ours: readonly Found[], theirs: readonly Found[]): Difference[] {
  const extra = lacking(theirs, ours);
  const differences: Difference[] = [];
  for (const gone of lacking(ours, theirs)) {
    const at = extra.findIndex((p) => p.syntax === gone.syntax);
    if (at < 0) {
      const message = `Placeholder ${gone.written} of the source is missing`;
      differences.push({ code: 'PLACEHOLDER_MISSING', message, placeholder: gone });
      continue;
    }
    const [now] = extra.splice(at, 1);
    const message = `Placeholder ${gone.written} of the source became ${now.written}`;
    differences.push({
      code: 'PLACEHOLDER_CHANGED',
      message,
      start: now.start,
      end: now.end,
      placeholder: gone,
    });
  }
  for (const p of extra) {
    const message = `Placeholder ${p.written} is not in the source`;
    differences.push({ code: 'PLACEHOLDER_EXTRA', message, start: p.start, end: p.end, placeholder: p });
  }
  return differences;
}

/**
 * The same printf placeholders in another order: unnumbered ones are read in order, so the arguments no
 * longer fit (a crash in C); numbering them (`%1$s`) is how a translation reorders them.
 */
function orderDifference(ours: readonly Found[], theirs: readonly Found[]): Difference | null {
  const first = theirs.find((p, i) => p.key !== ours[i]?.key);
  if (!first) return null;
  const list = (ps: readonly Found[]) => ps.map((p) => p.written).join(' ');
  return {
    code: 'PLACEHOLDER_CHANGED',
    message: `Placeholders ${list(ours)} of the source are in another order (${list(theirs)}); number them (%1$s, %2$d) to reorder`,
    start: first.start,
    end: first.end,
    placeholder: first,
  };
}

/**
 * Why `target` would not run where `source` does, as placeholdersCorrespond decides it (the format filters'
 * check), or null when it would: the differences named (`Placeholder %s of the source is missing`), those a
 * plural form may leave out (allowMissing) aside.
 */
export function placeholderProblem(
  source: string,
  target: string,
  syntaxes: readonly PlaceholderSyntax[],
  options: { allowMissing?: boolean } = {},
): string | null {
  if (placeholdersCorrespond(source, target, syntaxes, options)) return null;
  const named = placeholderDifferences(source, target, syntaxes)
    .filter((d) => !(options.allowMissing && d.code === 'PLACEHOLDER_MISSING'))
    .map((d) => d.message);
  // What placeholdersCorrespond refuses beyond keys: printf arguments numbered and not, or a number skipped.
  return named.length > 0
    ? named.join('; ')
    : 'The placeholders are not a format string the program can read';
}
