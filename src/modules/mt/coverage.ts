// Which engine serves a language pair, from the pairs the engines name (their languages()): what the
// leverage analysis reports as the MT that could draft a pair's new words. Nothing is translated to answer.
import type { LanguagePair } from './provider.ts';

/** What coverage needs of the engine: its providers' pairs, in the order they are asked. */
export interface EnginePairs {
  readonly configured: boolean;
  languages(): Promise<{ provider: string; pairs: LanguagePair[] }[]>;
}

/**
 * Whether an engine's language serves a document's: the same tag, or the engine's language without a region
 * or script serving every variant of it (Apertium's `es` serves `es-MX`; its `pt-BR` does not serve `pt-PT`).
 */
export function languageServes(engine: string, wanted: string): boolean {
  const e = engine.toLowerCase();
  const w = wanted.toLowerCase();
  return e === w || (!e.includes('-') && w.split('-')[0] === e);
}

/** The name of the first provider that serves source → target, or null. */
export async function providerServing(
  engine: EnginePairs,
  source: string,
  target: string,
): Promise<string | null> {
  if (!engine.configured) return null;
  for (const { provider, pairs } of await engine.languages()) {
    if (pairs.some((p) => languageServes(p.source, source) && languageServes(p.target, target))) {
      return provider;
    }
  }
  return null;
}
