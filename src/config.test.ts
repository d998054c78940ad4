import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

test('defaults', () => {
  const config = loadConfig({});
  assert.equal(config.port, 8080);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.dataDir, resolve('data'));
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.languages, undefined);
  assert.equal(config.rateLimit, 4000);
  assert.equal(config.trustProxy, false);
});

test('TESSERA_TRUST_PROXY: off, a number of hops, or the proxies’ addresses and ranges', () => {
  const trust = (raw: string) => loadConfig({ TESSERA_TRUST_PROXY: raw }).trustProxy;
  assert.equal(trust(''), false);
  assert.equal(trust('false'), false);
  assert.equal(trust('2'), 2);
  assert.deepEqual(trust('10.0.0.1, 10.1.0.0/16,fd00::/8 , loopback'), [
    '10.0.0.1',
    '10.1.0.0/16',
    'fd00::/8',
    'loopback',
  ]);
  assert.throws(() => trust('true'), /TESSERA_TRUST_PROXY=true would let any client choose its address/);
  assert.throws(() => trust('10.0.0.1,proxy.local,10.0.0.0/33'), /not proxy\.local, 10\.0\.0\.0\/33$/);
});

test('environment values are parsed', () => {
  const config = loadConfig({
    TESSERA_PORT: '9000',
    TESSERA_DATABASE_URL: 'postgres://u@db:5432/tessera',
    TESSERA_LANGUAGES: 'EN, de ,fr,de',
    TESSERA_LOG_LEVEL: 'WARN',
    TESSERA_MAX_UPLOAD_BYTES: '1048576',
  });
  assert.equal(config.port, 9000);
  assert.equal(config.databaseUrl, 'postgres://u@db:5432/tessera');
  assert.deepEqual(config.languages, ['en', 'de', 'fr']);
  assert.equal(config.logLevel, 'warn');
  assert.equal(config.maxUploadBytes, 1048576);
});

test('a bad value names the setting', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ TESSERA_PORT: 'eighty' }, /^TESSERA_PORT must be an integer from 0 to 65535, got "eighty"$/],
    [{ TESSERA_PORT: '70000' }, /^TESSERA_PORT /],
    [{ TESSERA_DATABASE_URL: 'mysql://x' }, /^TESSERA_DATABASE_URL must be a postgres:\/\/ URL/],
    [{ TESSERA_LANGUAGES: 'en,xx,qq' }, /^TESSERA_LANGUAGES has unknown ISO 639-1 codes: xx, qq$/],
    [{ TESSERA_LANGUAGES: 'en' }, /^TESSERA_LANGUAGES must list at least two languages$/],
    [{ TESSERA_LOG_LEVEL: 'loud' }, /^TESSERA_LOG_LEVEL must be one of/],
    [{ TESSERA_MAX_UPLOAD_BYTES: '-5' }, /^TESSERA_MAX_UPLOAD_BYTES /],
    [{ TESSERA_API_KEY: 'short' }, /^TESSERA_API_KEY must be at least 32 printable characters/],
    [{ TESSERA_HOST: '  ' }, /^TESSERA_HOST must not be empty$/],
  ];
  for (const [env, message] of cases)
    assert.throws(
      () => loadConfig(env),
      (e: Error) => e instanceof ConfigError && message.test(e.message),
    );
});

test('a config file (YAML or JSON) sits between defaults and the environment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-config-'));
  const yamlFile = join(dir, 'tessera.yaml');
  writeFileSync(yamlFile, 'port: 9100\nlanguages: [en, ja]\nTESSERA_LOG_LEVEL: debug\n');
  const fromYaml = loadConfig({ TESSERA_CONFIG: yamlFile });
  assert.equal(fromYaml.port, 9100);
  assert.deepEqual(fromYaml.languages, ['en', 'ja']);
  assert.equal(fromYaml.logLevel, 'debug');
  assert.equal(loadConfig({ TESSERA_CONFIG: yamlFile, TESSERA_PORT: '9200' }).port, 9200);

  const jsonFile = join(dir, 'tessera.json');
  writeFileSync(jsonFile, JSON.stringify({ TESSERA_PORT: 9300, max_upload_bytes: 4096 }));
  const fromJson = loadConfig({ TESSERA_CONFIG: jsonFile });
  assert.equal(fromJson.port, 9300);
  assert.equal(fromJson.maxUploadBytes, 4096);

  writeFileSync(jsonFile, JSON.stringify({ colour: 'blue' }));
  assert.throws(() => loadConfig({ TESSERA_CONFIG: jsonFile }), /unknown setting "colour"/);
  writeFileSync(jsonFile, '{"port": ');
  assert.throws(() => loadConfig({ TESSERA_CONFIG: jsonFile }), /is not valid JSON\/YAML/);
  assert.throws(() => loadConfig({ TESSERA_CONFIG: join(dir, 'missing.yaml') }), /cannot be read: ENOENT/);
  writeFileSync(yamlFile, 'port: 99999\n');
  assert.throws(() => loadConfig({ TESSERA_CONFIG: yamlFile }), /^ConfigError: TESSERA_PORT /);
});

test('flags win over everything', () => {
  assert.equal(loadConfig({ TESSERA_PORT: '9000' }, { port: '9001' }).port, 9001);
});

test('machine translation settings: an http(s) URL, a timeout, the cache days', () => {
  const none = loadConfig({});
  assert.deepEqual([none.mtApertiumUrl, none.mtTimeoutMs, none.mtCacheDays], [undefined, 10_000, 30]);
  const set = loadConfig({
    TESSERA_MT_APERTIUM_URL: 'http://127.0.0.1:2737',
    TESSERA_MT_TIMEOUT_MS: '2000',
    TESSERA_MT_CACHE_DAYS: '0',
  });
  assert.deepEqual(
    [set.mtApertiumUrl, set.mtTimeoutMs, set.mtCacheDays],
    ['http://127.0.0.1:2737/', 2000, 0],
  );
  assert.throws(
    () => loadConfig({ TESSERA_MT_APERTIUM_URL: 'ftp://x' }),
    /TESSERA_MT_APERTIUM_URL must be an http/,
  );
  assert.throws(() => loadConfig({ TESSERA_MT_APERTIUM_URL: 'not a url' }), /TESSERA_MT_APERTIUM_URL/);
  assert.throws(
    () => loadConfig({ TESSERA_MT_CACHE_DAYS: '-1' }),
    /TESSERA_MT_CACHE_DAYS must be an integer/,
  );
});
