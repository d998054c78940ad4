// An OpenAI-compatible chat endpoint — OpenAI itself, or a local LLM server that speaks the same API
// (llama.cpp's llama-server, Ollama, vLLM, LM Studio, LocalAI) — through OpenAI's official SDK, which takes
// the base URL (…/v1): POST {base}/chat/completions with {model, messages} answered {choices: [{message:
// {content}, finish_reason}]}.
//
// - One text a request, four at a time. A numbered JSON batch would send the instructions once, but
//   smaller models merge, split, skip or renumber items, and one such answer spoils the alignment of the
//   whole batch; a text alone cannot be misaligned, and the engine's cache keeps repeats from costing.
// - The prompt: a professional translator's instructions naming both languages, that every markup element
//   (<g1>…</g1>, <x2/>) and entity stay exactly as written, and that the answer be the translation alone.
//   The engine's check still refuses an answer whose markup was not kept.
// - The answer is cleaned of what models add despite being told: a reasoning model's <think>…</think>
//   block, a code fence, quotes around the whole text (when the source had none), a "Translation:" label.
// - temperature 0 for a steady translation; a model that refuses the parameter (OpenAI's reasoning models)
//   is asked again without it, and no longer sent it.
// - Languages: a chat model has no list of pairs, so languages() answers none — meaning any pair is tried —
//   after listing the server's models, which checks the address and the key.
// - Failures: 429 `rate` with Retry-After (`insufficient_quota` a 30-minute rate), 401/403 `auth`, 5xx and
//   network errors `server`, others (an unknown model, a bad request) `request`. The SDK's retries are off.
// - The SDK would otherwise take OPENAI_API_KEY, OPENAI_ORG_ID and the like from Tessera's environment:
//   each is set explicitly, so an operator's own key is never sent to an organization's server.
import OpenAI from 'openai';
import { type LanguagePair, MtFailure, type MtProvider } from '../provider.ts';
import { eachLimited, retryAfterSeconds } from './shared.ts';

const AT_ONCE = 4;
const QUOTA_PAUSE_S = 30 * 60;
const NAMES = new Intl.DisplayNames(['en'], { type: 'language' });

function languageName(tag: string): string {
  try {
    return `${NAMES.of(tag) ?? tag} (${tag})`;
  } catch {
    return tag;
  }
}

/** The instructions for translating from one language to another. */
export function systemPrompt(source: string, target: string): string {
  return [
    `You are a professional translator. Translate the user's text from ${languageName(source)} to ${languageName(target)}.`,
    'The text may contain markup elements such as <g1>…</g1> (around words) and <x2/> (standing alone). ' +
      'Keep every markup element exactly as written — the same names, each exactly once — placing a pair around ' +
      'the words that translate the words it encloses and a standalone element where it belongs in the sentence. ' +
      'Never translate, rename, add or remove an element. Keep the entities &amp; &lt; &gt; as they are.',
    'Answer with the translation only: no explanation, no notes, no quotes, no code fences.',
  ].join('\n');
}

const QUOTES: [string, string][] = [
  ['"', '"'],
  ['“', '”'],
  ['«', '»'],
  ['「', '」'],
  ["'", "'"],
];

/** The translation out of a model's answer: what models add around it despite being told not to. */
export function cleanAnswer(answer: string, source: string): string {
  let text = answer.replace(/^\s*<think>[\s\S]*?<\/think>/, '').trim();
  const fence = /^```[\w-]*\n([\s\S]*?)\n?```$/.exec(text);
  if (fence) text = fence[1].trim();
  text = text.replace(/^(translation|translated text)\s*:\s*/i, '');
  const src = source.trim();
  for (const [open, close] of QUOTES) {
    if (text.length >= 2 && text.startsWith(open) && text.endsWith(close) && !src.startsWith(open)) {
      text = text.slice(open.length, -close.length).trim();
      break;
    }
  }
  return text;
}

/** The MtFailure of an error the SDK threw. */
export function openaiFailure(err: unknown, signal: AbortSignal): MtFailure {
  if (err instanceof MtFailure) return err;
  if (err instanceof OpenAI.APIUserAbortError || signal.aborted) {
    return new MtFailure('server', 'OpenAI-compatible server timed out');
  }
  if (err instanceof OpenAI.APIConnectionError) {
    return new MtFailure('server', `OpenAI-compatible server did not answer: ${err.message}`);
  }
  if (err instanceof OpenAI.APIError && err.status !== undefined) {
    const message = `OpenAI-compatible server: ${err.message}`.slice(0, 300);
    const status = err.status;
    if (status === 429) {
      if (err.code === 'insufficient_quota') return new MtFailure('rate', message, QUOTA_PAUSE_S);
      const ms = Number(err.headers?.get('retry-after-ms'));
      const seconds =
        Number.isFinite(ms) && ms > 0
          ? Math.ceil(ms / 1000)
          : retryAfterSeconds(err.headers?.get('retry-after'));
      return new MtFailure('rate', message, seconds);
    }
    if (status === 401 || status === 403) return new MtFailure('auth', message);
    if (status >= 500) return new MtFailure('server', message);
    return new MtFailure('request', message);
  }
  return new MtFailure('server', `OpenAI-compatible server: ${(err as Error).message}`);
}

export interface OpenaiSettings {
  /** The API's base URL, ending in /v1 for most servers. */
  baseUrl: string;
  key?: string;
  model: string;
}

export class OpenaiProvider implements MtProvider {
  readonly name = 'openai';
  private readonly client: OpenAI;
  private readonly model: string;
  private sendTemperature = true;

  constructor(settings: OpenaiSettings) {
    this.model = settings.model;
    this.client = new OpenAI({
      baseURL: settings.baseUrl,
      // A server without keys gets no Authorization header at all.
      apiKey: settings.key || 'none',
      ...(settings.key ? {} : { defaultHeaders: { Authorization: null } }),
      adminAPIKey: null,
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: 120_000,
    });
  }

  private async translateOne(
    text: string,
    source: string,
    target: string,
    signal: AbortSignal,
  ): Promise<string> {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'system', content: systemPrompt(source, target) },
      { role: 'user', content: text },
    ];
    let completion: OpenAI.Chat.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(
        { model: this.model, messages, ...(this.sendTemperature ? { temperature: 0 } : {}) },
        { signal },
      );
    } catch (err) {
      const refusesTemperature =
        err instanceof OpenAI.APIError && err.status === 400 && /temperature/i.test(err.message);
      if (!refusesTemperature || !this.sendTemperature) throw openaiFailure(err, signal);
      this.sendTemperature = false;
      return this.translateOne(text, source, target, signal);
    }
    const choice = completion.choices?.[0];
    const content = choice?.message?.content;
    if (typeof content !== 'string')
      throw new MtFailure('server', 'OpenAI-compatible server answered no text');
    if (choice.finish_reason === 'length') {
      throw new MtFailure('request', 'OpenAI-compatible server: the translation was cut off (length)');
    }
    return cleanAnswer(content, text);
  }

  async translate(batch: string[], source: string, target: string, signal: AbortSignal): Promise<string[]> {
    return eachLimited(batch, AT_ONCE, (text) => this.translateOne(text, source, target, signal));
  }

  async languages(signal: AbortSignal): Promise<LanguagePair[]> {
    try {
      await this.client.models.list({ signal });
    } catch (err) {
      throw openaiFailure(err, signal);
    }
    return [];
  }
}
