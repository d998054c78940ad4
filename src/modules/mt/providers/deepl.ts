// DeepL (https://developers.deepl.com/docs/api-reference/translate) through its official SDK, deepl-node,
// which takes the server's address (serverUrl; without one it picks api-free.deepl.com for a key ending in
// ':fx', else api.deepl.com). It posts /v2/translate with the key in `Authorization: DeepL-Auth-Key …`.
//
// - Markup: tag_handling=xml, so the masking's <gN>…</gN> and <xN/> are kept as XML (DeepL moves a pair
//   with the words it wraps and answers the text's entities as it was sent).
// - Batches: DeepL takes at most 50 texts and 128 KiB a request; batches stay under 50 texts and 30,000
//   characters (four UTF-8 bytes a character at most).
// - Languages: a source is a bare language (EN, PT, ZH); a target names its variant where DeepL has them
//   (EN-US/EN-GB, PT-PT/PT-BR, ZH-HANS/ZH-HANT, ES-419): `en` and `en-US` → EN-US, `en-GB` and the
//   Commonwealth's → EN-GB, `pt` → PT-PT, `zh`/`zh-CN` → ZH-HANS, `zh-TW`/`zh-Hant` → ZH-HANT.
// - Formality: DeepL's prefer_more/prefer_less, which it ignores for a language without formality rather than
//   refusing the request.
// - Glossaries (a memory's termbase, mt/termbase.ts): DeepL's v2 glossaries, one per engine, memory and
//   pair, named `tessera:<engine>:m<memory>:<src>-<trg>:<entries hash>`. DeepL's glossaries cannot be edited,
//   so a changed termbase (another hash) gets a new glossary and the scope's others are deleted. Which pairs
//   DeepL keeps glossaries for is asked (GET /v2/glossary-language-pairs, an hour); a glossary's languages are
//   bare (`en`, `es`: a variant target uses its language's glossary). Ids found or made are kept in process; a
//   process that starts finds its glossaries by listing them (GET /v2/glossaries) rather than making more.
// - Failures: the SDK answers typed errors without the HTTP headers, so a 429 is `rate` without a
//   Retry-After (DeepL documents none: back off). 456 (the billing period's quota is used up) is `rate` with
//   30 minutes: no retry within the call can help. The SDK's own retries are off (the engine's apply).
import * as deepl from 'deepl-node';
import {
  type GlossaryRequest,
  type LanguagePair,
  MtFailure,
  type MtProvider,
  type ProviderGlossaries,
} from '../provider.ts';
import { allPairs, inBatches, normalTag, untilAborted } from './shared.ts';

const MAX_TEXTS = 50;
const MAX_CHARS = 30_000;
const QUOTA_PAUSE_S = 30 * 60;
const GLOSSARY_PAIRS_TTL_MS = 60 * 60_000;
const COMMONWEALTH = new Set(['GB', 'UK', 'AU', 'NZ', 'IE', 'ZA', 'IN', 'SG', 'HK', 'MT']);
const TRADITIONAL = new Set(['TW', 'HK', 'MO']);
const LATIN_AMERICA = new Set([
  '419',
  'MX',
  'AR',
  'CO',
  'CL',
  'PE',
  'VE',
  'EC',
  'GT',
  'CU',
  'BO',
  'UY',
  'US',
]);

/** DeepL's source code for a BCP-47 tag: the language alone. */
export function deeplSource(tag: string): deepl.SourceLanguageCode {
  return normalTag(tag).split('-')[0] as deepl.SourceLanguageCode;
}

/** DeepL's target code for a BCP-47 tag, with the variant DeepL needs. */
export function deeplTarget(tag: string): deepl.TargetLanguageCode {
  const [lang, ...rest] = normalTag(tag).split('-');
  const region = rest.find((p) => p.length === 2 || /^\d{3}$/.test(p));
  const script = rest.find((p) => p.length === 4);
  switch (lang) {
    case 'en':
      return region && COMMONWEALTH.has(region) ? 'en-GB' : 'en-US';
    case 'pt':
      return region === 'BR' ? 'pt-BR' : 'pt-PT';
    case 'zh':
      return script === 'Hant' || (region && TRADITIONAL.has(region) && script !== 'Hans')
        ? ('zh-HANT' as deepl.TargetLanguageCode)
        : ('zh-HANS' as deepl.TargetLanguageCode);
    case 'es':
      return region && LATIN_AMERICA.has(region) ? ('es-419' as deepl.TargetLanguageCode) : 'es';
    default:
      return lang as deepl.TargetLanguageCode;
  }
}

/** The MtFailure of a deepl-node error. */
export function deeplFailure(err: unknown): MtFailure {
  if (err instanceof MtFailure) return err;
  const message = `DeepL: ${(err as Error).message}`;
  if (err instanceof deepl.TooManyRequestsError) return new MtFailure('rate', message);
  if (err instanceof deepl.QuotaExceededError) return new MtFailure('rate', message, QUOTA_PAUSE_S);
  if (err instanceof deepl.AuthorizationError) return new MtFailure('auth', message);
  if (err instanceof deepl.ConnectionError) return new MtFailure('server', message);
  if (err instanceof deepl.ArgumentError) return new MtFailure('request', message);
  if (err instanceof deepl.DeepLError) {
    // Other statuses come as "Unexpected status code: 502 Bad Gateway…" or "Service unavailable…" (503).
    const status = Number(/status code: (\d{3})/.exec(err.message)?.[1] ?? 0);
    if (status === 401) return new MtFailure('auth', message);
    if (status >= 500 || err.message.startsWith('Service unavailable'))
      return new MtFailure('server', message);
    return new MtFailure('request', message);
  }
  return new MtFailure('server', message);
}

