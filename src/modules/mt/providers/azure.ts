// Azure Translator through its official SDK, @azure-rest/ai-translation-text, which takes the endpoint (by
// default https://api.cognitive.microsofttranslator.com, the global one; a resource's custom domain or a
// sovereign cloud's address otherwise). SDK 2.x speaks the Text Translation API version it was built for,
// 2026-06-06 (GA; its shapes are not v3.0's, as Microsoft's migration guide says): POST /translate with
// {inputs: [{text, language, textType, targets: [{language}]}]}, answered {value: [{translations:
// [{language, text}]}]}; GET /languages?scope=translation answers {translation: {code: {name, nativeName,
// dir}}}. The key goes in Ocp-Apim-Subscription-Key and, for a regional resource, its region in
// Ocp-Apim-Subscription-Region.
//
// - Markup: textType=html, which Azure keeps as markup around the words it translates (an empty element
//   written back as `<x1></x1>` is read as `<x1/>`).
// - Batches: at most 1,000 texts and 50,000 characters a request (Azure's documented limits).
// - Languages: Azure names Chinese by script (zh-Hans, zh-Hant), Brazilian Portuguese `pt` and European
//   `pt-PT`, Canadian French `fr-CA`; other regional tags are sent as their language.
// - Failures: the HTTP status and Retry-After of Azure's answer; the SDK's own retries are off.
import TextTranslationClient, {
  type TextTranslationClient as Client,
  isUnexpected,
} from '@azure-rest/ai-translation-text';
import { type LanguagePair, MtFailure, type MtProvider } from '../provider.ts';
import { allPairs, failureOf, inBatches, normalTag, selfClosed } from './shared.ts';

const MAX_TEXTS = 1000;
const MAX_CHARS = 50_000;
const VARIANTS = new Set([
  'pt-PT',
  'fr-CA',
  'zh-Hans',
  'zh-Hant',
  'sr-Cyrl',
  'sr-Latn',
  'mn-Cyrl',
  'mn-Mong',
  'iu-Latn',
]);
const TRADITIONAL = new Set(['TW', 'HK', 'MO']);

/** Azure's code for a BCP-47 tag. */
export function azureCode(tag: string): string {
  const normal = normalTag(tag);
  const [lang, ...rest] = normal.split('-');
  const script = rest.find((p) => p.length === 4);
  const region = rest.find((p) => p.length === 2);
  if (lang === 'zh') {
    return script === 'Hant' || (region && TRADITIONAL.has(region) && script !== 'Hans')
      ? 'zh-Hant'
      : 'zh-Hans';
  }
  if (lang === 'pt') return region === 'PT' ? 'pt-PT' : 'pt';
  if (lang === 'no') return 'nb';
  const scripted = script ? `${lang}-${script}` : undefined;
  if (VARIANTS.has(normal)) return normal;
  if (region && VARIANTS.has(`${lang}-${region}`)) return `${lang}-${region}`;
  if (scripted && VARIANTS.has(scripted)) return scripted;
  return lang;
}

export interface AzureSettings {
  key: string;
  /** The resource's region (e.g. westeurope); empty for a global resource. */
  region?: string;
  /** The API's address; Azure's global endpoint by default. */
  endpoint?: string;
}

export class AzureProvider implements MtProvider {
  readonly name = 'azure';
  private readonly client: Client;

  constructor(settings: AzureSettings) {
    const endpoint = settings.endpoint || 'https://api.cognitive.microsofttranslator.com';
    const credential = settings.region
      ? { key: settings.key, region: settings.region }
      : { key: settings.key };
    this.client = TextTranslationClient(endpoint, credential, {
      retryOptions: { maxRetries: 0 },
      // Only for an http:// address an operator chose (a local proxy or a test's loopback server).
      allowInsecureConnection: endpoint.startsWith('http:'),
    });
    if (!settings.region) {
      // The SDK sends the region header whatever the credential; a global resource takes none.
      this.client.pipeline.addPolicy({
        name: 'tesseraNoRegion',
        sendRequest: (request, next) => {
          request.headers.delete('Ocp-Apim-Subscription-Region');
          return next(request);
        },
      });
    }
  }

  /** Runs one SDK request, turning a thrown network error into a `server` failure. */
  private async call<T>(request: () => PromiseLike<T>, signal: AbortSignal): Promise<T> {
    try {
      return await request();
    } catch (err) {
      if (err instanceof MtFailure) throw err;
      throw new MtFailure(
        'server',
        signal.aborted
          ? 'Azure Translator timed out'
          : `Azure Translator did not answer: ${(err as Error).message}`,
      );
    }
  }

  async translate(batch: string[], source: string, target: string, signal: AbortSignal): Promise<string[]> {
    const from = azureCode(source);
    const to = azureCode(target);
    return inBatches(
      batch,
      MAX_TEXTS,
      MAX_CHARS,
      async (texts) => {
        const res = await this.call(
          () =>
            this.client.path('/translate').post({
              body: {
                inputs: texts.map((text) => ({
                  text,
                  language: from,
                  textType: 'html',
                  targets: [{ language: to }],
                })),
              },
              abortSignal: signal,
            }),
          signal,
        );
        if (isUnexpected(res)) {
          const failure = failureOf(Number(res.status), res.headers['retry-after'], 'Azure Translator');
          throw failure ?? new MtFailure('server', `Azure Translator answered ${res.status}`);
        }
        return res.body.value.map((item) => {
          const text = item.translations[0]?.text;
          if (text === undefined) throw new MtFailure('server', 'Azure Translator answered no translation');
          return selfClosed(text);
        });
      },
      'Azure Translator',
    );
  }

  async languages(signal: AbortSignal): Promise<LanguagePair[]> {
    const res = await this.call(
      () =>
        this.client
          .path('/languages')
          .get({ queryParameters: { scope: 'translation' }, abortSignal: signal }),
      signal,
    );
    if (isUnexpected(res)) {
      throw (
        failureOf(Number(res.status), res.headers['retry-after'], 'Azure Translator') ??
        new MtFailure('server', `Azure Translator answered ${res.status}`)
      );
    }
    const codes = Object.keys(res.body.translation ?? {});
    return allPairs(codes, codes);
  }
}
