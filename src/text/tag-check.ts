// Whether a translation's inline tags are ones its source has, properly nested: the format filters rebuild
// markup from the tags, so a tag they cannot place would be dropped from the file without a word.
import { pairTags, parseTagged, tagIdentity } from './inline-tags.ts';

/**
 * Null when every tag of `target` is a tag of `source` and its open and close tags nest; otherwise what is
 * wrong, naming the tag (for a 400 on the target). Tags of the source missing from the target are not an
 * error here: the translation may drop formatting on purpose (the QA checks warn about it).
 */
export function targetTagProblem(source: string, target: string): string | null {
  const known = new Set<string>();
  for (const part of parseTagged(source)) if (part.type === 'tag') known.add(tagIdentity(part));
  const parts = parseTagged(target);
  const partners = pairTags(parts);
  const opened = new Map<string, number>();
  for (const [i, part] of parts.entries()) {
    if (part.type !== 'tag') continue;
    if (!known.has(tagIdentity(part))) return `tag ${part.raw} is not in the source`;
    if (part.form === 'open' && !partners.has(i)) return `tag ${part.raw} is not closed`;
    if (part.form === 'close' && !partners.has(i)) return `tag ${part.raw} closes no open tag`;
    if (part.form === 'open') {
      const key = tagIdentity(part);
      opened.set(key, (opened.get(key) ?? 0) + 1);
      if (opened.get(key)! > 1) return `tag ${part.raw} is opened twice`;
    }
  }
  return null;
}
