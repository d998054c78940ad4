// Settings: one table of every setting; defaults < config file (TESSERA_CONFIG) < environment < flags.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isLanguageCode } from './text/language-names.ts';
import { DEFAULT_MAX_DECOMPRESSED_BYTES } from './xml/gzip.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A postgres:// URL, or undefined for the embedded SQLite store under dataDir. */
  databaseUrl: string | undefined;
  /** When set, the admin key created on first start takes this value (and is not printed). */
  apiKey: string | undefined;
  /** Enabled language codes; undefined means every ISO 639-1 language. */
  languages: string[] | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  maxUploadBytes: number;
  /** The largest a gzipped upload (a memory file) may grow to once inflated; past it the import fails. */
  maxDecompressedBytes: number;
  /** Requests a minute per API key. */
  rateLimit: number;
  /** Worker loop: tasks run concurrently by one process. */
  workerConcurrency: number;
  /**
   * Seconds without a heartbeat after which another server process sharing the store counts as dead, and
   * what it held (uploads, exports, running tasks) is released.
   */
  instanceTimeout: number;
  /** Milliseconds the regular expression of one find and replace may run over a document, in all. */
  regexTimeoutMs: number;
  /**
   * Milliseconds a document's format filter may read one uploaded file, plus one a KiB of it: a file built to
   * be slow to parse fails its import past it instead of holding a thread.
   */
  readTimeoutMs: number;
  /**
   * The proxies whose X-Forwarded-For (and -Proto, -Host) are believed (Fastify's `trustProxy`): none
   * (false), the addresses or CIDR ranges of the proxies, or the number of proxy hops in front of the server. The
   * client address they give is the one failed sign-ins are counted by; with none, it is the socket's peer.
   */
  trustProxy: false | number | string[];
  /**
   * An Apertium APy server (http://127.0.0.1:2737) that translates for every organization: the operator's
   * default machine translation engine (docs/API.md, Machine translation). Unset, there is none.
   */
  mtApertiumUrl: string | undefined;
  /** Milliseconds one request to a machine translation engine may take, its retries included. */
  mtTimeoutMs: number;
  /** Days a machine translation is answered from the store's cache; 0 turns the cache off. */
  mtCacheDays: number;
  /**
   * The key the stored secrets of machine translation engines (API keys) are encrypted with, at least 32
   * characters. Unset, a random key is generated once into `secret.key` of the data directory; several
   * processes sharing a PostgreSQL store must all be given the same value here instead.
   */
  secretKey: string | undefined;
}

/** A setting that cannot be used; the message names it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Parser<T> = (raw: string, name: string) => T;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function integer(min: number, max: number): Parser<number> {
  return (raw, name) => {
    const value = Number(raw);
    if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    }
    return value;
  };
}

const text: Parser<string> = (raw, name) => {
  if (raw.trim() === '') throw new ConfigError(`${name} must not be empty`);
  return raw.trim();
};

/** proxy-addr's names for the ranges of the loopback, link-local and unique-local (private) addresses. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, a CIDR range (10.0.0.0/8, fd00::/8) or a named range. */
function httpUrl(raw: string, name: string): string | undefined {
  if (raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// URL, got "${raw}"`);
  }
  return url.toString();
}

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address, bits, ...more] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || more.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

const trustProxy: Parser<Config['trustProxy']> = (raw, name) => {
  const value = raw.trim().toLowerCase();
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return integer(1, 32)(value, name);
  if (value === 'true') {
    throw new ConfigError(
      `${name}=true would let any client choose its address with X-Forwarded-For; give the proxies' addresses or their number of hops`,
    );
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !isProxyAddress(e));
  if (bad.length > 0) {
    throw new ConfigError(
      `${name} must be a number of hops or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal; not ${bad.join(', ')}`,
    );
  }
  return entries;
};

