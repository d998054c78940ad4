// The machine translation every caller goes through: the editor's suggestion, POST /v2/translate,
// pre-translation. It masks tags and placeholders, answers what the cache holds, sends the rest to the
// provider under a timeout with retries, restores the tags (dropping an answer whose tags cannot be put
// back), caches and counts.
//
// Failures, as Weblate treats its machinery: Weblate stops asking a service that answered "rate limited"
// for a while rather than hammering it. Here, within one call a 429, a 5xx, a network error or a timeout is
// tried again twice (after 0.25 s and 0.5 s, or the engine's Retry-After when it is at most 2 s); when that
// fails too the provider is paused — after a 429 for its Retry-After or 60 s, after a server failure for
// 60 s — doubling with each failure in a row up to 30 minutes, and after refused credentials (401/403)
// for 30 minutes at once, since retrying a wrong key cannot help. A pause ends early on no success; the
// first call after it tries again. While paused, callers hear that MT is unavailable and why.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../store/db.ts';
import { type MaskedText, maskForMt, unmaskMt } from '../../text/mt-masking.ts';
import { type FailureKind, type LanguagePair, MtFailure, type MtProvider } from './provider.ts';
import * as repo from './repository.ts';

export interface EngineOptions {
  /** Milliseconds one call to a provider may take, retries included. */
  timeoutMs: number;
  /** Days a cached translation is used; 0 turns the cache off. */
  cacheDays: number;
}

const RETRY_DELAYS_MS = [250, 500];
const LONGEST_RETRY_WAIT_S = 2;
const FIRST_PAUSE_S = 60;
const LONGEST_PAUSE_S = 30 * 60;

interface Pause {
  until: number;
  seconds: number;
  reason: string;
}

/** A suggestion per text: the restored translation, or null when none could be made (why is in `unavailable`). */
export interface MtResult {
  provider: string;
  translations: (string | null)[];
  /** Why nothing was translated (no pair, a paused or failing provider); null when the provider answered. */
  unavailable: string | null;
}

