// Apertium APy (https://wiki.apertium.org/wiki/Apertium-apy): a rule-based engine's HTTP server. It names
// languages by ISO 639-3 codes, a variant after an underscore (`eng`, `spa`, `eng_US`), and translates one
// text a request: GET /translate?langpair=eng|spa&q=…. Its html format keeps the masking's elements as
// markup (moving a pair with the words it wraps), and markUnknown=no leaves unknown words unmarked (APy
// writes `*word` otherwise).
import { threeLetterCode, twoLetterCode } from '../../../text/iso-639.ts';
import { failureOfStatus, type LanguagePair, MtFailure, type MtProvider } from '../provider.ts';
import { type GetAnswer, keepAliveGet } from './keep-alive-get.ts';

/** An APy code as a BCP-47 tag: `eng` → `en`, `eng_US` → `en-US`, `oci_aran` → `oc-aran`. */
export function tagOfApertium(code: string): string {
  const [lang, ...rest] = code.split('_');
  return [twoLetterCode(lang) ?? lang, ...rest].join('-');
}

/** The APy codes a BCP-47 tag may be served by, the most specific first: `en-US` → `eng_US`, `eng`. */
export function apertiumCodesOf(tag: string): string[] {
  const [lang, ...rest] = tag.split('-');
  const three = threeLetterCode(lang.toLowerCase()) ?? lang.toLowerCase();
  return rest.length > 0 ? [`${three}_${rest.join('_')}`, three] : [three];
}

interface ApyPairs {
  responseData: { sourceLanguage: string; targetLanguage: string }[];
}
interface ApyTranslation {
  responseData: { translatedText: string };
}

export class ApertiumProvider implements MtProvider {
  readonly name = 'apertium';
  private pairs: { at: number; codes: Set<string> } | undefined;

  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  private async get<T>(path: string, signal: AbortSignal): Promise<T> {
    let res: GetAnswer;
    try {
      res = await keepAliveGet(new URL(path, this.baseUrl), signal);
    } catch (err) {
      throw new MtFailure('server', `Apertium did not answer: ${(err as Error).message}`);
    }
    const failure = failureOfStatus(res.status, res.retryAfter, 'Apertium');
    if (failure) throw failure;
    try {
      return JSON.parse(res.body) as T;
    } catch {
      throw new MtFailure('server', `Apertium answered something other than JSON (${res.status})`);
    }
  }

  private async pairCodes(signal: AbortSignal): Promise<Set<string>> {
    // A server's pairs change when packages are installed: read again every five minutes.
    if (this.pairs && Date.now() - this.pairs.at < 300_000) return this.pairs.codes;
    const answer = await this.get<ApyPairs>('listPairs', signal);
    const codes = new Set(answer.responseData.map((p) => `${p.sourceLanguage}|${p.targetLanguage}`));
    this.pairs = { at: Date.now(), codes };
    return codes;
  }

  async languages(signal: AbortSignal): Promise<LanguagePair[]> {
    const codes = await this.pairCodes(signal);
    return [...codes].map((pair) => {
      const [s, t] = pair.split('|');
      return { source: tagOfApertium(s), target: tagOfApertium(t) };
    });
  }

  /** The installed APy pair for two tags, or null. */
  async pairFor(source: string, target: string, signal: AbortSignal): Promise<string | null> {
    const codes = await this.pairCodes(signal);
    for (const s of apertiumCodesOf(source)) {
      for (const t of apertiumCodesOf(target)) if (codes.has(`${s}|${t}`)) return `${s}|${t}`;
    }
    return null;
  }

  async translate(batch: string[], source: string, target: string, signal: AbortSignal): Promise<string[]> {
    const pair = await this.pairFor(source, target, signal);
    if (!pair) throw new MtFailure('request', `Apertium has no ${source}→${target} pair`);
    const out: string[] = [];
    for (const text of batch) {
      const q = new URLSearchParams({ langpair: pair, q: text, format: 'html', markUnknown: 'no' });
      const answer = await this.get<ApyTranslation>(`translate?${q}`, signal);
      out.push(answer.responseData.translatedText);
    }
    return out;
  }
}
