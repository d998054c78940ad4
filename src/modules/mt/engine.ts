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
//
// Which engines: an organization's own, enabled, in the order its admins gave (organization-engines.ts), then
// the operator's defaults; the first that serves the pair and answers wins. An engine whose listed pairs do
// not include the pair is passed over without a call and without a pause. Pauses and the cache are per
// engine (an organization's DeepL with its key is not another's). Before anything is sent, the
// organization's monthly character limits are checked (settings-service.ts): over the organization's, MT is
// unavailable with that reason; over an engine's own, the next engine is asked.
//
// Termbases: a caller that knows the memory passes its termbase (termbase.ts, `termbases.of`); every engine
// then keeps to it — a DeepL engine through a DeepL glossary where DeepL has one for the pair, every other
// (and DeepL elsewhere) by protect-and-substitute in the masking.
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../../store/db.ts';
import { type MaskedText, maskForMt, unmaskMt } from '../../text/mt-masking.ts';
import type { MtMetrics, MtOutcome } from './metrics.ts';
import type { EngineSlot, OrganizationEngines } from './organization-engines.ts';
import { type FailureKind, type LanguagePair, MtFailure, type MtProvider } from './provider.ts';
import * as repo from './repository.ts';
import { organizationLimit } from './settings-repository.ts';
import { type MtTermbase, MtTermbases, protectedSpans } from './termbase.ts';
import type { UsageBuffer } from './usage-buffer.ts';

/** What a call may add to the texts and pair. */
export interface TranslateOptions {
  /** The termbase of the memory in use, for the pair (`engine.termbases.of`): MT keeps to its terms. */
  termbase?: MtTermbase | null;
}

export interface EngineOptions {
  /** Milliseconds one call to a provider may take, retries included. */
  timeoutMs: number;
  /** Days a cached translation is used; 0 turns the cache off. */
  cacheDays: number;
  /**
   * Where the usage counters are added up and written in batches (usage-buffer.ts: the server's). Without
   * one they are written with each call, in its transaction.
   */
  usage?: UsageBuffer;
}

const RETRY_DELAYS_MS = [250, 500];
const LONGEST_RETRY_WAIT_S = 2;
const FIRST_PAUSE_S = 60;
const LONGEST_PAUSE_S = 30 * 60;
/** How long an engine's listed pairs are believed before they are asked again. */
const PAIRS_TTL_MS = 10 * 60_000;

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

/** Runs the writes in one transaction of their own, or in the caller's when it is in one already. */
function inOneTransaction(db: Queryable, fn: (q: Queryable) => Promise<void>): Promise<void> {
  return 'transaction' in db ? (db as Db).transaction(fn) : fn(db);
}

export class MtEngine {
  private readonly pauses = new Map<string, Pause>();
  private readonly failuresInRow = new Map<string, number>();
  private readonly pairs = new Map<string, { at: number; pairs: LanguagePair[] | null }>();
  private readonly defaults: EngineSlot[];
  /** The memories' termbases, kept until their terms change (termbase.ts). */
  readonly termbases: MtTermbases;

  constructor(
    providers: readonly MtProvider[],
    private readonly options: EngineOptions,
    private readonly now: () => number = Date.now,
    private readonly organizations?: OrganizationEngines,
    readonly metrics?: MtMetrics,
  ) {
    this.termbases = new MtTermbases(now);
    // The operator's defaults keep their provider's name as label, cache key and pause key.
    this.defaults = providers.map((provider) => ({
      engineId: 0,
      kind: provider.name,
      label: provider.name,
      pauseKey: provider.name,
      cacheKey: provider.name,
      provider,
      broken: null,
      monthlyLimit: null,
    }));
  }

  /** Whether the operator configured a default engine (organizations may add their own: configuredFor). */
  get configured(): boolean {
    return this.defaults.length > 0;
  }

  /** Whether an organization has any engine to ask: one of its own enabled, or the operator's default. */
  async configuredFor(db: Queryable, organizationId: number): Promise<boolean> {
    if (this.configured) return true;
    return ((await this.organizations?.enabledOf(db, organizationId)) ?? []).length > 0;
  }

  /** The names of the operator's default providers, in the order they are asked. */
  get providerNames(): string[] {
    return this.defaults.map((p) => p.label);
  }

  /** The operator's default engines, as the settings show them (read-only). */
  get defaultEngines(): { kind: string; label: string }[] {
    return this.defaults.map((p) => ({ kind: p.kind, label: p.label }));
  }

  /** Why a provider is paused now, or null; `provider` is a default's name or a slot's pause key. */
  pausedReason(provider: string, label = provider): string | null {
    const pause = this.pauses.get(provider);
    if (!pause || pause.until <= this.now()) return null;
    return `${label} is paused for ${Math.ceil((pause.until - this.now()) / 1000)} s after ${pause.reason}`;
  }

