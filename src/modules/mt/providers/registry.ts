// Every kind of machine translation engine Tessera can call, and what an administrator fills in to add one.
// An organization's engines (and the operator's default) are made here from their stored settings; the
// Admin screen builds its form from FIELDS, so a new kind is one entry here and one provider file.
import type { MtProvider } from '../provider.ts';
import { AmazonProvider } from './amazon.ts';
import { ApertiumProvider } from './apertium.ts';
import { AzureProvider } from './azure.ts';
import { DeeplProvider } from './deepl.ts';
import { GoogleProvider } from './google.ts';
import { LibretranslateProvider } from './libretranslate.ts';
import { ModernmtProvider } from './modernmt.ts';
import { OpenaiProvider } from './openai.ts';

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
 * An engine of a kind from its settings; `name` labels its suggestions and keys its cache and pauses.
 * The settings were checked against FIELDS before they were stored.
 */
export function createProvider(kind: ProviderKind, settings: ProviderSettings): MtProvider {
  switch (kind) {
    case 'apertium':
      return new ApertiumProvider(settings.url);
    case 'google':
      return new GoogleProvider({
        projectId: settings.projectId,
        location: settings.location,
        credentials: settings.credentials,
        endpoint: settings.endpoint,
      });
    case 'azure':
      return new AzureProvider({ key: settings.key, region: settings.region, endpoint: settings.endpoint });
    case 'amazon':
      return new AmazonProvider({
        accessKeyId: settings.accessKeyId,
        secretAccessKey: settings.secretAccessKey,
        region: settings.region,
        endpoint: settings.endpoint,
      });
    case 'modernmt':
      return new ModernmtProvider({ key: settings.key, endpoint: settings.endpoint });
    case 'libretranslate':
      return new LibretranslateProvider({ url: settings.url, key: settings.key });
    case 'openai':
      return new OpenaiProvider({ baseUrl: settings.baseUrl, key: settings.key, model: settings.model });
    case 'deepl':
      return new DeeplProvider({
        key: settings.key,
        serverUrl: settings.serverUrl,
        formality: settings.formality,
      });
  }
}
