// Streaming TMX reader: one translation unit at a time for a language pair, segments as tagged text.

import { FileLimitError } from '../../errors.ts';
import { gunzipIfCompressed } from '../../xml/gzip.ts';
import { escapeXmlText } from '../../xml/xml-escape.ts';
import {
  MAX_XML_RUN,
  readXml,
  type XmlContext,
  type XmlHandlers,
  type XmlTag,
} from '../../xml/xml-reader.ts';
import { contextFromProps, type UnitContext } from './tmx-context.ts';
import { MAPPED_TYPE_PREFIX, markupTag, restoreMappedTag, TMX_CODE_ELEMENTS } from './tmx-inline.ts';

export interface TmxUnit {
  /** Tagged text (src/text/inline-tags.ts). */
  source: string;
  target: string;
  tuid?: string;
  /** Unix seconds. */
  creationDate?: number;
  changeDate?: number;
  creationId?: string;
  changeId?: string;
  props?: Record<string, string>;
  notes?: string[];
  /** Where the unit's source stood (tmx-context.ts), when the file says. */
  context?: UnitContext;
}

export interface TmxReadOptions {
  /** Language tags; a <tuv> matches by primary subtag, case-insensitively (`EN_us` matches `en`). */
  srclang: string;
  trglang: string;
  /** A gzipped file's largest size once inflated (TESSERA_MAX_DECOMPRESSED_BYTES); gunzipIfCompressed's default. */
  maxDecompressedBytes?: number;
}

export interface TmxReadStats {
  /** Units yielded. */
  units: number;
  /** Units lacking the source or the target language. */
  skipped: number;
  /** Of those, the units with no variant in the source language, and those with none in the target's. */
  noSource?: number;
  noTarget?: number;
  /** The languages the skipped units have (their variants' tags, lower case, at most 20): why they were. */
  skippedLanguages?: string[];
}

/** Most languages of skipped units a read reports. */
const MAX_SKIPPED_LANGUAGES = 20;

/** The unit generator, whose return value is the final stats; `stats` is the same object, live. */
export type TmxReader = AsyncGenerator<TmxUnit, TmxReadStats> & { readonly stats: TmxReadStats };

/**
 * Reads TMX (any version, UTF-8 or UTF-16, gzipped or not) from a byte stream. Throws XmlError with
 * line and column on malformed XML, FormatError when the file is not TMX.
 */
export function readTmx(input: AsyncIterable<Uint8Array>, options: TmxReadOptions): TmxReader {
  const stats: TmxReadStats = { units: 0, skipped: 0, noSource: 0, noTarget: 0, skippedLanguages: [] };
  return Object.assign(readUnits(input, options, stats), { stats });
}

async function* readUnits(
  input: AsyncIterable<Uint8Array>,
  options: TmxReadOptions,
  stats: TmxReadStats,
): AsyncGenerator<TmxUnit, TmxReadStats> {
  yield* readXml<TmxUnit>(gunzipIfCompressed(input, options.maxDecompressedBytes), (ctx) =>
    tmxHandlers(ctx, options, stats),
  );
  return stats;
}

// Both shapes are built whole, every field present, so each keeps one hidden class (measurably faster).
interface Variant {
  /** Normalised language tag (lower case, "-") and its primary subtag. */
  lang: string;
  primary: string;
  attrs: Record<string, string>;
  text: string | undefined;
  props: Record<string, string> | undefined;
  notes: string[] | undefined;
}

interface Unit {
  attrs: Record<string, string>;
  variants: Variant[];
  props: Record<string, string> | undefined;
  notes: string[] | undefined;
}

// Inline elements kept as open/close/empty tags when met outside a code element (hi, plus XLIFF's that
// some tools write into TMX); any other element inside <seg> gives up its markup and keeps its text.
const TAG_ELEMENTS = new Set(['hi', 'g', 'mrk', 'sub', 'x', 'bx', 'ex']);

