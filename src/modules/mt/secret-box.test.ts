// The sealing of engine secrets: a value opens with its key and organization only; the key from
// TESSERA_SECRET_KEY, or a key file written once in the data directory and read by every later start; and
// what an update keeps of the stored secrets (settings-service.ts), with a kind that has a secret field.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ProviderKindInfo } from './providers/registry.ts';
import { secretBoxFor } from './secret-box.ts';
import { splitSettings } from './settings-service.ts';

const SECRET = 'sk-0123456789abcdef-secret';

test('a sealed value opens with its key and context only, and never holds the plain text', () => {
  const box = secretBoxFor({ secretKey: 'k'.repeat(40), dataDir: '' });
  const sealed = box.seal(SECRET, 'mt-engine:1');
  assert.match(sealed, /^v1:[A-Za-z0-9+/=]+$/);
  assert.ok(!sealed.includes(SECRET));
  assert.notEqual(box.seal(SECRET, 'mt-engine:1'), sealed, 'a fresh nonce each time');
  assert.equal(box.open(sealed, 'mt-engine:1'), SECRET);
  assert.equal(box.open(sealed, 'mt-engine:2'), null, 'another organization’s context');
  assert.equal(secretBoxFor({ secretKey: 'j'.repeat(40), dataDir: '' }).open(sealed, 'mt-engine:1'), null);
  assert.equal(box.open('v1:AAAA', 'mt-engine:1'), null);
  assert.equal(box.open('garbage', 'mt-engine:1'), null);
});

test('without TESSERA_SECRET_KEY a key file is written once (0600) and read by every later start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-secret-'));
  try {
    const box = secretBoxFor({ secretKey: undefined, dataDir });
    const file = join(dataDir, 'secret.key');
    const written = readFileSync(file, 'utf8');
    assert.equal(Buffer.from(written.trim(), 'base64').length, 32);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const again = secretBoxFor({ secretKey: undefined, dataDir });
    assert.equal(readFileSync(file, 'utf8'), written, 'not rewritten');
    assert.equal(again.open(box.seal(SECRET, 'c'), 'c'), SECRET);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

const KIND: ProviderKindInfo = {
  kind: 'apertium',
  label: 'Keyed',
  fields: [
    { name: 'url', label: 'URL', help: '', required: true, secret: false },
    { name: 'key', label: 'Key', help: '', required: true, secret: true },
    { name: 'model', label: 'Model', help: '', required: false, secret: false },
  ],
};

test('settings split into plain and secret; a secret not resent is kept, a required one must be there', () => {
  const made = splitSettings(KIND, { url: 'http://x', key: SECRET }, { plain: {}, secrets: {} });
  assert.deepEqual(made, { plain: { url: 'http://x' }, secrets: { key: SECRET } });
  const kept = splitSettings(KIND, { model: 'big', key: '' }, made);
  assert.deepEqual(kept, { plain: { url: 'http://x', model: 'big' }, secrets: { key: SECRET } });
  const replaced = splitSettings(KIND, { key: 'new-key' }, kept);
  assert.equal(replaced.secrets.key, 'new-key');
  assert.throws(
    () => splitSettings(KIND, { url: 'http://x' }, { plain: {}, secrets: {} }),
    /Parameter "settings.key" is required for Keyed/,
  );
  assert.throws(() => splitSettings(KIND, { model: '', url: '' }, made), /"settings.url" is required/);
});
