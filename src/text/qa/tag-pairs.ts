// Paired tags of a translation against its source's: a pair left empty around text the source encloses, and
// pairs in another order or nesting than the source's. Warnings: a translation may reorder formatting on
// purpose, but an empty pair is what an overtyped selection leaves (an empty <TT></TT> in the export).
import { type InlinePart, pairTags, parseTagged, type TagPart, tagIdentity } from '../inline-tags.ts';
import { tagLabels } from '../tag-labels.ts';

/** One pair of tags: an open and a close part, or a bpt and its ept. */
interface TagPair {
  /** Identity across source and target: the opening tag's identity and its occurrence. */
  id: string;
  open: TagPart;
  close: TagPart;
  /** UTF-16 offsets of the open tag's start and the close tag's end in the tagged text. */
  start: number;
  end: number;
  /** The text the pair encloses, tags left out. */
  text: string;
  /** The id of the innermost pair enclosing this one, or null. */
  parent: string | null;
  /** How a message names it, as the editor's chips number it: `pair 1 (<b>…</b>)`, `pair 2`. */
  name: string;
}

export interface TagPairIssue {
  code: 'TAG_PAIR_EMPTY' | 'TAG_ORDER';
  message: string;
  start: number;
  end: number;
}

/** The pairs of tagged text in the order they open. */
function pairsOf(tagged: string): TagPair[] {
  const parts = parseTagged(tagged);
  const offsets: number[] = [];
  let at = 0;
  for (const p of parts) {
    offsets.push(at);
    at += p.type === 'text' ? p.text.length : p.raw.length;
  }
  offsets.push(at);
  const partners = new Map(pairTags(parts));
  // bpt/ept code elements pair by their shared i (TMX) or id (XLIFF 1.2) attribute.
  const begun = new Map<string, number>();
  parts.forEach((p, i) => {
    if (p.type !== 'tag' || p.form !== 'code') return;
    const ref = p.attrs.i ?? p.attrs.rid ?? p.attrs.id;
    if (ref === undefined) return;
    if (p.name === 'bpt') begun.set(ref, i);
    else if (p.name === 'ept' && begun.has(ref)) {
      partners.set(begun.get(ref)!, i);
      partners.set(i, begun.get(ref)!);
      begun.delete(ref);
    }
  });
  const tagIndexes = parts.flatMap((p, i) => (p.type === 'tag' ? [i] : []));
  const labels = tagLabels(tagIndexes.map((i) => parts[i] as TagPart));
  const labelAt = new Map(tagIndexes.map((partIndex, k) => [partIndex, labels[k]]));
  const seen = new Map<string, number>();
  const pairs: (TagPair & { openIndex: number; closeIndex: number })[] = [];
  parts.forEach((p, i) => {
    const j = partners.get(i);
    if (p.type !== 'tag' || j === undefined || j < i) return;
    const identity = tagIdentity(p);
    const n = (seen.get(identity) ?? 0) + 1;
    seen.set(identity, n);
    pairs.push({
      id: `${identity}#${n}`,
      open: p,
      close: parts[j] as TagPart,
      start: offsets[i],
      end: offsets[j + 1],
      text: textBetween(parts, i, j),
      parent: null,
      name: pairName(
        p,
        parts[j] as TagPart,
        labelAt.get(i)!.text,
        labelAt.get(i)!.full,
        labelAt.get(j)!.full,
      ),
      openIndex: i,
      closeIndex: j,
    });
  });
  for (const pair of pairs) {
    let inner: (typeof pairs)[number] | undefined;
    for (const other of pairs) {
      if (other.openIndex < pair.openIndex && other.closeIndex > pair.closeIndex) {
        if (!inner || other.openIndex > inner.openIndex) inner = other;
      }
    }
    pair.parent = inner?.id ?? null;
  }
  return pairs;
}

function textBetween(parts: readonly InlinePart[], from: number, to: number): string {
  let text = '';
  for (let i = from + 1; i < to; i++) {
    const p = parts[i];
    if (p.type === 'text') text += p.text;
  }
  return text;
}

/** `pair 1 (<b>…</b>)`: the open tag's number, and the markup the pair stands for when it is not the tags. */
function pairName(
  open: TagPart,
  close: TagPart,
  number: string,
  openFull: string,
  closeFull: string,
): string {
  if (openFull === open.raw && closeFull === close.raw) return `pair ${number}`;
  return `pair ${number} (${openFull}…${closeFull})`;
}

/** The quoted text a pair encloses, shortened for a message. */
function quoted(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return `"${t.length > 40 ? `${t.slice(0, 39)}…` : t}"`;
}

/**
 * The warnings about the target's pairs: TAG_PAIR_EMPTY for a pair of the source that encloses text there
 * and only whitespace here; TAG_ORDER for a pair inside another pair than in the source, or opened before
 * a pair inside the same pair that opens after it in the source. Pairs of one side only are the tag checks' (missing, extra).
 */
export function tagPairIssues(source: string, target: string): TagPairIssue[] {
  const ours = new Map(pairsOf(source).map((p) => [p.id, p]));
  const theirs = pairsOf(target).filter((p) => ours.has(p.id));
  const issues: TagPairIssue[] = [];
  for (const pair of theirs) {
    const original = ours.get(pair.id)!;
    if (original.text.trim() !== '' && pair.text.trim() === '') {
      issues.push({
        code: 'TAG_PAIR_EMPTY',
        message: `Tag ${original.name} is empty; in the source it encloses ${quoted(original.text)}`,
        start: pair.start,
        end: pair.end,
      });
    }
  }
  // Order among siblings: the pairs inside one pair (or inside none) open in the source's order.
  const rank = new Map([...ours.keys()].map((id, i) => [id, i]));
  const latest = new Map<string | null, TagPair>();
  for (const pair of theirs) {
    const original = ours.get(pair.id)!;
    const parent = pair.parent !== null && ours.has(pair.parent) ? pair.parent : null;
    const sibling = latest.get(parent);
    if (parent !== original.parent) {
      const where =
        original.parent === null ? 'inside no other pair' : `inside ${ours.get(original.parent)!.name}`;
      issues.push({
        code: 'TAG_ORDER',
        message: `Tag ${original.name} is nested otherwise than in the source (${where})`,
        start: pair.start,
        end: pair.end,
      });
    } else if (sibling && rank.get(pair.id)! < rank.get(sibling.id)!) {
      issues.push({
        code: 'TAG_ORDER',
        message: `Tag ${original.name} comes after ${ours.get(sibling.id)!.name} here, before it in the source`,
        start: pair.start,
        end: pair.end,
      });
    }
    if (!sibling || rank.get(pair.id)! > rank.get(sibling.id)!) latest.set(parent, pair);
  }
  return issues;
}