  /** The pairs of each default provider. */
  async languages(): Promise<{ provider: string; pairs: LanguagePair[] }[]> {
    const out: { provider: string; pairs: LanguagePair[] }[] = [];
    for (const p of this.defaults) {
      out.push({ provider: p.label, pairs: (await this.pairsOf(p)) ?? [] });
    }
    return out;
  }

  /**
   * The pairs of the engines an organization's translations go to, in the order they are asked: its own
   * enabled engines, then the operator's defaults. An engine that cannot list its pairs lists none here.
   */
  async languagesFor(
    db: Queryable,
    organizationId: number,
  ): Promise<{ provider: string; pairs: LanguagePair[] }[]> {
    const own = (await this.organizations?.enabledOf(db, organizationId)) ?? [];
    const out: { provider: string; pairs: LanguagePair[] }[] = [];
    for (const slot of [...own, ...this.defaults]) {
      out.push({ provider: slot.label, pairs: (await this.pairsOf(slot)) ?? [] });
    }
    return out;
  }

  /** An engine's listed pairs, kept a while; null when it could not say (then it is asked anyway). */
  private async pairsOf(slot: EngineSlot): Promise<LanguagePair[] | null> {
    if (!slot.provider) return null;
    const known = this.pairs.get(slot.pauseKey);
    if (known && this.now() - known.at < PAIRS_TTL_MS) return known.pairs;
    let pairs: LanguagePair[] | null;
    try {
      pairs = await slot.provider.languages(AbortSignal.timeout(this.options.timeoutMs));
    } catch {
      pairs = null;
    }
    // A failure is believed for a minute only: the engine may be back soon.
    this.pairs.set(slot.pauseKey, { at: pairs ? this.now() : this.now() - PAIRS_TTL_MS + 60_000, pairs });
    return pairs;
  }

  /**
   * Whether an engine's listed pairs leave this one out, by language (its variants are the provider's to
   * pick): an engine that lists none, or could not list them, is asked.
   */
  private async lacksPair(slot: EngineSlot, source: string, target: string): Promise<boolean> {
    // A paused engine is not asked for its pairs either (it may hang until the timeout).
    if (this.pausedReason(slot.pauseKey) !== null) return false;
    const pairs = await this.pairsOf(slot);
    if (!pairs || pairs.length === 0) return false;
    const lang = (tag: string) => tag.split('-')[0].toLowerCase();
    return !pairs.some((p) => lang(p.source) === lang(source) && lang(p.target) === lang(target));
  }

  /**
   * Translates tagged texts for an organization: the first engine that translates the pair answers. The
   * characters sent (and those answered from the cache) are counted on the organization.
   */
  async translate(
    db: Queryable,
    organizationId: number,
    texts: string[],
    source: string,
    target: string,
    options: TranslateOptions = {},
  ): Promise<MtResult> {
    const own = (await this.organizations?.enabledOf(db, organizationId)) ?? [];
    const slots = [...own, ...this.defaults];
    const none = (unavailable: string): MtResult => ({
      provider: '',
      translations: texts.map(() => null),
      unavailable,
    });
    if (slots.length === 0) return none('no machine translation engine is configured');
    const limits = new MonthLimits(db, organizationId, repo.monthOf(this.now()), this.options.usage);
    let why = '';
    for (const slot of slots) {
      const { final, ...result } = await this.translateWith(
        db,
        organizationId,
        slot,
        texts,
        source,
        target,
        limits,
        options.termbase ?? null,
      );
      if (result.unavailable === null) return result;
      why = why ? `${why}; ${result.unavailable}` : result.unavailable;
      if (final) break;
    }
    return none(why);
  }

