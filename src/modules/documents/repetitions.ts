// Repetitions: segments of one project whose sources share a repetition key (src/matching/repetition-key.ts).
// A project is the scope: a Lilt Job makes one project per target language, holding the job's documents in
// that language, so a job's documents are a project's; a project made alone holds its own. Each segment is
// marked with how many segments share its source there and whether it is the first of them (the lowest
// document id, then position), and confirming one fills the unconfirmed others (segments/service.ts).
import { nextTurn } from '../../pacing.ts';
import type { Queryable } from '../../store/db.ts';
import { repetitionHash } from './repetition-hash.ts';
import * as segments from './segment-repository.ts';

/** A segment's repetition mark: null when its source occurs once in its project. */
export type RepetitionMark = { count: number; first: boolean } | null;

/** Hashes filled per statement for rows written before repetitions were kept. */
const FILL_SLICE = 500;

/**
 * Fills the repetition hash of the project's segments that have none (rows older than the column, or
 * written by code that does not set it), a slice at a time with a turn of the event loop between, so that a
 * large project's first read never holds the server. Nothing to do costs one indexed look-up per document.
 */
export async function ensureRepetitionKeys(db: Queryable, projectId: number): Promise<void> {
  for (;;) {
    const rows = await segments.segmentsWithoutHash(db, projectId, FILL_SLICE);
    if (rows.length === 0) return;
    const set = await segments.setSourceHashes(
      db,
      rows.map((r) => ({ id: r.id, hash: repetitionHash(r.source) })),
    );
    if (rows.length < FILL_SLICE || set === 0) return;
    await nextTurn();
  }
}

/** The repetition marks of these segments of a project (their hashes filled: ensureRepetitionKeys). */
export async function repetitionMarks(
  db: Queryable,
  projectId: number,
  rows: readonly Pick<segments.SegmentRow, 'id' | 'document_id' | 'position' | 'source' | 'source_hash'>[],
): Promise<Map<number, RepetitionMark>> {
  const hashOf = (row: (typeof rows)[number]) => row.source_hash ?? repetitionHash(row.source);
  const groups = new Map<string, { count: number; document: number; position: number }>();
  for (const g of await segments.repetitionGroups(db, projectId, [...new Set(rows.map(hashOf))])) {
    const group = groups.get(g.source_hash);
    const [document, position, n] = [Number(g.document_id), Number(g.first), Number(g.n)];
    if (!group) groups.set(g.source_hash, { count: n, document, position });
    else {
      group.count += n;
      if (document < group.document) Object.assign(group, { document, position });
    }
  }
  const marks = new Map<number, RepetitionMark>();
  for (const row of rows) {
    const group = groups.get(hashOf(row));
    marks.set(
      row.id,
      group && group.count > 1
        ? { count: group.count, first: group.document === row.document_id && group.position === row.position }
        : null,
    );
  }
  return marks;
}

/** How many of the document's segments are repetitions within its project. */
export function repeatedCount(db: Queryable, documentId: number, projectId: number): Promise<number> {
  return segments.repeatedCount(db, documentId, projectId);
}

/**
 * Inside the confirmation's transaction: the project's unconfirmed repetitions of the origin take its target,
 * confirmed (origin `propagated` in their history). A confirmed repetition keeps its own target.
 */
export async function propagateConfirmation(
  tx: Queryable,
  origin: Pick<segments.SegmentRow, 'id' | 'version' | 'source' | 'source_hash'> & { project_id: number },
  target: string,
  username: string | null,
): Promise<segments.PropagatedRow[]> {
  return segments.propagateTarget(
    tx,
    {
      id: origin.id,
      version: origin.version,
      projectId: origin.project_id,
      sourceHash: origin.source_hash ?? repetitionHash(origin.source),
      target,
    },
    username,
  );
}

/**
 * Inside the transaction that withdraws the origin's confirmation: the segments its confirmations filled
 * take back what they held, unless they changed since.
 */
export function undoPropagation(tx: Queryable, originId: number, username: string | null) {
  return segments.undoPropagations(tx, originId, username);
}
