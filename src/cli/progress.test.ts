// How the progress lines write sizes and times.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatBytes, formatDuration } from './progress.ts';

test('sizes in bytes, then binary units with one decimal below ten', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(1023), '1023 B');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(89 * 1024 * 1024), '89 MiB');
  assert.equal(formatBytes(3 * 1024 ** 3), '3.0 GiB');
});

test('times in tenths of a second below ten seconds, then seconds, minutes and hours', () => {
  assert.equal(formatDuration(0.04), '0.0s');
  assert.equal(formatDuration(3.2), '3.2s');
  assert.equal(formatDuration(42.4), '42s');
  assert.equal(formatDuration(75), '1m15s');
  assert.equal(formatDuration(3725), '1h02m');
});