  private async translateWith(
    db: Queryable,
    organizationId: number,
    slot: EngineSlot,
    texts: string[],
    source: string,
    target: string,
    limits: MonthLimits,
    termbase: MtTermbase | null,
  ): Promise<MtResult & { final?: boolean }> {
    const count = (outcome: MtOutcome) => this.metrics?.requests.inc({ kind: slot.kind, outcome });
    const nothing = (unavailable: string, outcome: MtOutcome, final = false) => {
      count(outcome);
      return { provider: slot.label, translations: texts.map(() => null), unavailable, final };
    };
    const provider = slot.provider;
    if (!provider) return nothing(slot.broken ?? `${slot.label} cannot be used`, 'failed');
    if (await this.lacksPair(slot, source, target)) {
      return nothing(`${slot.label} has no ${source}→${target} pair`, 'no_pair');
    }
    // A protected term is an element of the masked text, its target term put back after the cache: the
    // cache's key (the masked text) does not depend on the termbase. A DeepL glossary's answers do: they are
    // cached under its content hash.
    const glossaryId = termbase ? await this.glossaryIdFor(slot, provider, termbase, source, target) : null;
    const masks: MaskedText[] = texts.map((t) =>
      maskForMt(t, termbase && glossaryId === null ? protectedSpans(termbase, t) : []),
    );
    const hashes = masks.map((m) => hashOf(m.masked));
    const key = {
      provider: glossaryId === null ? slot.cacheKey : `${slot.cacheKey}:glossary:${termbase!.hash}`,
      sourceLang: source,
      targetLang: target,
    };
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
    const sent = toSend.reduce((n, h) => n + maskedOf.get(h)!.length, 0);
    const fresh = new Map<string, string>();
    if (toSend.length > 0) {
      const paused = this.pausedReason(slot.pauseKey, slot.label);
      if (paused) return nothing(paused, 'paused');
      const refused = await limits.refusal(slot, sent);
      if (refused) return nothing(refused.reason, 'limited', refused.organization);
      const started = performance.now();
      try {
        const answers = await this.call(
          slot,
          provider,
          toSend.map((h) => maskedOf.get(h)!),
          source,
          target,
          glossaryId,
        );
        for (const [i, h] of toSend.entries()) fresh.set(h, answers[i]);
      } catch (err) {
        const failure = err instanceof MtFailure ? err : new MtFailure('server', (err as Error).message);
        // A provider names its kind ("Apertium: …"); an organization's engine is known by its label.
        const message = failure.message.startsWith(slot.label)
          ? failure.message
          : `${slot.label}: ${failure.message}`;
        return nothing(
          slot.engineId === 0 ? failure.message : message,
          failure.kind === 'request' ? 'no_pair' : 'failed',
        );
      } finally {
        this.metrics?.latency.observe({ kind: slot.kind }, (performance.now() - started) / 1000);
      }
    }
    const fromCache = hashes.reduce((n, h) => n + (cached.has(h) ? maskedOf.get(h)!.length : 0), 0);
    const usage = { characters: sent, cachedCharacters: fromCache };
    const engine = { id: slot.engineId, name: slot.label };
    const buffer = this.options.usage;
    buffer?.add(organizationId, limits.month, engine, usage);
    // What must be written with the call: the new translations, and the counters when nothing batches them —
    // then all in one transaction (one commit, not three).
    if ((this.options.cacheDays > 0 && fresh.size > 0) || !buffer) {
      await inOneTransaction(db, async (q) => {
        if (this.options.cacheDays > 0 && fresh.size > 0) {
          await repo.cacheTranslations(
            q,
            key,
            [...fresh].map(([hash, translation]) => ({ hash, translation })),
          );
        }
        if (!buffer) {
          await repo.addUsage(q, organizationId, slot.label, { ...usage, requests: 1 });
          await repo.addMonthUsage(q, organizationId, limits.month, engine, { ...usage, requests: 1 });
        }
      });
    }
    count(toSend.length > 0 ? 'ok' : 'cached');
    this.metrics?.characters.inc({ kind: slot.kind, source: 'sent' }, sent);
    this.metrics?.characters.inc({ kind: slot.kind, source: 'cache' }, fromCache);
    return {
      provider: slot.label,
      translations: hashes.map((h, i) => {
        const answer = fresh.get(h) ?? cached.get(h);
        return answer === undefined ? null : unmaskMt(texts[i], masks[i], answer);
      }),
      unavailable: null,
    };
  }

