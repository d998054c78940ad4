import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readOnlyReason } from './read-only.ts';

const tina = { role: 'translator' as const, user_id: 7 };
const rex = { role: 'reviewer' as const, user_id: 8 };
const pam = { role: 'project_manager' as const, user_id: 9 };
const assignees = [
  { stage: 'translate', user_id: 7 },
  { stage: 'review', user_id: 8 },
];
const plain = { is_reviewed: false };

test('the assignee of the current stage edits; the others are told which stage is theirs', () => {
  const inTranslation = { stage: 'translate', assignees };
  assert.equal(readOnlyReason(tina, inTranslation, plain), undefined);
  assert.equal(
    readOnlyReason(rex, inTranslation, plain),
    'The document is in Translation; you are assigned to Review',
  );
  const inReview = { stage: 'review', assignees };
  assert.equal(readOnlyReason(rex, inReview, plain), undefined);
  assert.match(readOnlyReason(tina, inReview, plain)!, /in Review; you are assigned to Translation/);
  assert.match(readOnlyReason(tina, { stage: 'translate', assignees: [] }, plain)!, /to no stage/);
  // Once done, nobody's stage: the reason says so, and who can reopen it.
  for (const who of [tina, rex]) {
    assert.equal(
      readOnlyReason(who, { stage: 'done', assignees }, plain),
      'The workflow is done; a project manager can reopen the document',
    );
  }
  assert.equal(readOnlyReason(pam, { stage: 'done', assignees }, plain), undefined);
});

test('managers edit at any stage; a locked segment, and a reviewed one back in translation, are read-only', () => {
  assert.equal(readOnlyReason(pam, { stage: 'review', assignees }, plain), undefined);
  assert.equal(
    readOnlyReason(pam, { stage: 'translate', assignees }, { is_reviewed: false, locked: true }),
    'Locked by a project manager',
  );
  assert.match(
    readOnlyReason(tina, { stage: 'translate', assignees }, { is_reviewed: true })!,
    /Signed off in review/,
  );
  assert.equal(readOnlyReason(pam, { stage: 'translate', assignees }, { is_reviewed: true }), undefined);
});
