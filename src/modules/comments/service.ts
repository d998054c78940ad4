// Comments: Lilt's comments resource — on a segment, or (extension) on the whole document; threads of
// replies, resolved on their first comment; @mentions of the users who can see the document, each told by a
// notification. Access is the document's: whoever the documents service lets see a document may read and
// write its comments (another organization's document is a missing one); a comment's text is changed by its
// author, and deleted by its author or an admin.
import type { Static } from 'typebox';
import { errors } from '../../errors.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { CommentEvent } from '../../events/live-events.ts';
import type { XliffNote } from '../../formats/xliff/xliff-writer.ts';
import type { Principal } from '../../http/principal.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { findSegment } from '../documents/segment-service.ts';
import { isDocumentOf, requireDocument } from '../documents/service.ts';
import { notify } from '../notifications/service.ts';
import { principalsNamed } from '../users/service.ts';
import { mentionedNames } from './mentions.ts';
import * as repo from './repository.ts';
import type { CommentBody, CreateCommentQuery, DeleteCommentQuery, UpdateCommentQuery } from './schemas.ts';

export interface CommentDeps {
  db: Db;
  events: EventBus;
}

/** The key of the comments on the whole document in GET /v2/comments (segments are keyed by their id). */
export const DOCUMENT_KEY = 'document';

type CommentAnswer = ReturnType<typeof publicComment>;

export function publicComment(row: repo.CommentRow, resolved: boolean) {
  return {
    id: Number(row.id),
    text: row.text,
    annotations: row.annotations ? (JSON.parse(row.annotations) as { text?: string }[]) : [],
    is_resolved: resolved,
    document_id: Number(row.document_id),
    segment_id: row.segment_id === null ? null : Number(row.segment_id),
    segment_revision_id: row.segment_version === null ? null : Number(row.segment_version),
    user_id: row.user_id === null ? null : Number(row.user_id),
    created_at: Number(row.created_at),
    parent_id: row.parent_id === null ? null : Number(row.parent_id),
    user: row.username,
    updated_at: Number(row.updated_at),
    mentions: row.mentions ? (JSON.parse(row.mentions) as string[]) : [],
  };
}

/** Rows of one document as answers: a reply is resolved when its thread is. */
function publicComments(rows: readonly repo.CommentRow[]): CommentAnswer[] {
  const resolved = new Map(
    rows.filter((r) => r.parent_id === null).map((r) => [Number(r.id), r.is_resolved === 1]),
  );
  return rows.map((row) =>
    publicComment(
      row,
      row.parent_id === null ? row.is_resolved === 1 : (resolved.get(Number(row.parent_id)) ?? false),
    ),
  );
}

async function requireComment(db: Queryable, principal: Principal, id: number) {
  const row = await repo.findComment(db, id, principal.organizationId);
  // A comment of a document the caller may not see is as missing as the document.
  if (!row || !(await isDocumentOf(db, principal, Number(row.document_id))))
    throw errors.notFound('Comment', id);
  return row;
}

/** GET /v2/comments: a document's comments grouped by segment id (Lilt's DocumentComments). */
export async function listComments(deps: CommentDeps, principal: Principal, query: { document_id: number }) {
  await requireDocument(deps.db, principal, query.document_id);
  const rows = await repo.commentsOfDocument(deps.db, query.document_id, principal.organizationId);
  const grouped: Record<string, CommentAnswer[]> = {};
  for (const comment of publicComments(rows)) {
    const key = comment.segment_id === null ? DOCUMENT_KEY : String(comment.segment_id);
    (grouped[key] ??= []).push(comment);
  }
  return grouped;
}

function requireCommentText(text: string | undefined): string {
  const trimmed = text?.trim();
  if (!trimmed) throw errors.missingParameter('text');
  return trimmed;
}

function annotationsJson(annotations: readonly { text?: string }[] | undefined) {
  return annotations && annotations.length > 0 ? JSON.stringify(annotations) : null;
}

/**
 * The users a text mentions who can see the document (a name that is nobody's, or of someone who cannot see
 * it, stays plain text), without the author.
 */
async function mentionedUsers(db: Queryable, principal: Principal, documentId: number, text: string) {
  const names = mentionedNames(text).filter((name) => name !== principal.username);
  const users = await principalsNamed(db, principal.organizationId, names);
  const seeing: Principal[] = [];
  for (const user of users) if (await isDocumentOf(db, user, documentId)) seeing.push(user);
  return seeing;
}

export interface NewComment {
  documentId: number;
  segmentId?: number;
  text?: string;
  annotations?: { text?: string }[];
  isResolved?: boolean;
  parentId?: number;
}

/**
 * Writes a comment in the caller's transaction, with the notifications of the users it mentions; answers the
 * row and the event to publish once the transaction has committed. The caller has checked the document.
 */
