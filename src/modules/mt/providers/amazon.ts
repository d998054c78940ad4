// Amazon Translate through its official SDK, @aws-sdk/client-translate, which takes an endpoint (by default
// the region's, translate.{region}.amazonaws.com) and signs each request with Signature Version 4. Its wire
// format is AWS JSON 1.1: POST / with `X-Amz-Target: AWSShineFrontendService_20170701.TranslateText` and
// {Text, SourceLanguageCode, TargetLanguageCode}, answered {TranslatedText, …}; ListLanguages pages through
// {Languages: [{LanguageName, LanguageCode}], NextToken}.
//
// - Markup: TranslateText takes no text type: Amazon reads markup in the text as HTML elements and keeps
//   them (its do-not-translate guide translates HTML through TranslateText). TranslateDocument's
//   ContentType text/html would say so explicitly, but it takes one document a request and bills it as
//   such; TranslateText is Amazon's API for segments. An empty element written back as `<x1></x1>` is read
//   as `<x1/>`; an answer whose markup was lost is refused by the engine's check, never shown.
// - Batches: TranslateText takes one text (at most 10,000 bytes) a request; a batch is sent four requests
//   at a time, the answers kept in order.
// - Languages: Amazon names Traditional Chinese zh-TW, European Portuguese pt-PT, Canadian French fr-CA and
//   Mexican Spanish es-MX; other regional tags are sent as their language.
// - Failures by the exception's name, since Amazon answers most of them with 400: TooManyRequests,
//   Throttling and LimitExceeded are `rate` (Retry-After kept when sent), unrecognized or expired keys,
//   bad signatures and denied access `auth`, InternalServer and ServiceUnavailable `server`; a network
//   error `server`. The SDK's own retries are off (maxAttempts 1).
import {
  ListLanguagesCommand,
  TranslateClient,
  TranslateServiceException,
  TranslateTextCommand,
} from '@aws-sdk/client-translate';
import { type LanguagePair, MtFailure, type MtProvider } from '../provider.ts';
import { allPairs, eachLimited, normalTag, retryAfterSeconds, selfClosed } from './shared.ts';

const AT_ONCE = 4;
const TRADITIONAL = new Set(['TW', 'HK', 'MO']);
const RATE = new Set([
  'TooManyRequestsException',
  'ThrottlingException',
  'LimitExceededException',
  'Throttling',
]);
const AUTH = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'AccessDeniedException',
  'ExpiredTokenException',
  'IncompleteSignature',
  'MissingAuthenticationToken',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
]);
const SERVER = new Set(['InternalServerException', 'ServiceUnavailableException', 'InternalFailure']);

/** Amazon's code for a BCP-47 tag. */
export function amazonCode(tag: string): string {
  const [lang, ...rest] = normalTag(tag).split('-');
  const script = rest.find((p) => p.length === 4);
  const region = rest.find((p) => p.length === 2 || /^\d{3}$/.test(p));
  if (lang === 'zh') {
    return script === 'Hant' || (region && TRADITIONAL.has(region) && script !== 'Hans') ? 'zh-TW' : 'zh';
  }
  if (lang === 'pt' && region === 'PT') return 'pt-PT';
  if (lang === 'fr' && region === 'CA') return 'fr-CA';
  if (lang === 'es' && (region === 'MX' || region === '419')) return 'es-MX';
  return lang;
}

/** The MtFailure of an error the SDK threw. */
export function amazonFailure(err: unknown, signal: AbortSignal): MtFailure {
  if (err instanceof MtFailure) return err;
  const e = err as {
    name?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
    $response?: { headers?: Record<string, string> };
  };
  const message = `Amazon Translate: ${e.name ?? 'Error'}: ${e.message ?? ''}`.slice(0, 300);
  const status = e.$metadata?.httpStatusCode;
  const name = e.name ?? '';
  if (RATE.has(name) || status === 429) {
    return new MtFailure('rate', message, retryAfterSeconds(e.$response?.headers?.['retry-after']));
  }
  if (AUTH.has(name) || status === 401 || status === 403) return new MtFailure('auth', message);
  if (SERVER.has(name) || (status !== undefined && status >= 500)) return new MtFailure('server', message);
  if (err instanceof TranslateServiceException || status !== undefined)
    return new MtFailure('request', message);
  // No answer at all: the endpoint was not reached, or the caller's timeout aborted the request.
  return new MtFailure('server', signal.aborted ? 'Amazon Translate timed out' : message);
}

export interface AmazonSettings {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** The API's address; the region's by default. */
  endpoint?: string;
}

export class AmazonProvider implements MtProvider {
  readonly name = 'amazon';
  private readonly client: TranslateClient;

  constructor(settings: AmazonSettings) {
    this.client = new TranslateClient({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      maxAttempts: 1,
    });
  }

  async translate(batch: string[], source: string, target: string, signal: AbortSignal): Promise<string[]> {
    const from = amazonCode(source);
    const to = amazonCode(target);
    return eachLimited(batch, AT_ONCE, async (text) => {
      try {
        const answer = await this.client.send(
          new TranslateTextCommand({ Text: text, SourceLanguageCode: from, TargetLanguageCode: to }),
          { abortSignal: signal },
        );
        if (answer.TranslatedText === undefined)
          throw new MtFailure('server', 'Amazon Translate answered no text');
        return selfClosed(answer.TranslatedText);
      } catch (err) {
        throw amazonFailure(err, signal);
      }
    });
  }

  async languages(signal: AbortSignal): Promise<LanguagePair[]> {
    const codes: string[] = [];
    let next: string | undefined;
    try {
      do {
        const page = await this.client.send(new ListLanguagesCommand({ MaxResults: 500, NextToken: next }), {
          abortSignal: signal,
        });
        for (const l of page.Languages ?? [])
          if (l.LanguageCode && l.LanguageCode !== 'auto') codes.push(normalTag(l.LanguageCode));
        next = page.NextToken;
      } while (next);
    } catch (err) {
      throw amazonFailure(err, signal);
    }
    return allPairs(codes, codes);
  }
}
