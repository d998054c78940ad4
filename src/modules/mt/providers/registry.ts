// Every kind of machine translation engine Tessera can call, and what an administrator fills in to add one.
// An organization's engines (and the operator's default) are made here from their stored settings; the
// Admin screen builds its form from FIELDS, so a new kind is one entry here and one provider file.
import {
  type GlossaryRequest,
  type LanguagePair,
  MtFailure,
  type MtProvider,
  type ProviderGlossaries,
} from '../provider.ts';
import { ApertiumProvider } from './apertium.ts';

export const PROVIDER_KINDS = [
  'apertium',
  'deepl',
  'google',
  'azure',
  'amazon',
  'modernmt',
  'libretranslate',
  'openai',
] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** One setting of an engine as the Admin form asks for it. A `secret` is stored, never answered or logged. */
export interface ProviderField {
  name: string;
  label: string;
  /** What to enter, shown under the field. */
  help: string;
  required: boolean;
  secret: boolean;
}

export interface ProviderKindInfo {
  kind: ProviderKind;
  /** The engine's name as people know it ("DeepL", "Azure Translator"). */
  label: string;
  fields: ProviderField[];
}

export const KINDS: Record<ProviderKind, ProviderKindInfo> = {
  apertium: {
    kind: 'apertium',
    label: 'Apertium',
    fields: [
      {
        name: 'url',
        label: 'Server address',
        help: 'The address of an apertium-apy server, e.g. http://127.0.0.1:2737',
        required: true,
        secret: false,
      },
    ],
  },
  deepl: {
    kind: 'deepl',
    label: 'DeepL',
    fields: [
      {
        name: 'key',
        label: 'Authentication key',
        help: 'The DeepL API authentication key from your DeepL account (a Free key ends in :fx)',
        required: true,
        secret: true,
      },
      {
        name: 'serverUrl',
        label: 'Server address',
        help: 'Leave empty for DeepL’s own: https://api-free.deepl.com for a key ending in :fx, else https://api.deepl.com',
        required: false,
        secret: false,
      },
      {
        name: 'formality',
        label: 'Formality',
        help: '“more” or “less” for a formal or informal tone where the target language has one; empty for DeepL’s default',
        required: false,
        secret: false,
      },
    ],
  },
  google: {
    kind: 'google',
    label: 'Google Cloud Translation',
    fields: [
      {
        name: 'projectId',
        label: 'Project ID',
        help: 'The Google Cloud project with the Cloud Translation API enabled',
        required: true,
        secret: false,
      },
      {
        name: 'location',
        label: 'Location',
        help: 'global (the default) or a region such as us-central1',
        required: false,
        secret: false,
      },
      {
        name: 'credentials',
        label: 'Credentials',
        help: 'A service account key (the JSON file’s content) or an OAuth access token; empty to use the server’s Application Default Credentials',
        required: false,
        secret: true,
      },
      {
        name: 'endpoint',
        label: 'Endpoint',
        help: 'Leave empty for https://translate.googleapis.com',
        required: false,
        secret: false,
      },
    ],
  },
  azure: {
    kind: 'azure',
    label: 'Azure Translator',
    fields: [
      {
        name: 'key',
        label: 'Key',
        help: 'A key of your Translator resource (Azure portal → the resource → Keys and Endpoint)',
        required: true,
        secret: true,
      },
      {
        name: 'region',
        label: 'Region',
        help: 'The resource’s location, e.g. westeurope; leave empty for a global resource',
        required: false,
        secret: false,
      },
      {
        name: 'endpoint',
        label: 'Endpoint',
        help: 'Leave empty for https://api.cognitive.microsofttranslator.com; else your resource’s or cloud’s text translation endpoint',
        required: false,
        secret: false,
      },
    ],
  },
  amazon: {
    kind: 'amazon',
    label: 'Amazon Translate',
    fields: [
      {
        name: 'accessKeyId',
        label: 'Access key ID',
        help: 'The access key ID of an IAM user or role allowed translate:TranslateText and translate:ListLanguages',
        required: true,
        secret: false,
      },
      {
        name: 'secretAccessKey',
        label: 'Secret access key',
        help: 'The secret access key that goes with the access key ID',
        required: true,
        secret: true,
      },
      {
        name: 'region',
        label: 'Region',
        help: 'The AWS region to translate in, e.g. eu-west-1',
        required: true,
        secret: false,
      },
      {
        name: 'endpoint',
        label: 'Endpoint',
        help: 'Leave empty for the region’s endpoint (https://translate.REGION.amazonaws.com)',
        required: false,
        secret: false,
      },
    ],
  },
  modernmt: {
    kind: 'modernmt',
    label: 'ModernMT',
    fields: [
      {
        name: 'key',
        label: 'API key',
        help: 'Your ModernMT API key (ModernMT account → API)',
        required: true,
        secret: true,
      },
      {
        name: 'endpoint',
        label: 'Endpoint',
        help: 'Leave empty for https://api.modernmt.com',
        required: false,
        secret: false,
      },
    ],
  },
  libretranslate: {
    kind: 'libretranslate',
    label: 'LibreTranslate',
    fields: [
      {
        name: 'url',
        label: 'Server address',
        help: 'The address of a LibreTranslate server, e.g. http://127.0.0.1:5000 or https://libretranslate.com',
        required: true,
        secret: false,
      },
      {
        name: 'key',
        label: 'API key',
        help: 'The server’s API key, when it requires one (libretranslate.com does; a self-hosted server usually not)',
        required: false,
        secret: true,
      },
    ],
  },
  openai: {
    kind: 'openai',
    label: 'OpenAI-compatible chat model',
    fields: [
      {
        name: 'baseUrl',
        label: 'Base URL',
        help: 'The API’s base address, usually ending in /v1: https://api.openai.com/v1, or a local server’s such as http://127.0.0.1:8080/v1 (llama.cpp) or http://127.0.0.1:11434/v1 (Ollama)',
        required: true,
        secret: false,
      },
      {
        name: 'key',
        label: 'API key',
        help: 'The server’s API key; empty for a local server without keys',
        required: false,
        secret: true,
      },
      {
        name: 'model',
        label: 'Model',
        help: 'The chat model to translate with, as the server names it (e.g. gpt-4o-mini, qwen2.5:7b)',
        required: true,
        secret: false,
      },
    ],
  },
};

