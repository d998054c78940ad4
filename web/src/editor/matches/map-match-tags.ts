// A memory match's target made ready for this segment: each of its tags becomes the tag of this source that plays
// the same part (the k-th opening, its closing partner, the k-th standalone), and its placeholders and numbers
// this source's (as pre-translation does it: src/text/placeables.ts's repairTarget), so an inserted match never
// brings a tag the segment does not have, nor a `%d` where this source has `%s`.

import { raiseInitialCase } from '@server/text/initial-case.ts';
import { parseTagged, plainText, type TagPart } from '@server/text/inline-tags.ts';
import { repairTarget } from '@server/text/placeables.ts';
import { pairByRole, tagNumber, tagRole } from '@server/text/tag-labels.ts';
import { placedTags } from '../tags/tag-parts.ts';

export interface MappedTarget {
  target: string;
  /** Tags of the match's target with no counterpart here: left out (Alt+T inserts what is then missing). */
  dropped: string[];
}

/** Index in `to` of the tag that plays the part of each tag of `from` (undefined when none does). */
function correspondence(from: readonly TagPart[], to: readonly TagPart[]): (number | undefined)[] {
  const result: (number | undefined)[] = new Array(from.length);
  const byRole = (tags: readonly TagPart[], role: string) =>
    tags.flatMap((t, i) => (tagRole(t) === role ? [i] : []));
  for (const role of ['open', 'alone'] as const) {
    const a = byRole(from, role);
    const b = byRole(to, role);
    a.forEach((i, k) => {
      result[i] = b[k];
    });
  }
  // A closing tag follows its opening partner; closing tags with no partner go by order.
  const fromPartners = pairByRole(from);
  const toPartners = pairByRole(to);
  const looseTo = byRole(to, 'close').filter((i) => !toPartners.has(i));
  let loose = 0;
  from.forEach((t, i) => {
    if (tagRole(t) !== 'close') return;
    const open = fromPartners.get(i);
    const mappedOpen = open === undefined ? undefined : result[open];
    result[i] = mappedOpen !== undefined ? toPartners.get(mappedOpen) : looseTo[loose++];
  });
  return result;
}

export function mapMatchTags(matchSource: string, matchTarget: string, source: string): MappedTarget {
  const fromTags = placedTags(matchSource).map((t) => t.part);
  const toTags = placedTags(source).map((t) => t.part);
  const mapped = correspondence(fromTags, toTags);
  const usedFrom = new Set<number>();
  const usedTo = new Set<number>();
  const dropped: string[] = [];
  let target = '';
  for (const part of parseTagged(matchTarget)) {
    if (part.type === 'text') {
      target += part.text;
      continue;
    }
    // The same tag in the match's source: written the same, else the same element, number and part.
    const candidates = fromTags.map((t, i) => ({ t, i })).filter(({ i }) => !usedFrom.has(i));
    const same =
      candidates.find(({ t }) => t.raw === part.raw) ??
      candidates.find(
        ({ t }) => t.name === part.name && tagRole(t) === tagRole(part) && tagNumber(t) === tagNumber(part),
      );
    const to = same === undefined ? undefined : mapped[same.i];
    if (same === undefined || to === undefined || usedTo.has(to)) {
      dropped.push(part.raw);
      continue;
    }
    usedFrom.add(same.i);
    usedTo.add(to);
    target += toTags[to].raw;
  }
  return { target, dropped };
}

/**
 * What inserting a match (Alt+N) puts in the target: its tags mapped by the part they play (mapMatchTags), then
 * its placeholders and numbers replaced by this source's when they pair with them (as many, kind for kind, in
 * order: `%1$s` → `%s`, `{0}` → `{count}`). When they do not pair, they stay as they are, and QA names the
 * placeholder that differs.
 */
export function projectMatch(
  matchSource: string,
  matchTarget: string,
  source: string,
  targetLanguage?: string,
): MappedTarget & { capitalised: boolean } {
  const mapped = mapMatchTags(matchSource, matchTarget, source);
  const repaired = repairTarget(plainText(matchSource), mapped.target, plainText(source));
  const target = repaired ? repaired.target : mapped.target;
  const raised = raiseInitialCase(matchSource, target, source, targetLanguage);
  return { ...mapped, target: raised, capitalised: raised !== target };
}
