// Google Cloud Translation (Advanced, v3) through its official SDK, @google-cloud/translate's
// TranslationServiceClient, in its HTTP/JSON mode (`fallback: true`): POST
// {endpoint}/v3/projects/{project}/locations/{location}:translateText with {contents, mimeType,
// sourceLanguageCode, targetLanguageCode}, answered {translations: [{translatedText}]}; GET
// …/supportedLanguages answers {languages: [{languageCode, supportSource, supportTarget}]}. The SDK takes the
// endpoint's host, port and protocol, so an operator's proxy (or a test's loopback server) is reachable.
//
// - Credentials, three ways: a service account key (the JSON file's content) — the SDK signs its own
//   short-lived tokens with it (self-signed JWTs, so no call to Google's token server); an OAuth access
//   token (`ya29.…`, e.g. from `gcloud auth print-access-token`) sent as `Authorization: Bearer` as it is
//   — it expires, so this is for trials and token-issuing proxies; or nothing, for Application Default
//   Credentials (Tessera running on Google Cloud). The tests use both a token and a key (checking the
//   JWT's signature).
// - Markup: mimeType text/html, which Google keeps as markup. An HTML serializer may write the masking's
//   empty elements as `<x1></x1>`; they are read back as `<x1/>`.
// - Batches: at most 1,024 texts and 30,000 code points a request (Google's documented limits).
// - Languages: Google names Chinese by region (zh-CN, zh-TW) and European Portuguese pt-PT; other regional
//   tags are sent as their language.
// - Failures: the HTTP status (and Retry-After) of Google's answer, or the gRPC code the SDK maps it to;
//   the SDK's own retries are off.
import { v3 } from '@google-cloud/translate';
import { OAuth2Client } from 'google-auth-library';
import { type LanguagePair, MtFailure, type MtProvider } from '../provider.ts';
import { allPairs, failureOf, inBatches, normalTag, selfClosed, untilAborted } from './shared.ts';

const MAX_TEXTS = 1024;
const MAX_CHARS = 30_000;
const TRADITIONAL = new Set(['TW', 'HK', 'MO']);
/** gRPC status codes the SDK may give instead of an HTTP status. */
const GRPC_KIND: Record<number, 'rate' | 'auth' | 'server'> = {
  8: 'rate', // RESOURCE_EXHAUSTED
  7: 'auth', // PERMISSION_DENIED
  16: 'auth', // UNAUTHENTICATED
  2: 'server', // UNKNOWN
  4: 'server', // DEADLINE_EXCEEDED
  13: 'server', // INTERNAL
  14: 'server', // UNAVAILABLE
};

/** Google's code for a BCP-47 tag. */
export function googleCode(tag: string): string {
  const [lang, ...rest] = normalTag(tag).split('-');
  const script = rest.find((p) => p.length === 4);
  const region = rest.find((p) => p.length === 2);
  if (lang === 'zh') {
    return script === 'Hant' || (region && TRADITIONAL.has(region) && script !== 'Hans') ? 'zh-TW' : 'zh-CN';
  }
  if (lang === 'pt' && region === 'PT') return 'pt-PT';
  if (lang === 'fr' && region === 'CA') return 'fr-CA';
  return lang;
}

function headerOf(headers: unknown, name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
}

/** The MtFailure of an error the SDK threw. */
export function googleFailure(err: unknown): MtFailure {
  if (err instanceof MtFailure) return err;
  const e = err as { status?: unknown; code?: unknown; message?: string; response?: { headers?: unknown } };
  const message = `Google Translate: ${e.message ?? String(err)}`.slice(0, 300);
  if (typeof e.status === 'number') {
    const failure = failureOf(e.status, headerOf(e.response?.headers, 'retry-after'), 'Google Translate');
    if (failure) return failure;
  }
  if (typeof e.code === 'number' && e.code < 100) {
    return new MtFailure(GRPC_KIND[e.code] ?? 'request', message);
  }
  // No status at all: the server was not reached (ECONNREFUSED, a reset, a DNS failure).
  return new MtFailure('server', message);
}

export interface GoogleSettings {
  projectId: string;
  /** A region (us-central1) or `global`, the default. */
  location?: string;
  /** A service account key's JSON, an OAuth access token, or empty for Application Default Credentials. */
  credentials?: string;
  /** The API's address; https://translate.googleapis.com by default. */
  endpoint?: string;
}

export class GoogleProvider implements MtProvider {
  readonly name = 'google';
  private readonly client: v3.TranslationServiceClient;
  private readonly parent: string;

  constructor(settings: GoogleSettings) {
    const endpoint = new URL(settings.endpoint || 'https://translate.googleapis.com');
    const credentials = settings.credentials?.trim() ?? '';
    const auth: Record<string, unknown> = {};
    if (credentials.startsWith('{')) {
      try {
        auth.credentials = JSON.parse(credentials);
      } catch {
        // JSON.parse's message may quote the text: a key's, never to be logged.
        throw new Error('Google credentials: not a service account key (invalid JSON)');
      }
    } else if (credentials) {
      const client = new OAuth2Client();
      client.setCredentials({ access_token: credentials });
      auth.authClient = client;
    }
    this.client = new v3.TranslationServiceClient({
      fallback: true,
      apiEndpoint: endpoint.hostname,
      port: endpoint.port ? Number(endpoint.port) : endpoint.protocol === 'http:' ? 80 : 443,
      protocol: endpoint.protocol.replace(':', ''),
      projectId: settings.projectId,
      ...auth,
    } as ConstructorParameters<typeof v3.TranslationServiceClient>[0]);
    this.parent = `projects/${settings.projectId}/locations/${settings.location || 'global'}`;
  }

  async translate(batch: string[], source: string, target: string, signal: AbortSignal): Promise<string[]> {
    return inBatches(
      batch,
      MAX_TEXTS,
      MAX_CHARS,
      async (contents) => {
        try {
          const [answer] = await untilAborted(
            this.client.translateText(
              {
                parent: this.parent,
                contents,
                mimeType: 'text/html',
                sourceLanguageCode: googleCode(source),
                targetLanguageCode: googleCode(target),
              },
              { maxRetries: 0 },
            ),
            signal,
            'Google Translate',
          );
          return (answer.translations ?? []).map((t) => selfClosed(t.translatedText ?? ''));
        } catch (err) {
          throw googleFailure(err);
        }
      },
      'Google Translate',
    );
  }

  async languages(signal: AbortSignal): Promise<LanguagePair[]> {
    try {
      const [answer] = await untilAborted(
        this.client.getSupportedLanguages({ parent: this.parent }, { maxRetries: 0 }),
        signal,
        'Google Translate',
      );
      const languages = answer.languages ?? [];
      return allPairs(
        languages.filter((l) => l.supportSource && l.languageCode).map((l) => normalTag(l.languageCode!)),
        languages.filter((l) => l.supportTarget && l.languageCode).map((l) => normalTag(l.languageCode!)),
      );
    } catch (err) {
      throw googleFailure(err);
    }
  }
}
