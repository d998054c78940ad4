// The stored secrets of machine translation engines (API keys), encrypted at rest with AES-256-GCM: a copy
// of the database alone (a backup, a dump handed to support) does not give away an organization's DeepL key.
//
// The key comes from TESSERA_SECRET_KEY (any string of 32 characters or more, stretched to 256 bits with
// HKDF-SHA-256), or else from `secret.key` in the data directory, 32 random bytes written once on the first
// start that needs it. Several processes on one PostgreSQL store each have their own data directory, so they
// must share TESSERA_SECRET_KEY: a process with another key cannot open the secrets and says so (the
// engine answers "its stored secrets cannot be read") rather than sending a wrong key.
//
// Each sealed value is bound to its organization (the GCM additional data), so a row's ciphertext copied
// onto another organization's engine does not open.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FORMAT = 'v1';
const KEY_FILE = 'secret.key';

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('a secret box needs a 256-bit key');
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** The plain text, or null when the value was sealed with another key or for another context. */
  open(sealed: string, context: string): string | null {
    const [format, data] = sealed.split(':');
    if (format !== FORMAT || !data) return null;
    const raw = Buffer.from(data, 'base64');
    if (raw.length < 28) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/** The box for the settings: TESSERA_SECRET_KEY when given, else the data directory's key file. */
export function secretBoxFor(config: { secretKey: string | undefined; dataDir: string }): SecretBox {
  if (config.secretKey !== undefined) {
    const derived = hkdfSync('sha256', config.secretKey, 'tessera', 'mt engine secrets', 32);
    return new SecretBox(Buffer.from(derived));
  }
  return new SecretBox(keyFileIn(config.dataDir));
}

function keyFileIn(dataDir: string): Buffer {
  const path = join(dataDir, KEY_FILE);
  try {
    return decodeKey(readFileSync(path, 'utf8'), path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx': of two processes starting at once, one writes and the other reads what it wrote.
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return decodeKey(readFileSync(path, 'utf8'), path);
}

function decodeKey(text: string, path: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${path} does not hold a 256-bit key in base64`);
  return key;
}
