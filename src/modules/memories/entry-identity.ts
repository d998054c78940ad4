// What identifies a memory entry — its source and target without edge whitespace, and where the source stood
// (its context) — and the hashes the store keys entries by: a pair is stored once per memory and context.
import { hash } from 'node:crypto';
import type { UnitContext } from '../../formats/tmx/tmx-context.ts';
import { withoutEdges } from '../../text/edge-whitespace.ts';
import { parseTagged } from '../../text/inline-tags.ts';

/** Where an entry's source stood: the same as a unit's in a memory file (src/formats/tmx/tmx-context.ts). */
export type EntryContext = UnitContext;

// 128 bits of SHA-256: collisions are out of reach, and the unique indexes stay small (import speed).
const shortHash = (text: string) => hash('sha256', text, 'base64url').slice(0, 22);

/**
 * Identity of an entry: NFC source and target, and its context (contextHash) when it has one. An identical
 * pair is stored once per memory and context.
 */
export function pairHash(source: string, target: string, contextHash = ''): string {
  const pair = `${source.normalize('NFC')}\u0000${target.normalize('NFC')}`;
  return shortHash(contextHash === '' ? pair : `${pair}\u0000${contextHash}`);
}

/**
 * The source in its context, '' without one: two segments with this hash are the same text where the same
 * thing stood — the same key when the unit has one, else the same previous and next sources. Neighbours are
 * compared by their text alone (tags of any kind left out, edges trimmed, NFC), so that a neighbour written
 * by another tool, with its own tags, compares equal.
 */
export function contextHash(source: string, context: EntryContext | null): string {
  if (!context) return '';
  const key = context.key === null ? '' : withoutEdges(context.key).normalize('NFC');
  const where =
    key !== ''
      ? `key\u0000${key}`
      : `flow\u0000${contextText(context.prev)}\u0000${contextText(context.next)}`;
  return shortHash(`${withoutEdges(source).normalize('NFC')}\u0000${where}`);
}

/** A neighbour's text as contexts compare it: no tags (inline elements, or HTML-like tags written as text). */
function contextText(tagged: string | null): string {
  if (tagged === null) return '';
  const text = parseTagged(tagged)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('')
    .replace(/<\/?[A-Za-z][^<>]*>/g, '');
  return withoutEdges(text).normalize('NFC');
}

/**
 * An entry's source or target as it is stored: without edge whitespace (docs/MATCHING.md §1.1) and in NFC, so
 * that what one keyboard writes decomposed (`e` + U+0301) and another composed (`é`) is one text — shown,
 * exported and searched (a text search compares characters) alike.
 */
export function storedText(text: string): string {
  return withoutEdges(text).normalize('NFC');
}

/** A context as entries store it: key and neighbours without edge whitespace, empty ones as none. */
export function storedContext(context: EntryContext | null | undefined): EntryContext | null {
  if (!context) return null;
  const text = (value: string | null) => (value === null ? null : withoutEdges(value) || null);
  return { key: text(context.key), prev: text(context.prev), next: text(context.next) };
}

/** An entry's context, null when it was stored without one. */
export function contextOf(row: {
  context_key: string | null;
  context_prev: string | null;
  context_next: string | null;
  context_hash: string;
}): EntryContext | null {
  if (row.context_hash === '') return null;
  return { key: row.context_key, prev: row.context_prev, next: row.context_next };
}

/**
 * A unit of a memory file as an import stores it: source and target without edge whitespace, its pair hash,
 * its context (key, previous and next source, each null when absent) and context hash ('' without one).
 */
export type ImportedUnit = readonly [
  source: string,
  target: string,
  pairHash: string,
  contextKey: string | null,
  contextPrev: string | null,
  contextNext: string | null,
  contextHash: string,
];

/**
 * A unit of a memory file as an import stores it (edges trimmed, hashed with its context), or null when its
 * source or target is empty without its edge whitespace.
 */
export function importedUnit(unit: {
  source: string;
  target: string;
  context?: UnitContext;
}): ImportedUnit | null {
  const source = storedText(unit.source);
  const target = storedText(unit.target);
  if (source === '' || target === '') return null;
  const context = storedContext(unit.context);
  const where = contextHash(source, context);
  return [
    source,
    target,
    pairHash(source, target, where),
    context?.key ?? null,
    context?.prev ?? null,
    context?.next ?? null,
    where,
  ];
}
