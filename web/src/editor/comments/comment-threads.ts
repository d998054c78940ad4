// A document's comments (GET /v2/comments) as the Comments panel shows them: threads — a first comment and its
// replies — of one segment or of the whole document, and the segments with an unresolved thread. Pure.
import type { Comment, DocumentComments } from '../../api/types.ts';

export interface Thread {
  first: Comment;
  replies: Comment[];
}

/** The threads of a list of comments (the server lists each thread's replies after its first comment). */
export function threadsOf(comments: readonly Comment[] | undefined): Thread[] {
  const threads = new Map<number, Thread>();
  for (const c of comments ?? []) {
    if (c.parent_id === null) threads.set(c.id, { first: c, replies: [] });
    else threads.get(c.parent_id)?.replies.push(c);
  }
  return [...threads.values()];
}

/** The threads on a segment (by its id), or on the whole document (null). */
export function threadsOn(all: DocumentComments | undefined, segmentId: number | null): Thread[] {
  return threadsOf(all?.[segmentId === null ? 'document' : String(segmentId)]);
}

/** How many segments have an unresolved thread. */
export function unresolvedSegmentCount(all: DocumentComments | undefined): number | undefined {
  if (!all) return undefined;
  return Object.entries(all).filter(
    ([key, comments]) => key !== 'document' && comments.some((c) => c.parent_id === null && !c.is_resolved),
  ).length;
}

/** Per segment id, its comment threads and the unresolved ones among them (the grid's marks). */
export function threadCounts(
  all: DocumentComments | undefined,
): Map<number, { threads: number; open: number }> {
  const counts = new Map<number, { threads: number; open: number }>();
  for (const [key, comments] of Object.entries(all ?? {})) {
    if (key === 'document') continue;
    const firsts = comments.filter((c) => c.parent_id === null);
    counts.set(Number(key), { threads: firsts.length, open: firsts.filter((c) => !c.is_resolved).length });
  }
  return counts;
}

/** The text cut into plain parts and @mentions of the users the server recognised. */
export function mentionParts(
  text: string,
  mentions: readonly string[],
): { text: string; mention: boolean }[] {
  if (mentions.length === 0) return [{ text, mention: false }];
  const names = new Set(mentions);
  const parts: { text: string; mention: boolean }[] = [];
  let last = 0;
  for (const m of text.matchAll(/@([\p{L}\p{N}._-]+)/gu)) {
    const name = m[1].replace(/[.-]+$/, '');
    if (!names.has(name)) continue;
    const start = m.index ?? 0;
    if (start > last) parts.push({ text: text.slice(last, start), mention: false });
    parts.push({ text: `@${name}`, mention: true });
    last = start + 1 + name.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), mention: false });
  return parts;
}
