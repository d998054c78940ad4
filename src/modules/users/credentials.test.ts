// Password hashes: the production scrypt cost is the default (test/helpers/context.ts lowers it for the rest of
// the suite, in its own processes), and a hash is checked at the cost it names, whatever new hashes get.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, lowerPasswordHashCostForTests, verifyPassword } from './credentials.ts';

test('a password is hashed with scrypt N=2^15, r=8, p=1 unless a test lowered the cost', async () => {
  const stored = await hashPassword('correct horse');
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  assert.deepEqual([scheme, n, r, p], ['scrypt', '32768', '8', '1']);
  assert.equal(Buffer.from(salt, 'base64').length, 16);
  assert.equal(Buffer.from(hash, 'base64').length, 32);
  assert.equal(await verifyPassword('correct horse', stored), true);
  assert.equal(await verifyPassword('correct horse!', stored), false);

  lowerPasswordHashCostForTests(2 ** 10);
  const cheap = await hashPassword('correct horse');
  assert.deepEqual(cheap.split('$').slice(0, 4), ['scrypt', '1024', '8', '1']);
  assert.equal(await verifyPassword('correct horse', cheap), true);
  assert.equal(await verifyPassword('wrong', cheap), false);
  // A hash made at the production cost is still checked at that cost.
  assert.equal(await verifyPassword('correct horse', stored), true);
  assert.equal(await verifyPassword('wrong', stored), false);
});
