import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bytesProgress, plural } from './format.ts';

test('a count takes the singular for one only', () => {
  assert.equal(plural(1, 'match', 'matches'), '1 match');
  assert.equal(plural(0, 'match', 'matches'), '0 matches');
  assert.equal(plural(2, 'entry', 'entries'), '2 entries');
  assert.equal(plural(40240, 'segment'), `${(40240).toLocaleString()} segments`);
});

test('progress through a file in percent and megabytes, never raw bytes', () => {
  assert.equal(bytesProgress(5 * 1024 ** 2, 20 * 1024 ** 2), '25 % · 5.0 MB of 20.0 MB');
  assert.equal(bytesProgress(0, 0), '0 % · 0 B of 0 B');
  assert.equal(bytesProgress(30, 20), '100 % · 30 B of 20 B');
});