export interface DeeplSettings {
  key: string;
  /** The API's address; by default chosen by the SDK from the key. */
  serverUrl?: string;
  /** `more` or `less`, when the organization wants one. */
  formality?: string;
}

/** A glossary's language: DeepL's glossaries are between bare languages. */
function glossaryLanguage(tag: string): string {
  return normalTag(tag).split('-')[0].toLowerCase();
}

/** The DeepL glossaries of one account: found or made per termbase hash, the stale ones deleted. */
class DeeplGlossaries implements ProviderGlossaries {
  private pairs: { at: number; pairs: Set<string> } | undefined;
  private readonly ids = new Map<string, Promise<string>>();

  constructor(
    private readonly translator: deepl.Translator,
    private readonly now: () => number = Date.now,
  ) {}

  async glossaryFor(
    request: GlossaryRequest,
    source: string,
    target: string,
    signal: AbortSignal,
  ): Promise<string | null> {
    const src = glossaryLanguage(source);
    const trg = glossaryLanguage(target);
    if (request.entries.size === 0 || !(await this.supports(src, trg, signal))) return null;
    const prefix = `tessera:${request.scope}:${src}-${trg}:`;
    const name = `${prefix}${request.hash}`;
    let id = this.ids.get(name);
    if (!id) {
      // One request per name at once: concurrent translations of a memory share the glossary being made.
      id = this.findOrMake(name, prefix, src, trg, request.entries, signal);
      this.ids.set(name, id);
      id.catch(() => this.ids.delete(name));
    }
    return await id;
  }

  /** Forgets a glossary id (a translation with it failed: it may have been deleted on DeepL's side). */
  forget(glossaryId: string): void {
    for (const [name, id] of this.ids) {
      id.then(
        (value) => value === glossaryId && this.ids.delete(name),
        () => {},
      );
    }
  }

  private async supports(src: string, trg: string, signal: AbortSignal): Promise<boolean> {
    if (!this.pairs || this.now() - this.pairs.at > GLOSSARY_PAIRS_TTL_MS) {
      const listed = await untilAborted(this.translator.getGlossaryLanguagePairs(), signal, 'DeepL');
      this.pairs = {
        at: this.now(),
        pairs: new Set(listed.map((p) => `${p.sourceLang.toLowerCase()}-${p.targetLang.toLowerCase()}`)),
      };
    }
    return this.pairs.pairs.has(`${src}-${trg}`);
  }

  private async findOrMake(
    name: string,
    prefix: string,
    src: string,
    trg: string,
    entries: ReadonlyMap<string, string>,
    signal: AbortSignal,
  ): Promise<string> {
    const listed = await untilAborted(this.translator.listGlossaries(), signal, 'DeepL');
    let id = listed.find((g) => g.name === name)?.glossaryId;
    if (!id) {
      const made = await untilAborted(
        this.translator.createGlossary(
          name,
          src as deepl.LanguageCode,
          trg as deepl.LanguageCode,
          new deepl.GlossaryEntries({ entries: Object.fromEntries(entries) }),
        ),
        signal,
        'DeepL',
      );
      id = made.glossaryId;
    }
    // The termbase's earlier glossaries for this scope and pair are stale: deleted, so they do not pile up
    // against the account's glossary limit.
    for (const stale of listed.filter((g) => g.name.startsWith(prefix) && g.name !== name)) {
      await untilAborted(this.translator.deleteGlossary(stale.glossaryId), signal, 'DeepL').catch(() => {});
    }
    return id;
  }
}

export class DeeplProvider implements MtProvider {
  readonly name = 'deepl';
  private readonly translator: deepl.Translator;
  private readonly formality: deepl.Formality | undefined;
  readonly glossaries: DeeplGlossaries;

  constructor(settings: DeeplSettings) {
    this.translator = new deepl.Translator(settings.key, {
      serverUrl: settings.serverUrl || undefined,
      maxRetries: 0,
      minTimeout: 60_000,
      sendPlatformInfo: false,
    });
    const f = settings.formality?.trim().toLowerCase();
    this.formality = f === 'more' ? 'prefer_more' : f === 'less' ? 'prefer_less' : undefined;
    this.glossaries = new DeeplGlossaries(this.translator);
  }

  async translate(
    batch: string[],
    source: string,
    target: string,
    signal: AbortSignal,
    options: { glossaryId?: string } = {},
  ): Promise<string[]> {
    return inBatches(
      batch,
      MAX_TEXTS,
      MAX_CHARS,
      async (texts) => {
        try {
          const results = await untilAborted(
            this.translator.translateText(texts, deeplSource(source), deeplTarget(target), {
              tagHandling: 'xml',
              ...(this.formality ? { formality: this.formality } : {}),
              ...(options.glossaryId ? { glossary: options.glossaryId } : {}),
            }),
            signal,
            'DeepL',
          );
          return results.map((r) => r.text);
        } catch (err) {
          if (options.glossaryId) this.glossaries.forget(options.glossaryId);
          throw deeplFailure(err);
        }
      },
      'DeepL',
    );
  }

  async languages(signal: AbortSignal): Promise<LanguagePair[]> {
    try {
      const [sources, targets] = await untilAborted(
        Promise.all([this.translator.getSourceLanguages(), this.translator.getTargetLanguages()]),
        signal,
        'DeepL',
      );
      return allPairs(
        sources.map((l) => normalTag(l.code)),
        targets.map((l) => normalTag(l.code)),
      );
    } catch (err) {
      throw deeplFailure(err);
    }
  }
}
