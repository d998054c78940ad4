// What the engines' provider files share: batching within an engine's documented limits, a bounded number
// of requests at once for engines that take one text a request, giving up when the engine's caller times
// out (the SDKs that take no AbortSignal keep their request running, but Tessera stops waiting), the JSON
// requests of engines called with fetch, and BCP-47 tags as engines spell them.
import { failureOfStatus, MtFailure } from '../provider.ts';

/** Splits texts into batches of at most `size` texts and `chars` characters (a longer text goes alone). */
export function batches(texts: string[], size: number, chars = Number.POSITIVE_INFINITY): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let length = 0;
  for (const text of texts) {
    if (current.length > 0 && (current.length >= size || length + text.length > chars)) {
      out.push(current);
      current = [];
      length = 0;
    }
    current.push(text);
    length += text.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Translates batch after batch, in order: one request at a time keeps within an engine's rate. */
export async function inBatches(
  texts: string[],
  size: number,
  chars: number,
  translate: (batch: string[]) => Promise<string[]>,
  what: string,
): Promise<string[]> {
  const out: string[] = [];
  for (const batch of batches(texts, size, chars)) {
    const answers = await translate(batch);
    if (answers.length !== batch.length) {
      throw new MtFailure('server', `${what} answered ${answers.length} translations for ${batch.length}`);
    }
    out.push(...answers);
  }
  return out;
}

/** `fn` over every item with at most `limit` running at once; the answers in the items' order. */
export async function eachLimited<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    // After a failure the batch has failed as a whole: the other workers start no new request.
    while (next < items.length && !failed) {
      const i = next++;
      try {
        out[i] = await fn(items[i]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * The promise, or a `server` failure as soon as `signal` aborts: for SDKs that take no AbortSignal, so that
 * the engine's timeout is kept whatever the SDK does.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new MtFailure('server', `${what} timed out`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new MtFailure('server', `${what} timed out`));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Seconds from a Retry-After header (whole seconds or an HTTP date), when there is one. */
export function retryAfterSeconds(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The failure of an HTTP answer, its Retry-After read in either form. */
export function failureOf(
  status: number,
  retryAfter: string | null | undefined,
  what: string,
): MtFailure | null {
  const seconds = retryAfterSeconds(retryAfter);
  return failureOfStatus(status, seconds === undefined ? null : String(seconds), what);
}

/**
 * A JSON request with fetch for the engines called without an SDK: a network error is a `server` failure,
 * a status its failure, and an answer that is not JSON a `server` failure too.
 */
export async function requestJson<T>(
  url: URL | string,
  init: { method: string; headers?: Record<string, string>; body?: unknown },
  signal: AbortSignal,
  what: string,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      signal,
    });
  } catch (err) {
    throw new MtFailure(
      'server',
      signal.aborted ? `${what} timed out` : `${what} did not answer: ${(err as Error).message}`,
    );
  }
  const failure = failureOf(res.status, res.headers.get('retry-after'), what);
  if (failure) {
    await res.body?.cancel();
    throw failure;
  }
  try {
    return (await res.json()) as T;
  } catch {
    throw new MtFailure('server', `${what} answered something other than JSON`);
  }
}

/** A base URL with one trailing slash, so that `new URL('path', base)` appends to its path. */
export function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * A BCP-47 tag in its usual case, whatever case an engine answers in: `EN-GB` → `en-GB`, `ZH-HANS` →
 * `zh-Hans`, `es-419` stays.
 */
export function normalTag(code: string): string {
  const [lang, ...rest] = code.replace(/_/g, '-').split('-');
  return [
    lang.toLowerCase(),
    ...rest.map((part) =>
      part.length === 4
        ? part[0].toUpperCase() + part.slice(1).toLowerCase()
        : part.length === 2
          ? part.toUpperCase()
          : part.toLowerCase(),
    ),
  ].join('-');
}

/** Every source with every other language: the pairs of an engine that lists languages, not pairs. */
export function allPairs(sources: string[], targets: string[]): { source: string; target: string }[] {
  const out: { source: string; target: string }[] = [];
  for (const source of sources) {
    for (const target of targets) {
      if (source.split('-')[0] !== target.split('-')[0]) out.push({ source, target });
    }
  }
  return out;
}

/**
 * Engines told that the text is HTML may answer the masking's empty elements the way an HTML serializer
 * writes them, `<x1></x1>`: that is the same element, written back as the masking sent it.
 */
export function selfClosed(text: string): string {
  return text.replace(/<x(\d+)\s*><\/x\1>/g, '<x$1/>');
}