function hashOf(masked: string): string {
  return createHash('sha256').update(masked).digest('base64url');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export class MtEngine {
  private readonly pauses = new Map<string, Pause>();
  private readonly failuresInRow = new Map<string, number>();

  constructor(
    private readonly providers: readonly MtProvider[],
    private readonly options: EngineOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether any provider is configured at all. */
  get configured(): boolean {
    return this.providers.length > 0;
  }

  /** The names of the providers, in the order they are asked. */
  get providerNames(): string[] {
    return this.providers.map((p) => p.name);
  }

  /** Why a provider is paused now, or null. */
  pausedReason(provider: string): string | null {
    const pause = this.pauses.get(provider);
    if (!pause || pause.until <= this.now()) return null;
    return `${provider} is paused for ${Math.ceil((pause.until - this.now()) / 1000)} s after ${pause.reason}`;
  }

  /** The pairs of the first provider that answers. */
  async languages(): Promise<{ provider: string; pairs: LanguagePair[] }[]> {
    const out: { provider: string; pairs: LanguagePair[] }[] = [];
    for (const p of this.providers) {
      const signal = AbortSignal.timeout(this.options.timeoutMs);
      try {
        out.push({ provider: p.name, pairs: await p.languages(signal) });
      } catch {
        out.push({ provider: p.name, pairs: [] });
      }
    }
    return out;
  }

  /**
   * Translates tagged texts for an organization: the first provider that translates the pair answers. The
   * characters sent (and those answered from the cache) are counted on the organization.
   */
  async translate(
    db: Queryable,
    organizationId: number,
    texts: string[],
    source: string,
    target: string,
  ): Promise<MtResult> {
    if (this.providers.length === 0) {
      return {
        provider: '',
        translations: texts.map(() => null),
        unavailable: 'no machine translation engine is configured',
      };
    }
    let why = '';
    for (const provider of this.providers) {
      const result = await this.translateWith(db, organizationId, provider, texts, source, target);
      if (result.unavailable === null) return result;
      why = why ? `${why}; ${result.unavailable}` : result.unavailable;
    }
    return { provider: '', translations: texts.map(() => null), unavailable: why };
  }

  private async translateWith(
    db: Queryable,
    organizationId: number,
    provider: MtProvider,
    texts: string[],
    source: string,
    target: string,
  ): Promise<MtResult> {
    const nothing = (unavailable: string): MtResult => ({
      provider: provider.name,
      translations: texts.map(() => null),
      unavailable,
    });
    const masks: MaskedText[] = texts.map(maskForMt);
    const hashes = masks.map((m) => hashOf(m.masked));
    const key = { provider: provider.name, sourceLang: source, targetLang: target };
    const cached =
      this.options.cacheDays > 0
        ? await repo.cachedTranslations(
            db,
            key,
            [...new Set(hashes)],
            Math.floor(this.now() / 1000) - this.options.cacheDays * 86_400,
          )
        : new Map<string, string>();
    // Each distinct text not in the cache is sent once.
    const toSend = [...new Set(hashes.filter((h) => !cached.has(h)))];
    const maskedOf = new Map(hashes.map((h, i) => [h, masks[i].masked]));
    const fresh = new Map<string, string>();
    if (toSend.length > 0) {
      const paused = this.pausedReason(provider.name);
      if (paused) return nothing(paused);
      try {
        const answers = await this.call(
          provider,
          toSend.map((h) => maskedOf.get(h)!),
          source,
          target,
        );
        for (const [i, h] of toSend.entries()) fresh.set(h, answers[i]);
      } catch (err) {
        const failure = err instanceof MtFailure ? err : new MtFailure('server', (err as Error).message);
        return nothing(failure.message);
      }
      if (this.options.cacheDays > 0) {
        await repo.cacheTranslations(
          db,
          key,
          [...fresh].map(([hash, translation]) => ({ hash, translation })),
        );
      }
    }
    const sent = toSend.reduce((n, h) => n + maskedOf.get(h)!.length, 0);
    const fromCache = hashes.reduce((n, h) => n + (cached.has(h) ? maskedOf.get(h)!.length : 0), 0);
    await repo.addUsage(db, organizationId, provider.name, { characters: sent, cachedCharacters: fromCache });
    return {
      provider: provider.name,
      translations: hashes.map((h, i) => {
        const answer = fresh.get(h) ?? cached.get(h);
        return answer === undefined ? null : unmaskMt(texts[i], masks[i], answer);
      }),
      unavailable: null,
    };
  }

  /** One provider call under the timeout, with the retries and the pause the header describes. */
  private async call(
    provider: MtProvider,
    batch: string[],
    source: string,
    target: string,
  ): Promise<string[]> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    for (let attempt = 0; ; attempt++) {
      try {
        const answers = await provider.translate(batch, source, target, signal);
        if (answers.length !== batch.length) {
          throw new MtFailure(
            'server',
            `${provider.name} answered ${answers.length} translations for ${batch.length}`,
          );
        }
        this.failuresInRow.delete(provider.name);
        this.pauses.delete(provider.name);
        return answers;
      } catch (err) {
        const failure =
          err instanceof MtFailure
            ? err
            : new MtFailure('server', signal.aborted ? `${provider.name} timed out` : (err as Error).message);
        if (signal.aborted && failure.kind !== 'server') throw failure;
        const retriable = failure.kind === 'rate' || failure.kind === 'server';
        const wait = failure.retryAfter !== undefined ? failure.retryAfter * 1000 : RETRY_DELAYS_MS[attempt];
        if (
          retriable &&
          attempt < RETRY_DELAYS_MS.length &&
          !signal.aborted &&
          wait <= LONGEST_RETRY_WAIT_S * 1000
        ) {
          await sleep(wait, signal);
          if (!signal.aborted) continue;
        }
        if (failure.kind !== 'request') this.pause(provider.name, failure.kind, failure);
        throw signal.aborted && failure.kind === 'server'
          ? new MtFailure('server', `${provider.name} timed out after ${this.options.timeoutMs} ms`)
          : failure;
      }
    }
  }

  private pause(provider: string, kind: Exclude<FailureKind, 'request'>, failure: MtFailure): void {
    const inRow = (this.failuresInRow.get(provider) ?? 0) + 1;
    this.failuresInRow.set(provider, inRow);
    let seconds: number;
    if (kind === 'auth') seconds = LONGEST_PAUSE_S;
    else if (kind === 'rate' && failure.retryAfter !== undefined) seconds = failure.retryAfter;
    else seconds = FIRST_PAUSE_S * 2 ** (inRow - 1);
    seconds = Math.min(seconds, LONGEST_PAUSE_S);
    const reason =
      kind === 'auth' ? 'refused credentials' : kind === 'rate' ? 'a rate limit' : 'a server failure';
    this.pauses.set(provider, { until: this.now() + seconds * 1000, seconds, reason });
  }

  /** Removes expired cache entries (a sweep of the instance keeper). */
  async sweepCache(db: Queryable): Promise<number> {
    if (this.options.cacheDays <= 0) return 0;
    return repo.deleteExpiredCache(db, Math.floor(this.now() / 1000) - this.options.cacheDays * 86_400);
  }
}
