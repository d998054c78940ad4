// What every `tessera` command shares: the settings it runs with, and the one way a failure ends.
import type { Config } from '../config.ts';

/** Exits with one line on stderr: the way every CLI failure ends. */
export function fail(message: string, code = 1): never {
  process.stderr.write(`tessera: ${message}\n`);
  process.exit(code);
}

/** The settings: defaults < TESSERA_CONFIG file < environment < these flags. Loaded when a command runs. */
export async function configFrom(flags: Partial<Record<keyof Config, string>> = {}): Promise<Config> {
  const { loadConfig } = await import('../config.ts');
  return loadConfig(process.env, flags);
}