function tmxHandlers(ctx: XmlContext<TmxUnit>, options: TmxReadOptions, stats: TmxReadStats): XmlHandlers {
  const src = normaliseLang(options.srclang);
  const trg = normaliseLang(options.trglang);
  // A file uses a handful of language codes; normalising each once keeps regexes off the hot path.
  const langs = new Map<string, { lang: string; primary: string }>();
  const langOf = (code: string) => {
    let known = langs.get(code);
    if (!known) {
      known = normaliseLang(code);
      if (langs.size < 256) langs.set(code, known);
    }
    return known;
  };
  let sawRoot = false;
  let inBody = false;
  let unit: Unit | undefined;
  let variant: Variant | undefined;
  let field: { kind: 'note' | 'prop'; type: string; text: string } | undefined;
  // Characters the open unit holds (its texts, attributes, props and notes): bounded, as saxes bounds each
  // run (MAX_XML_RUN), so that a <seg> of a million empty tags, or a unit of a million variants, is
  // refused rather than gathered whole.
  let held = 0;
  const hold = (chars: number) => {
    held += chars;
    if (held > MAX_XML_RUN) {
      const at = ctx.position();
      throw new FileLimitError(
        `a translation unit holds more than ${MAX_XML_RUN} characters`,
        at.line,
        at.column,
      );
    }
  };

  // Inside <seg>: depth counts open elements (seg itself is 1); seg is undefined when the variant's
  // text is not wanted, so its content is skipped.
  let segDepth = 0;
  let seg: string | undefined;
  // Inside a code element: its depth, where it starts in seg, and for a mapped one (type="x-tag-…")
  // the tag it stands for and its decoded text.
  let codeDepth = 0;
  let codeStart = 0;
  let codeTag: XmlTag | undefined;
  let mapped: string | undefined;
  let plain = '';
  // bpt i → tag name, for the ept that closes a mapped pair.
  const mappedPairs = new Map<string, string>();

  function openInline(tag: XmlTag): void {
    const { name, attributes, isSelfClosing } = tag;
    if (codeDepth > 0) {
      // Markup inside a code element (<sub> in TMX) is part of its native-code content.
      seg += markupTag(name, attributes, isSelfClosing);
      if (!isSelfClosing) codeDepth++;
      mapped = undefined;
    } else if (TMX_CODE_ELEMENTS.has(name)) {
      if (!isSelfClosing) {
        codeDepth = 1;
        codeStart = seg!.length;
        codeTag = tag;
        mapped = name === 'ept' ? mappedPairs.get(attributes.i) : mappedName(attributes.type);
        plain = '';
      }
      seg += markupTag(name, attributes, isSelfClosing);
    } else if (TAG_ELEMENTS.has(name)) {
      seg += markupTag(name, attributes, isSelfClosing);
    }
  }

  function closeInline(tag: XmlTag): void {
    if (tag.isSelfClosing) return;
    const { name } = tag;
    if (codeDepth === 0) {
      if (TAG_ELEMENTS.has(name)) seg += `</${name}>`;
      return;
    }
    seg += `</${name}>`;
    if (--codeDepth > 0 || mapped === undefined) return;
    const restored = restoreMappedTag(codeTag!.name, mapped, plain);
    if (restored === undefined) return;
    seg = seg!.slice(0, codeStart) + restored;
    if (codeTag!.name === 'bpt') mappedPairs.set(codeTag!.attributes.i, mapped);
  }

  function finishUnit(done: Unit): void {
    const source = pick(done.variants, src, undefined);
    const target = source && pick(done.variants, trg, source);
    if (!source || !target) {
      stats.skipped++;
      if (source) stats.noTarget!++;
      else stats.noSource!++;
      const seen = stats.skippedLanguages!;
      for (const v of done.variants) {
        if (v.lang !== '' && seen.length < MAX_SKIPPED_LANGUAGES && !seen.includes(v.lang)) seen.push(v.lang);
      }
      return;
    }
    stats.units++;
    const result: TmxUnit = { source: source.text ?? '', target: target.text ?? '' };
    if (done.attrs.tuid !== undefined) result.tuid = done.attrs.tuid;
    const creationDate = parseTmxDate(unitAttr(done, source, target, 'creationdate'));
    if (creationDate !== undefined) result.creationDate = creationDate;
    const changeDate = parseTmxDate(unitAttr(done, source, target, 'changedate'));
    if (changeDate !== undefined) result.changeDate = changeDate;
    const creationId = unitAttr(done, source, target, 'creationid');
    if (creationId !== undefined) result.creationId = creationId;
    const changeId = unitAttr(done, source, target, 'changeid');
    if (changeId !== undefined) result.changeId = changeId;
    // Unit-level props and notes first; the chosen variants' own add to them without overriding.
    if (done.props || source.props || target.props)
      result.props = { ...target.props, ...source.props, ...done.props };
    const context = contextFromProps(result.props);
    if (context) result.context = context;
    if (done.notes || source.notes || target.notes) {
      result.notes = [...(done.notes ?? []), ...(source.notes ?? []), ...(target.notes ?? [])];
    }
    ctx.emit(result);
  }

  return {
    openTag(tag) {
      if (unit) {
        let chars = tag.name.length + 2;
        for (const key in tag.attributes) chars += key.length + tag.attributes[key].length + 4;
        hold(chars);
      }
      if (segDepth > 0) {
        segDepth++;
        if (seg !== undefined) openInline(tag);
        return;
      }
      const { name, attributes } = tag;
      if (!sawRoot) {
        sawRoot = true;
        if (name !== 'tmx') ctx.fail('Not a TMX file', `the root element is <${name}>, expected <tmx>`);
      }
      if (name === 'body') inBody = true;
      else if (name === 'tu' && inBody && !unit) {
        unit = { attrs: attributes, variants: [], props: undefined, notes: undefined };
        held = 0;
      } else if (name === 'tuv' && unit && !variant) {
        const { lang, primary } = langOf(attributes['xml:lang'] ?? attributes.lang ?? '');
        variant = { lang, primary, attrs: attributes, text: undefined, props: undefined, notes: undefined };
      } else if (name === 'seg') {
        segDepth = 1;
        const wanted =
          variant &&
          variant.text === undefined &&
          (variant.primary === src.primary || variant.primary === trg.primary);
        if (wanted) {
          seg = '';
          codeDepth = 0;
          if (mappedPairs.size > 0) mappedPairs.clear();
        }
      } else if ((name === 'note' || name === 'prop') && unit) {
        field = { kind: name, type: attributes.type ?? '', text: '' };
      }
    },
    closeTag(tag) {
      if (segDepth > 0) {
        segDepth--;
        if (seg === undefined) return;
        if (segDepth > 0) closeInline(tag);
        else {
          variant!.text = seg;
          seg = undefined;
        }
        return;
      }
      const { name } = tag;
      if (name === 'body') inBody = false;
      else if (name === 'tu' && unit) {
        finishUnit(unit);
        unit = undefined;
      } else if (name === 'tuv' && variant) {
        unit!.variants.push(variant);
        variant = undefined;
      } else if (field && name === field.kind) {
        const owner = variant ?? unit!;
        if (field.kind === 'note') (owner.notes ??= []).push(field.text);
        else (owner.props ??= {})[field.type] = field.text;
        field = undefined;
      }
    },
    text(text) {
      if (unit) hold(text.length);
      if (seg !== undefined) {
        if (codeDepth === 0) seg += text;
        else {
          seg += escapeXmlText(text);
          plain += text;
        }
      } else if (field) field.text += text;
    },
  };
}

