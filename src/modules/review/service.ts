import type { Principal } from '../../http/principal.ts';
import { countWords } from '../../matching/word-count.ts';
import { nextTurn } from '../../pacing.ts';
import type { Db } from '../../store/db.ts';
import { SEGMENT_STATUSES, type SegmentStatus } from '../documents/document-states.ts';
import * as documentSegments from '../documents/segment-service.ts';
import { documentsOfProjects, requireDocument, wordsByStatus } from '../documents/service.ts';
import { projectAccess } from '../projects/service.ts';

/** GET /v2/review/baselines: each segment's newest confirmed version. */
export async function reviewBaselines(db: Db, principal: Principal, documentId: number) {
  const doc = await requireDocument(db, principal, documentId);
  const rows = await documentSegments.confirmedBaselines(db, doc.id);
  return {
    document_id: doc.id,
    baselines: rows.map((r) => ({
      segment_id: Number(r.segment_id),
      version: Number(r.version),
      target: r.target,
      user: r.username,
      created_at: Number(r.created_at),
    })),
  };
}

export interface Attribution {
  confirmedBy: string | null;
  /** Null when the segment is not reviewed. */
  reviewedBy: string | null;
}

const CONFIRMED_STATES: readonly SegmentStatus[] = [SEGMENT_STATUSES.confirmed, SEGMENT_STATUSES.reviewed];

/** Who confirmed and who reviewed a confirmed or reviewed segment, from its versions oldest first. */
export function attribute(
  status: SegmentStatus,
  trail: readonly { status: SegmentStatus; target: string | null; username: string | null }[],
): Attribution {
  let start = trail.length;
  while (start > 0 && CONFIRMED_STATES.includes(trail[start - 1].status)) start--;
  const run = trail.slice(start);
  const reviewed = status === SEGMENT_STATUSES.reviewed;
  const lastReview = reviewed ? run.findLast((v) => v.status === SEGMENT_STATUSES.reviewed) : undefined;
  // A confirmed version right after a review of the same text only withdrew the review (as for the baselines).
  const lastConfirmation = run.findLast(
    (v, i) =>
      v.status === SEGMENT_STATUSES.confirmed &&
      !(i > 0 && run[i - 1].status === SEGMENT_STATUSES.reviewed && run[i - 1].target === v.target),
  );
  return {
    confirmedBy: (lastConfirmation ?? run[0])?.username ?? null,
    reviewedBy: reviewed ? (lastReview?.username ?? null) : null,
  };
}

interface Tally {
  user: string | null;
  words_confirmed: number;
  words_reviewed: number;
  segments_confirmed: number;
  segments_reviewed: number;
}

function tallyOf(map: Map<string | null, Tally>, user: string | null): Tally {
  let t = map.get(user);
  if (!t) {
    t = { user, words_confirmed: 0, words_reviewed: 0, segments_confirmed: 0, segments_reviewed: 0 };
    map.set(user, t);
  }
  return t;
}

const byWords = (a: Tally, b: Tally) =>
  b.words_confirmed - a.words_confirmed ||
  b.words_reviewed - a.words_reviewed ||
  String(a.user).localeCompare(String(b.user));

const PAGE = 1000;

/** Per user, the words of one document's segments they confirmed and reviewed. */
async function documentTallies(db: Db, documentId: number): Promise<Map<string | null, Tally>> {
  const tallies = new Map<string | null, Tally>();
  for (let after = -1; ; ) {
    const rows = await documentSegments.confirmedSegmentsPage(db, documentId, after, PAGE);
    if (rows.length === 0) break;
    const trails = new Map<
      number,
      { status: SegmentStatus; target: string | null; username: string | null }[]
    >();
    for (const v of await documentSegments.versionTrails(
      db,
      rows.map((r) => Number(r.id)),
    )) {
      const id = Number(v.segment_id);
      const list = trails.get(id);
      if (list) list.push(v);
      else trails.set(id, [v]);
    }
    for (const row of rows) {
      const words = countWords(row.source);
      const { confirmedBy, reviewedBy } = attribute(row.status, trails.get(Number(row.id)) ?? []);
      const c = tallyOf(tallies, confirmedBy);
      c.words_confirmed += words;
      c.segments_confirmed++;
      if (row.status === SEGMENT_STATUSES.reviewed) {
        const r = tallyOf(tallies, reviewedBy);
        r.words_reviewed += words;
        r.segments_reviewed++;
      }
    }
    if (rows.length < PAGE) break;
    after = Number(rows[rows.length - 1].position);
    await nextTurn();
  }
  return tallies;
}

/** GET /v2/review/progress: words confirmed and reviewed per user, for the project and each document. */
export async function reviewProgress(db: Db, principal: Principal, projectId: number) {
  const project = await projectAccess(db, principal, projectId);
  const docs = (await documentsOfProjects(db, [project.id])).sort((a, b) => a.id - b.id);
  const total = new Map<string | null, Tally>();
  const documents = [];
  for (const doc of docs) {
    const tallies = await documentTallies(db, doc.id);
    for (const t of tallies.values()) {
      const sum = tallyOf(total, t.user);
      sum.words_confirmed += t.words_confirmed;
      sum.words_reviewed += t.words_reviewed;
      sum.segments_confirmed += t.segments_confirmed;
      sum.segments_reviewed += t.segments_reviewed;
    }
    documents.push({
      id: doc.id,
      name: doc.name,
      words: (await wordsByStatus(db, doc.id)).total,
      users: [...tallies.values()].sort(byWords),
    });
  }
  return { project_id: project.id, users: [...total.values()].sort(byWords), documents };
}