const SETTINGS: { [K in keyof Config]: { env: string; parse: Parser<Config[K]>; default: Config[K] } } = {
  port: { env: 'TESSERA_PORT', parse: integer(0, 65535), default: 8080 },
  host: { env: 'TESSERA_HOST', parse: text, default: '127.0.0.1' },
  dataDir: {
    env: 'TESSERA_DATA_DIR',
    parse: (raw, name) => resolve(text(raw, name)),
    default: resolve('data'),
  },
  databaseUrl: {
    env: 'TESSERA_DATABASE_URL',
    parse: (raw, name) => {
      const value = raw.trim();
      if (value === '') return undefined;
      if (!/^postgres(ql)?:\/\//.test(value)) {
        throw new ConfigError(
          `${name} must be a postgres:// URL (leave it unset for the embedded SQLite store)`,
        );
      }
      try {
        new URL(value);
      } catch {
        throw new ConfigError(`${name} is not a valid URL`);
      }
      return value;
    },
    default: undefined,
  },
  apiKey: {
    env: 'TESSERA_API_KEY',
    parse: (raw, name) => {
      if (raw.length < 32 || /[^\x21-\x7e]/.test(raw)) {
        throw new ConfigError(`${name} must be at least 32 printable characters without spaces`);
      }
      return raw;
    },
    default: undefined,
  },
  languages: {
    env: 'TESSERA_LANGUAGES',
    parse: (raw, name) => {
      const codes = [...new Set(raw.split(',').map((c) => c.trim().toLowerCase()))].filter(Boolean);
      const unknown = codes.filter((c) => !isLanguageCode(c));
      if (unknown.length > 0)
        throw new ConfigError(`${name} has unknown ISO 639-1 codes: ${unknown.join(', ')}`);
      if (codes.length < 2) throw new ConfigError(`${name} must list at least two languages`);
      return codes;
    },
    default: undefined,
  },
  logLevel: {
    env: 'TESSERA_LOG_LEVEL',
    parse: (raw, name) => {
      const level = raw.trim().toLowerCase() as Config['logLevel'];
      if (!LOG_LEVELS.includes(level))
        throw new ConfigError(`${name} must be one of ${LOG_LEVELS.join(', ')}`);
      return level;
    },
    default: 'info',
  },
  maxUploadBytes: {
    env: 'TESSERA_MAX_UPLOAD_BYTES',
    parse: integer(1024, Number.MAX_SAFE_INTEGER),
    default: 512 * 1024 * 1024,
  },
  maxDecompressedBytes: {
    env: 'TESSERA_MAX_DECOMPRESSED_BYTES',
    parse: integer(1024, Number.MAX_SAFE_INTEGER),
    default: DEFAULT_MAX_DECOMPRESSED_BYTES,
  },
  rateLimit: { env: 'TESSERA_RATE_LIMIT', parse: integer(1, 10_000_000), default: 4000 },
  workerConcurrency: { env: 'TESSERA_WORKER_CONCURRENCY', parse: integer(1, 64), default: 2 },
  instanceTimeout: { env: 'TESSERA_INSTANCE_TIMEOUT', parse: integer(3, 3600), default: 30 },
  regexTimeoutMs: { env: 'TESSERA_REGEX_TIMEOUT_MS', parse: integer(100, 600_000), default: 10_000 },
  readTimeoutMs: { env: 'TESSERA_READ_TIMEOUT_MS', parse: integer(100, 3_600_000), default: 60_000 },
  trustProxy: { env: 'TESSERA_TRUST_PROXY', parse: trustProxy, default: false },
  mtApertiumUrl: { env: 'TESSERA_MT_APERTIUM_URL', parse: httpUrl, default: undefined },
  mtTimeoutMs: { env: 'TESSERA_MT_TIMEOUT_MS', parse: integer(100, 600_000), default: 10_000 },
  mtCacheDays: { env: 'TESSERA_MT_CACHE_DAYS', parse: integer(0, 3650), default: 30 },
  secretKey: {
    env: 'TESSERA_SECRET_KEY',
    parse: (raw, name) => {
      if (raw.length < 32 || /[^\x21-\x7e]/.test(raw)) {
        throw new ConfigError(`${name} must be at least 32 printable characters without spaces`);
      }
      return raw;
    },
    default: undefined,
  },
};

/** Reads TESSERA_CONFIG (JSON or YAML) into raw string values keyed by environment name. */
function readConfigFile(path: string): Record<string, string> {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `TESSERA_CONFIG file ${path} cannot be read: ${(err as NodeJS.ErrnoException).code}`,
    );
  }
  let data: unknown;
  try {
    data = path.endsWith('.json') ? JSON.parse(content) : parseYaml(content);
  } catch (err) {
    throw new ConfigError(`TESSERA_CONFIG file ${path} is not valid JSON/YAML: ${(err as Error).message}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError(`TESSERA_CONFIG file ${path} must hold an object of settings`);
  }
  // Keys may be written as the environment name (TESSERA_PORT) or the short name (port).
  const byKey = new Map<string, string>();
  for (const [key, setting] of Object.entries(SETTINGS)) {
    byKey.set(key.toLowerCase(), setting.env);
    byKey.set(setting.env.toLowerCase(), setting.env);
    byKey.set(setting.env.slice('TESSERA_'.length).toLowerCase(), setting.env);
  }
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    const env = byKey.get(key.toLowerCase().replace(/-/g, '_'));
    if (!env) throw new ConfigError(`TESSERA_CONFIG file ${path} has an unknown setting "${key}"`);
    raw[env] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return raw;
}

/** Builds the configuration; throws ConfigError naming the first bad setting. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  flags: Partial<Record<keyof Config, string>> = {},
): Config {
  const fromFile = env.TESSERA_CONFIG ? readConfigFile(env.TESSERA_CONFIG) : {};
  const config: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [
    keyof Config,
    (typeof SETTINGS)[keyof Config],
  ][]) {
    const raw = flags[key] ?? env[setting.env] ?? fromFile[setting.env];
    config[key] = raw === undefined ? setting.default : (setting.parse as Parser<unknown>)(raw, setting.env);
  }
  return config as unknown as Config;
}