/** A unit attribute, else the target's, else the source's (tools put dates on either level). */
function unitAttr(unit: Unit, source: Variant, target: Variant, key: string): string | undefined {
  return unit.attrs[key] ?? target.attrs[key] ?? source.attrs[key];
}

function mappedName(type: string | undefined): string | undefined {
  return type?.startsWith(MAPPED_TYPE_PREFIX) ? type.slice(MAPPED_TYPE_PREFIX.length) : undefined;
}

/** `EN_us` → { lang: 'en-us', primary: 'en' }. */
function normaliseLang(tag: string): { lang: string; primary: string } {
  const lang = tag.trim().toLowerCase().replace(/_/g, '-');
  const dash = lang.indexOf('-');
  return { lang, primary: dash < 0 ? lang : lang.slice(0, dash) };
}

/** The first variant in exactly the wanted language, else the first with its primary subtag. */
function pick(variants: Variant[], wanted: { lang: string; primary: string }, not: Variant | undefined) {
  let byPrimary: Variant | undefined;
  for (const v of variants) {
    if (v === not) continue;
    if (v.lang === wanted.lang) return v;
    if (v.primary === wanted.primary) byPrimary ??= v;
  }
  return byPrimary;
}

const TMX_DATE = /^(\d{4})-?(\d{2})-?(\d{2})T(\d{2}):?(\d{2}):?(\d{2})Z$/;

/** TMX `YYYYMMDDThhmmssZ` (dashes and colons tolerated) → Unix seconds; undefined when not a date. */
export function parseTmxDate(value: string | undefined): number | undefined {
  const m = value === undefined ? null : TMX_DATE.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(ms);
  // Date.UTC rolls over (month 13, day 32); a date that does not come back unchanged is not a date.
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || back.getUTCHours() !== hour)
    return undefined;
  return ms / 1000;
}
