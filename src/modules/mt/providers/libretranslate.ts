// LibreTranslate (https://libretranslate.com/docs/) with fetch: it has no official JavaScript SDK. POST
// {url}/translate with JSON {q, source, target, format, api_key}; q may be a list, answered
// {translatedText: [...]}. GET {url}/languages answers [{code, name, targets}]. Errors come as {error} with
// the HTTP status: 400 a bad request, 403 a wrong or missing key (or a banned client), 429 a rate limit,
// 500 a failure.
//
// - Markup: format html, under which LibreTranslate translates the text between tags and keeps the tags;
//   its HTML parser writes the masking's empty elements as `<x1></x1>`, read back as `<x1/>`.
// - Batches: 25 texts and 5,000 characters a request — a server sets its own batch and character limits
//   (LT_BATCH_LIMIT, LT_CHAR_LIMIT), and these fit small ones.
// - Languages: LibreTranslate uses bare languages, plus zh-Hant and pt-BR on recent servers (`zh` names
//   Simplified Chinese).
// - The key is optional: a self-hosted server usually runs without keys.
import type { LanguagePair, MtProvider } from '../provider.ts';
import { inBatches, normalTag, requestJson, selfClosed, withSlash } from './shared.ts';

const MAX_TEXTS = 25;
const MAX_CHARS = 5_000;
const TRADITIONAL = new Set(['TW', 'HK', 'MO']);

/** LibreTranslate's code for a BCP-47 tag. */
export function libretranslateCode(tag: string): string {
  const [lang, ...rest] = normalTag(tag).split('-');
  const script = rest.find((p) => p.length === 4);
  const region = rest.find((p) => p.length === 2);
  if (lang === 'zh') {
    return script === 'Hant' || (region && TRADITIONAL.has(region) && script !== 'Hans') ? 'zh-Hant' : 'zh';
  }
  if (lang === 'pt' && region === 'BR') return 'pt-BR';
  return lang;
}

export interface LibretranslateSettings {
  url: string;
  key?: string;
}

export class LibretranslateProvider implements MtProvider {
  readonly name = 'libretranslate';
  private readonly base: string;
  private readonly key: string | undefined;

  constructor(settings: LibretranslateSettings) {
    this.base = withSlash(settings.url);
    this.key = settings.key || undefined;
  }

  async translate(batch: string[], source: string, target: string, signal: AbortSignal): Promise<string[]> {
    const fields = {
      source: libretranslateCode(source),
      target: libretranslateCode(target),
      format: 'html',
      ...(this.key ? { api_key: this.key } : {}),
    };
    return inBatches(
      batch,
      MAX_TEXTS,
      MAX_CHARS,
      async (q) => {
        const answer = await requestJson<{ translatedText: string[] | string }>(
          new URL('translate', this.base),
          { method: 'POST', body: { q, ...fields } },
          signal,
          'LibreTranslate',
        );
        const texts = Array.isArray(answer.translatedText) ? answer.translatedText : [answer.translatedText];
        return texts.map(selfClosed);
      },
      'LibreTranslate',
    );
  }

  async languages(signal: AbortSignal): Promise<LanguagePair[]> {
    const languages = await requestJson<{ code: string; targets?: string[] }[]>(
      new URL('languages', this.base),
      { method: 'GET' },
      signal,
      'LibreTranslate',
    );
    const all = languages.map((l) => l.code);
    return languages.flatMap((l) =>
      (l.targets ?? all)
        .filter((t) => t !== l.code)
        .map((t) => ({ source: normalTag(l.code), target: normalTag(t) })),
    );
  }
}
