// One interface for every machine translation engine. A provider translates a batch of masked texts
// (src/text/mt-masking.ts) between two BCP-47 tags and names the pairs it serves; it throws MtFailure for
// an answer it could not use, saying whether trying again could help. Timeouts, retries, back-off, the
// cache and the counters are the caller's (engine.ts), the same for every provider.

export interface LanguagePair {
  source: string;
  target: string;
}

/** A termbase as an engine's own glossary holds it: source term → target term. */
export interface GlossaryRequest {
  /** Who the glossary is for (an engine and a memory): its glossaries of other hashes are replaced. */
  scope: string;
  /** The entries' content hash: the same hash, the same glossary. */
  hash: string;
  entries: ReadonlyMap<string, string>;
}

/** An engine that keeps glossaries on its side (DeepL). */
export interface ProviderGlossaries {
  /** The id of the glossary holding these entries for the pair (made when missing), or null when the engine has no glossaries for the pair. */
  glossaryFor(
    request: GlossaryRequest,
    source: string,
    target: string,
    signal: AbortSignal,
  ): Promise<string | null>;
}

export interface MtProvider {
  /** Stable name: the cache's key and what suggestions are labelled with. */
  readonly name: string;
  /**
   * A translation per text, in order. `signal` aborts the request at the caller's timeout; `glossaryId` is
   * one `glossaries.glossaryFor` answered.
   */
  translate(
    batch: string[],
    source: string,
    target: string,
    signal: AbortSignal,
    options?: { glossaryId?: string },
  ): Promise<string[]>;
  /** Engines with glossaries of their own keep a termbase there rather than having its terms protected. */
  readonly glossaries?: ProviderGlossaries;
  /** The pairs it translates, as BCP-47 tags. */
  languages(signal: AbortSignal): Promise<LanguagePair[]>;
}

/** Why an engine's answer failed: `rate` (429), `server` (5xx, network, timeout), `auth` (401/403), `request`. */
export type FailureKind = 'rate' | 'server' | 'auth' | 'request';

export class MtFailure extends Error {
  override name = 'MtFailure';
  constructor(
    readonly kind: FailureKind,
    message: string,
    /** Seconds the engine asked to wait (Retry-After), when it did. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** The failure an HTTP status means; null for success. */
export function failureOfStatus(status: number, retryAfter: string | null, what: string): MtFailure | null {
  if (status >= 200 && status < 300) return null;
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  if (status === 429) return new MtFailure('rate', `${what}: rate limited (429)`, seconds);
  if (status === 401 || status === 403)
    return new MtFailure('auth', `${what}: refused credentials (${status})`);
  if (status >= 500) return new MtFailure('server', `${what}: server error (${status})`, seconds);
  return new MtFailure('request', `${what}: refused the request (${status})`);
}
