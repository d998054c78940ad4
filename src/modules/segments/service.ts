// Segments: one id space for document segments and memory entries. Each operation finds which one an id
// is and does it: document segments are edited and confirmed here (confirming writes the pair into the
// project's memory), memory entries by the memories module.
import type { Static } from 'typebox';
import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import { segmentStatus } from '../documents/document-states.ts';
import { memoryOfProject, publicSegment, requireDocument } from '../documents/service.ts';
import * as entries from '../memories/entry-service.ts';
import { MAX_TEXT_LENGTH, type MemoryDeps, requireTagsOfSource, requireText } from '../memories/service.ts';
import * as repo from './repository.ts';
import type { AddSegmentBody, UpdateSegmentBody } from './schemas.ts';

/** POST /v2/segments: an entry into a memory, or (with document_id) a segment at a document's end. */
export async function addSegment(
  deps: MemoryDeps,
  principal: Principal,
  input: Static<typeof AddSegmentBody>,
) {
  const { memory_id: memoryId, document_id: documentId, source, target } = input;
  if (documentId !== undefined) return appendToDocument(deps, principal, documentId, { source, target });
  if (memoryId === undefined) throw errors.missingParameter('memory_id');
  return entries.addEntry(deps, principal, { memory_id: memoryId, source, target });
}

async function appendToDocument(
  deps: MemoryDeps,
  principal: Principal,
  documentId: number,
  input: { source?: string; target?: string },
) {
  const { db } = deps;
  const doc = await requireDocument(db, principal, documentId);
  const source = requireText('source', input.source);
  const target = input.target ?? null;
  requireTagsOfSource(source, target);
  const id = await db.transaction((tx) =>
    repo.appendSegment(db, tx, documentId, {
      source,
      target,
      status: segmentStatus({ target, confirmed: false, reviewed: false }),
    }),
  );
  return publicSegment((await repo.findSegment(db, id, principal.organizationId))!, doc);
}

export async function getSegment(deps: MemoryDeps, principal: Principal, id: number) {
  const row = await repo.findSegment(deps.db, id, principal.organizationId);
  if (row) return publicSegment(row, row);
  const entry = await entries.findEntry(deps, principal, id);
  if (!entry) throw errors.notFound('Segment', id);
  return entry;
}

/** PUT /v2/segments. A new target un-confirms a document segment unless is_confirmed is sent with it. */
export async function updateSegment(
  deps: MemoryDeps,
  principal: Principal,
  input: Static<typeof UpdateSegmentBody>,
) {
  const { db } = deps;
  const current = await repo.findSegment(db, input.id, principal.organizationId);
  if (!current) return entries.updateEntry(deps, principal, input);
  const target = input.target ?? current.target;
  if (target !== null && target.length > MAX_TEXT_LENGTH * 4) {
    throw errors.badParameter('Parameter "target" is too long');
  }
  const confirmed = input.is_confirmed ?? (input.target !== undefined ? false : current.is_confirmed === 1);
  const reviewed = input.is_reviewed ?? current.is_reviewed === 1;
  if (confirmed && (target === null || target.trim() === '')) {
    throw errors.badParameter('Parameter "target" is required to confirm a segment');
  }
  if (input.target !== undefined) requireTagsOfSource(current.source, input.target);
  await db.transaction(async (tx) => {
    await repo.updateSegment(tx, input.id, {
      target,
      confirmed,
      reviewed,
      status: segmentStatus({ target, confirmed, reviewed }),
      // A segment keeps the score of the match it came from until its target is edited.
      keepScore: input.target === undefined,
    });
    if (confirmed && target) {
      const memoryId = await memoryOfProject(tx, current.project_id);
      await entries.recordConfirmedPair(tx, memoryId, {
        source: current.source,
        target,
        username: principal.username,
      });
    }
  });
  return publicSegment((await repo.findSegment(db, input.id, principal.organizationId))!, current);
}

export async function deleteSegment(deps: MemoryDeps, principal: Principal, id: number) {
  const row = await repo.findSegment(deps.db, id, principal.organizationId);
  if (row) await deps.db.transaction((tx) => repo.deleteSegment(tx, row));
  else await entries.deleteEntry(deps, principal, id);
  return { id, deleted: true };
}