/** An engine's stored settings: field name → value (secrets included; never sent back to a client). */
export type ProviderSettings = Record<string, string>;

/**
 * An engine made on first use: the SDKs (Google's, Amazon's and Azure's above all) take seconds to load,
 * and a server that has no such engine configured should not pay for them at start. Settings that cannot
 * make an engine (a service account key that is not JSON) fail every call as refused credentials — no
 * retry can help — with a message that quotes none of them.
 */
class LazyProvider implements MtProvider {
  private made: Promise<MtProvider> | undefined;

  constructor(
    readonly name: string,
    private readonly make: () => Promise<MtProvider>,
  ) {}

  private provider(): Promise<MtProvider> {
    this.made ??= this.make().catch((err) => {
      throw err instanceof MtFailure ? err : new MtFailure('auth', `${this.name}: ${(err as Error).message}`);
    });
    return this.made;
  }

  async translate(
    batch: string[],
    source: string,
    target: string,
    signal: AbortSignal,
    options?: { glossaryId?: string },
  ): Promise<string[]> {
    return (await this.provider()).translate(batch, source, target, signal, options);
  }

  /** The made provider's glossaries (DeepL's); for the others, none for any pair. */
  readonly glossaries: ProviderGlossaries = {
    glossaryFor: async (request: GlossaryRequest, source: string, target: string, signal: AbortSignal) =>
      (await this.provider()).glossaries?.glossaryFor(request, source, target, signal) ?? null,
  };

  async languages(signal: AbortSignal): Promise<LanguagePair[]> {
    return (await this.provider()).languages(signal);
  }
}

/**
 * An engine of a kind from its settings; its `name` (the kind) labels its suggestions and keys its cache
 * and pauses. The settings were checked against FIELDS before they were stored.
 */
export function createProvider(kind: ProviderKind, settings: ProviderSettings): MtProvider {
  switch (kind) {
    case 'apertium':
      return new ApertiumProvider(settings.url);
    case 'deepl':
      return new LazyProvider(kind, async () => {
        const { DeeplProvider } = await import('./deepl.ts');
        return new DeeplProvider({
          key: settings.key,
          serverUrl: settings.serverUrl,
          formality: settings.formality,
        });
      });
    case 'google':
      return new LazyProvider(kind, async () => {
        const { GoogleProvider } = await import('./google.ts');
        return new GoogleProvider({
          projectId: settings.projectId,
          location: settings.location,
          credentials: settings.credentials,
          endpoint: settings.endpoint,
        });
      });
    case 'azure':
      return new LazyProvider(kind, async () => {
        const { AzureProvider } = await import('./azure.ts');
        return new AzureProvider({ key: settings.key, region: settings.region, endpoint: settings.endpoint });
      });
    case 'amazon':
      return new LazyProvider(kind, async () => {
        const { AmazonProvider } = await import('./amazon.ts');
        return new AmazonProvider({
          accessKeyId: settings.accessKeyId,
          secretAccessKey: settings.secretAccessKey,
          region: settings.region,
          endpoint: settings.endpoint,
        });
      });
    case 'modernmt':
      return new LazyProvider(kind, async () => {
        const { ModernmtProvider } = await import('./modernmt.ts');
        return new ModernmtProvider({ key: settings.key, endpoint: settings.endpoint });
      });
    case 'libretranslate':
      return new LazyProvider(kind, async () => {
        const { LibretranslateProvider } = await import('./libretranslate.ts');
        return new LibretranslateProvider({ url: settings.url, key: settings.key });
      });
    case 'openai':
      return new LazyProvider(kind, async () => {
        const { OpenaiProvider } = await import('./openai.ts');
        return new OpenaiProvider({ baseUrl: settings.baseUrl, key: settings.key, model: settings.model });
      });
  }
}