export async function addComment(
  tx: Queryable,
  principal: Principal,
  doc: { id: number; name: string },
  input: NewComment,
): Promise<{ row: repo.CommentRow; event: CommentEvent }> {
  const text = requireCommentText(input.text);
  let segmentId = input.segmentId ?? null;
  let parentId: number | null = null;
  let threadAuthor: number | null = null;
  if (input.parentId !== undefined) {
    const parent = await repo.findComment(tx, input.parentId, principal.organizationId);
    if (!parent || Number(parent.document_id) !== doc.id) throw errors.notFound('Comment', input.parentId);
    // One level of replies: a reply to a reply joins the thread of its first comment.
    parentId = parent.parent_id === null ? Number(parent.id) : Number(parent.parent_id);
    const first =
      parent.parent_id === null ? parent : await repo.findComment(tx, parentId, principal.organizationId);
    threadAuthor = first?.user_id == null ? null : Number(first.user_id);
    const parentSegment = parent.segment_id === null ? null : Number(parent.segment_id);
    if (input.segmentId !== undefined && input.segmentId !== parentSegment) {
      throw errors.badParameter(
        'Parameter "segment_id" differs from the segment of the comment of "parent_id"',
      );
    }
    segmentId = parentSegment;
  }
  let segment: Awaited<ReturnType<typeof findSegment>>;
  if (segmentId !== null) {
    segment = await findSegment(tx, segmentId, principal.organizationId);
    if (!segment || Number(segment.document_id) !== doc.id) throw errors.notFound('Segment', segmentId);
  }
  const mentioned = await mentionedUsers(tx, principal, doc.id, text);
  const id = await repo.insertComment(tx, {
    organization_id: principal.organizationId,
    document_id: doc.id,
    segment_id: segmentId,
    parent_id: parentId,
    user_id: principal.userId,
    username: principal.username,
    text,
    annotations: annotationsJson(input.annotations),
    mentions: mentioned.length > 0 ? JSON.stringify(mentioned.map((u) => u.username)) : null,
    is_resolved: parentId === null && input.isResolved ? 1 : 0,
    segment_version: segment ? Number(segment.version) : null,
  });
  const where = segment ? `segment ${Number(segment.position) + 1} of ${doc.name}` : doc.name;
  const link = `/documents/${doc.id}${segment ? `?seg=${Number(segment.position) + 1}` : ''}`;
  for (const user of mentioned) {
    await notify(tx, {
      organizationId: principal.organizationId,
      userId: user.userId,
      kind: 'mention',
      text: `${principal.username} mentioned you on ${where}: ${excerpt(text)}`,
      link,
      actor: principal.username,
    });
  }
  // The thread's author hears of a reply (once: not again when the reply mentions them too).
  if (
    threadAuthor !== null &&
    threadAuthor !== principal.userId &&
    !mentioned.some((u) => u.userId === threadAuthor)
  ) {
    await notify(tx, {
      organizationId: principal.organizationId,
      userId: threadAuthor,
      kind: 'reply',
      text: `${principal.username} replied to your comment on ${where}: ${excerpt(text)}`,
      link,
      actor: principal.username,
    });
  }
  const row = (await repo.findComment(tx, id, principal.organizationId))!;
  return { row, event: commentEvent(row, 'created', principal) };
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

function commentEvent(
  row: repo.CommentRow,
  action: CommentEvent['action'],
  principal: Principal,
): CommentEvent {
  return {
    document_id: Number(row.document_id),
    segment_id: row.segment_id === null ? null : Number(row.segment_id),
    comment_id: Number(row.id),
    action,
    user: principal.username,
  };
}

/** Tells the document's viewers, after the change has committed. */
export async function publishComments(
  deps: Pick<CommentDeps, 'events'>,
  principal: Principal,
  doc: { id: number; project_id: number },
  events: readonly CommentEvent[],
) {
  await deps.events.commentsChanged(
    { organization_id: principal.organizationId, project_id: doc.project_id, document_id: doc.id },
    events,
  );
}

/** The thread's answer of one comment: a reply answers its thread's resolution. */
async function answerOf(db: Queryable, row: repo.CommentRow) {
  if (row.parent_id === null) return publicComment(row, row.is_resolved === 1);
  const root = await repo.findComment(db, Number(row.parent_id), Number(row.organization_id));
  return publicComment(row, root?.is_resolved === 1);
}

/** POST /v2/comments: a comment on a segment (Lilt), on the document, or a reply. */
export async function createComment(
  deps: CommentDeps,
  principal: Principal,
  query: Static<typeof CreateCommentQuery>,
  body: Static<typeof CommentBody>,
) {
  const doc = await requireDocument(deps.db, principal, query.document_id);
  const { row, event } = await deps.db.transaction((tx) =>
    addComment(tx, principal, doc, {
      documentId: doc.id,
      segmentId: query.segment_id,
      text: body.text,
      annotations: body.annotations,
      isResolved: body.is_resolved,
      parentId: body.parent_id,
    }),
  );
  await publishComments(deps, principal, doc, [event]);
  return answerOf(deps.db, row);
}

/** PUT /v2/comments: its text and annotations (by its author), resolved or not (anyone who sees it). */
export async function updateComment(
  deps: CommentDeps,
  principal: Principal,
  query: Static<typeof UpdateCommentQuery>,
  body: Static<typeof CommentBody>,
) {
  const { db } = deps;
  const row = await requireComment(db, principal, query.comment_id);
  const documentId = Number(row.document_id);
  if (query.document_id !== undefined && query.document_id !== documentId) {
    throw errors.notFound('Comment', query.comment_id);
  }
  if (body.parent_id !== undefined) throw errors.badParameter('Parameter "parent_id" cannot be changed');
  const editsText = body.text !== undefined || body.annotations !== undefined;
  if (editsText && Number(row.user_id) !== principal.userId) {
    throw errors.forbidden('Only the author of a comment can change its text');
  }
  if (!editsText && body.is_resolved === undefined) throw errors.missingParameter('text');
  const doc = await requireDocument(db, principal, documentId);
  const event = await db.transaction(async (tx) => {
    let mentions: string | null | undefined;
    if (body.text !== undefined) {
      const text = requireCommentText(body.text);
      const before = new Set(row.mentions ? (JSON.parse(row.mentions) as string[]) : []);
      const mentioned = await mentionedUsers(tx, principal, documentId, text);
      mentions = mentioned.length > 0 ? JSON.stringify(mentioned.map((u) => u.username)) : null;
      // Only a newly mentioned user is told.
      for (const user of mentioned.filter((u) => !before.has(u.username))) {
        await notify(tx, {
          organizationId: principal.organizationId,
          userId: user.userId,
          kind: 'mention',
          text: `${principal.username} mentioned you on ${doc.name}: ${excerpt(text)}`,
          link: `/documents/${documentId}`,
          actor: principal.username,
        });
      }
      await repo.updateComment(tx, Number(row.id), {
        text,
        mentions,
        ...(body.annotations !== undefined ? { annotations: annotationsJson(body.annotations) } : {}),
      });
    } else if (body.annotations !== undefined) {
      await repo.updateComment(tx, Number(row.id), { annotations: annotationsJson(body.annotations) });
    }
    if (body.is_resolved !== undefined) {
      // Resolution is the thread's: a reply resolves (or reopens) its first comment.
      const threadId = row.parent_id === null ? Number(row.id) : Number(row.parent_id);
      await repo.updateComment(tx, threadId, { isResolved: body.is_resolved });
    }
    return commentEvent(row, 'updated', principal);
  });
  await publishComments(deps, principal, doc, [event]);
  return answerOf(db, (await repo.findComment(db, Number(row.id), principal.organizationId))!);
}

/** DELETE /v2/comments: by its author or an admin; a thread's first comment takes its replies along. */
export async function deleteComment(
  deps: CommentDeps,
  principal: Principal,
  query: Static<typeof DeleteCommentQuery>,
) {
  const row = await requireComment(deps.db, principal, query.comment_id);
  if (Number(row.user_id) !== principal.userId && principal.role !== 'admin') {
    throw errors.forbidden('Only the author of a comment or an admin can delete it');
  }
  const doc = await requireDocument(deps.db, principal, Number(row.document_id));
  await repo.deleteComment(deps.db, Number(row.id));
  await publishComments(deps, principal, doc, [commentEvent(row, 'deleted', principal)]);
  return { id: Number(row.id), deleted: true };
}

// ---- What the documents module asks of comments (documents/comments-of-documents.ts).

export function unresolvedSegmentIds(db: Queryable, documentId: number) {
  return repo.unresolvedSegmentIds(db, documentId);
}

/**
 * A document's comments as XLIFF notes by segment id (null: on the whole document), each from its author;
 * a resolved thread's comments say so, a reply says whom it answers.
 */
export async function commentNotes(
  db: Queryable,
  documentId: number,
): Promise<Map<number | null, XliffNote[]>> {
  const rows = await repo.commentsOfDocumentAnyOrganization(db, documentId);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const notes = new Map<number | null, XliffNote[]>();
  for (const row of rows) {
    const root = row.parent_id === null ? row : byId.get(Number(row.parent_id));
    const prefix = [
      root?.is_resolved === 1 ? '[resolved] ' : '',
      row.parent_id !== null && root ? `Reply to ${root.username}: ` : '',
    ].join('');
    const key = row.segment_id === null ? null : Number(row.segment_id);
    const list = notes.get(key) ?? [];
    list.push({ text: `${prefix}${row.text}`, from: row.username });
    notes.set(key, list);
  }
  return notes;
}
