// The context of a translation unit in TMX, in the props CAT tools use for it: memoQ's x-context-pre and
// x-context-post (the previous and the next segment's source, written as `<seg>…</seg>` in the source <tuv>),
// XTM's x-previous-source-text and x-next-source-text (plain text), and Trados's x-IdContext (the unit's
// key). Tessera writes memoQ's and Trados's, and reads all of them (docs/MATCHING.md §2.6).
import { parseTagged } from '../../text/inline-tags.ts';
import { unescapeXml } from '../../xml/xml-escape.ts';
import { textElement } from '../../xml/xml-writer.ts';
import { MAPPED_TYPE_PREFIX, restoreMappedTag, taggedToTmx } from './tmx-inline.ts';

/** Where a unit's source stood: its key, or the sources of the segments around it (tagged text). */
export interface UnitContext {
  /** The unit's key (a key path, msgctxt, resname), when its format gives one. */
  key: string | null;
  /** The previous and the next segment's source; null at the start or the end of the document. */
  prev: string | null;
  next: string | null;
}

export const CONTEXT_PROPS = {
  prev: ['x-context-pre', 'x-previous-source-text'],
  next: ['x-context-post', 'x-next-source-text'],
  key: ['x-IdContext'],
} as const;

/** The context a unit's props give, or undefined when they give none. */
export function contextFromProps(props: Record<string, string> | undefined): UnitContext | undefined {
  if (!props) return undefined;
  const first = (names: readonly string[]) => names.map((n) => props[n]).find((v) => v !== undefined);
  const key = first(CONTEXT_PROPS.key);
  const prev = first(CONTEXT_PROPS.prev);
  const next = first(CONTEXT_PROPS.next);
  if (key === undefined && prev === undefined && next === undefined) return undefined;
  return { key: key || null, prev: propSegment(prev), next: propSegment(next) };
}

/**
 * A neighbour's text as a prop holds it, as tagged text: memoQ wraps TMX <seg> content (its inline elements
 * kept, its text escaped) in `<seg>…</seg>`, where the tags Tessera maps to TMX codes (tmx-inline.ts) are
 * put back as the reader does; others write the text itself.
 */
function propSegment(value: string | undefined): string | null {
  if (!value) return null;
  const wrapped = /^\s*<seg>([\s\S]*)<\/seg>\s*$/.exec(value);
  if (!wrapped) return value;
  const mappedPairs = new Map<string, string>();
  const text = parseTagged(wrapped[1])
    .map((part) => {
      if (part.type === 'text') return unescapeXml(part.text);
      const type = part.attrs.type ?? '';
      const mapped =
        part.name === 'ept'
          ? mappedPairs.get(part.attrs.i)
          : type.startsWith(MAPPED_TYPE_PREFIX)
            ? type.slice(MAPPED_TYPE_PREFIX.length)
            : undefined;
      const restored = mapped && restoreMappedTag(part.name, mapped, unescapeXml(part.content ?? ''));
      if (restored && part.name === 'bpt') mappedPairs.set(part.attrs.i, mapped);
      return restored || part.raw;
    })
    .join('');
  return text || null;
}

/** The props of a context, as memoQ (neighbours, in the source <tuv>) and Trados (key, in the <tu>) write them. */
export function contextProps(context: UnitContext): { unit: string; source: string } {
  const seg = (text: string | null) => `<seg>${text === null ? '' : taggedToTmx(text)}</seg>`;
  return {
    unit: context.key === null ? '' : textElement('prop', { type: CONTEXT_PROPS.key[0] }, context.key),
    source:
      textElement('prop', { type: CONTEXT_PROPS.prev[0] }, seg(context.prev)) +
      textElement('prop', { type: CONTEXT_PROPS.next[0] }, seg(context.next)),
  };
}