  /** One provider call under the timeout, with the retries and the pause the header describes. */
  private async call(
    slot: EngineSlot,
    provider: MtProvider,
    batch: string[],
    source: string,
    target: string,
    glossaryId: string | null,
  ): Promise<string[]> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    for (let attempt = 0; ; attempt++) {
      try {
        const answers = await provider.translate(
          batch,
          source,
          target,
          signal,
          glossaryId === null ? undefined : { glossaryId },
        );
        if (answers.length !== batch.length) {
          throw new MtFailure(
            'server',
            `${slot.label} answered ${answers.length} translations for ${batch.length}`,
          );
        }
        this.failuresInRow.delete(slot.pauseKey);
        this.pauses.delete(slot.pauseKey);
        return answers;
      } catch (err) {
        const failure =
          err instanceof MtFailure
            ? err
            : new MtFailure('server', signal.aborted ? `${slot.label} timed out` : (err as Error).message);
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
        if (failure.kind !== 'request') this.pause(slot, failure.kind, failure);
        throw signal.aborted && failure.kind === 'server'
          ? new MtFailure('server', `${slot.label} timed out after ${this.options.timeoutMs} ms`)
          : failure;
      }
    }
  }

  private pause(slot: EngineSlot, kind: Exclude<FailureKind, 'request'>, failure: MtFailure): void {
    const inRow = (this.failuresInRow.get(slot.pauseKey) ?? 0) + 1;
    this.failuresInRow.set(slot.pauseKey, inRow);
    let seconds: number;
    if (kind === 'auth') seconds = LONGEST_PAUSE_S;
    else if (kind === 'rate' && failure.retryAfter !== undefined) seconds = failure.retryAfter;
    else seconds = FIRST_PAUSE_S * 2 ** (inRow - 1);
    seconds = Math.min(seconds, LONGEST_PAUSE_S);
    const reason =
      kind === 'auth' ? 'refused credentials' : kind === 'rate' ? 'a rate limit' : 'a server failure';
    this.pauses.set(slot.pauseKey, { until: this.now() + seconds * 1000, seconds, reason });
    this.metrics?.pauses.inc({ kind: slot.kind, reason: kind });
  }

  /**
   * The id of the engine's glossary of this termbase, made or found (providers with glossaries: DeepL), or
   * null when the engine has none for the pair or could not make one — the terms are then protected.
   */
  private async glossaryIdFor(
    slot: EngineSlot,
    provider: MtProvider,
    termbase: MtTermbase,
    source: string,
    target: string,
  ): Promise<string | null> {
    if (!provider.glossaries || this.pausedReason(slot.pauseKey) !== null) return null;
    try {
      return await provider.glossaries.glossaryFor(
        {
          // An organization's engine by its id (an edit of its row keeps its glossaries), a default by name.
          scope: `${slot.engineId === 0 ? slot.pauseKey : `engine${slot.engineId}`}:m${termbase.memoryId}`,
          hash: termbase.hash,
          entries: termbase.entries,
        },
        source,
        target,
        AbortSignal.timeout(this.options.timeoutMs),
      );
    } catch {
      // A glossary that cannot be made now is not worth failing the translation for: terms are protected.
      return null;
    }
  }

  /** Writes the usage counted so far (usage-buffer.ts): what the usage answers read first. */
  async flushUsage(): Promise<void> {
    await this.options.usage?.flush();
  }

  /** Removes expired cache entries (a sweep of the instance keeper). */
  async sweepCache(db: Queryable): Promise<number> {
    if (this.options.cacheDays <= 0) return 0;
    return repo.deleteExpiredCache(db, Math.floor(this.now() / 1000) - this.options.cacheDays * 86_400);
  }
}

/**
 * The organization's monthly limits for one translate call: its overall limit and the month's usage, read
 * once when the first engine is about to be sent something. Counted against: characters sent (the cache's
 * answers cost nothing). Several processes may pass the check at once; the limit is then overrun by at most
 * their batches, which is what a soft cap on a bill can bear.
 */
class MonthLimits {
  private limitRead: Promise<number | null> | undefined;
  private usageRead: Promise<{ used: Map<number, number>; total: number }> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly organizationId: number,
    readonly month: string,
    private readonly buffer?: UsageBuffer,
  ) {}

  private async readUsage() {
    // The counts this process has not written yet count too — unless the call runs in a caller's transaction,
    // whose write lock the flush would wait for: then they count from their flush, within a second.
    if ('transaction' in this.db) await this.buffer?.flush();
    const rows = await repo.monthUsageOf(this.db, this.organizationId, this.month);
    const used = new Map<number, number>();
    let total = 0;
    for (const r of rows) {
      used.set(r.engine_id, (used.get(r.engine_id) ?? 0) + r.characters);
      total += r.characters;
    }
    return { used, total };
  }

  /** Why sending `characters` more to the engine is refused, or null; `organization` ends the search. */
  async refusal(
    slot: EngineSlot,
    characters: number,
  ): Promise<{ reason: string; organization: boolean } | null> {
    const limit = await (this.limitRead ??= organizationLimit(this.db, this.organizationId));
    // Without a limit to hold the month's usage against, it is not read.
    if (limit === null && slot.monthlyLimit === null) return null;
    const { used, total } = await (this.usageRead ??= this.readUsage());
    if (limit !== null && total + characters > limit) {
      return {
        reason: `the organization's machine translation limit of ${limit} characters this month is reached (${total} used)`,
        organization: true,
      };
    }
    const own = used.get(slot.engineId) ?? 0;
    if (slot.monthlyLimit !== null && own + characters > slot.monthlyLimit) {
      return {
        reason: `${slot.label}'s limit of ${slot.monthlyLimit} characters this month is reached (${own} used)`,
        organization: false,
      };
    }
    return null;
  }
}
