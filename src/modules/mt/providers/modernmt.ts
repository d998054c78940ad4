// ModernMT (https://www.modernmt.com/api/) with fetch: its official SDK (`modernmt`) has the host
// api.modernmt.com written into it and cannot be pointed at another address. The request is the one the
// SDK makes, as ModernMT's API reference recommends: POST /translate with `X-HTTP-Method-Override: GET`,
// the key in `MMT-ApiKey`, and JSON {source, target, q, format}; q may be a list, answered
// {status: 200, data: [{translation, …}]}. GET /translate/languages answers {status: 200, data: [codes]}.
// Errors come as {status, error: {type, message}} with the same HTTP status.
//
// - Markup: format text/xml — the masking's text is XML-escaped and its elements are XML (`<x1/>` is an
//   empty element in XML, not in HTML), which ModernMT keeps as tags and projects onto its translation.
// - Batches: at most 128 texts a request (ModernMT's documented limit) and 10,000 characters.
// - Languages: ModernMT names Chinese by region (zh-CN, zh-TW) and keeps pt-BR/pt-PT and es-419; other
//   regional tags are sent as their language.
// - Failures: 429 `rate` with its Retry-After; 402 (the plan's quota used up) `rate` for 30 minutes; 401/403
//   `auth`; 5xx and network errors `server`.
import { failureOfStatus, type LanguagePair, MtFailure, type MtProvider } from '../provider.ts';
import { allPairs, inBatches, normalTag, requestJson, withSlash } from './shared.ts';

const MAX_TEXTS = 128;
const MAX_CHARS = 10_000;
const QUOTA_PAUSE_S = 30 * 60;
const TRADITIONAL = new Set(['TW', 'HK', 'MO']);
const KEPT = new Set(['pt-BR', 'pt-PT', 'es-419']);

/** ModernMT's code for a BCP-47 tag. */
export function modernmtCode(tag: string): string {
  const [lang, ...rest] = normalTag(tag).split('-');
  const script = rest.find((p) => p.length === 4);
  const region = rest.find((p) => p.length === 2 || /^\d{3}$/.test(p));
  if (lang === 'zh') {
    return script === 'Hant' || (region && TRADITIONAL.has(region) && script !== 'Hans') ? 'zh-TW' : 'zh-CN';
  }
  if (region && KEPT.has(`${lang}-${region}`)) return `${lang}-${region}`;
  return lang;
}

interface Answer<T> {
  status: number;
  data: T;
}

export interface ModernmtSettings {
  key: string;
  /** The API's address; https://api.modernmt.com by default. */
  endpoint?: string;
}

export class ModernmtProvider implements MtProvider {
  readonly name = 'modernmt';
  private readonly base: string;
  private readonly key: string;

  constructor(settings: ModernmtSettings) {
    this.base = withSlash(settings.endpoint || 'https://api.modernmt.com');
    this.key = settings.key;
  }

  private async call<T>(method: 'GET', path: string, body: unknown, signal: AbortSignal): Promise<T> {
    try {
      const answer = await requestJson<Answer<T>>(
        new URL(path, this.base),
        {
          method: 'POST',
          headers: {
            'X-HTTP-Method-Override': method,
            'MMT-ApiKey': this.key,
            'MMT-Platform': 'tessera',
          },
          body,
        },
        signal,
        'ModernMT',
      );
      // The status is repeated in the body; a proxy may answer 200 around an error.
      const failure = failureOfStatus(answer.status ?? 200, null, 'ModernMT');
      if (failure) throw failure;
      return answer.data;
    } catch (err) {
      if (err instanceof MtFailure && /\(402\)/.test(err.message)) {
        throw new MtFailure('rate', 'ModernMT: the plan’s quota is used up (402)', QUOTA_PAUSE_S);
      }
      throw err;
    }
  }

  async translate(batch: string[], source: string, target: string, signal: AbortSignal): Promise<string[]> {
    const body = { source: modernmtCode(source), target: modernmtCode(target), format: 'text/xml' };
    return inBatches(
      batch,
      MAX_TEXTS,
      MAX_CHARS,
      async (q) => {
        const data = await this.call<{ translation: string }[]>('GET', 'translate', { ...body, q }, signal);
        if (!Array.isArray(data)) throw new MtFailure('server', 'ModernMT answered no list of translations');
        return data.map((d) => d.translation);
      },
      'ModernMT',
    );
  }

  async languages(signal: AbortSignal): Promise<LanguagePair[]> {
    const codes = (await this.call<string[]>('GET', 'translate/languages', undefined, signal)).map(normalTag);
    return allPairs(codes, codes);
  }
}
