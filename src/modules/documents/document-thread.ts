// A document's format filter run in a worker thread (document-worker.ts) when the file is large, so that
// parsing, checking or merging a document of hundreds of thousands of segments never holds the server's thread; a
// small file is done in place (starting a thread costs more than it saves).
import { errorFromThread } from '../../errors.ts';
import type { PlaceholderMismatch, UnitTranslation } from '../../formats/filter.ts';
import { filterByFormat } from '../../formats/registry.ts';
import { nextTurn } from '../../pacing.ts';
import { startThread } from '../../tasks/threads.ts';
import { type PlanOptions, planSegments, wordsOf } from './segment-plan.ts';
import type { NewSegment } from './segment-repository.ts';

/**
 * Files from this size up are filtered in a worker thread, under the reading deadline. Below it the work is
 * done in place and must stay short even for a hostile file. The bound was set when sentence splitting took
 * time in the square of a paragraph's length (200 KB of "A. " took 17.6 s); it is now linear
 * (src/text/sentence-breaks.ts: 60 KB of "A. " about 0.09 s, 200 KB 0.12 s, 1 MB 0.56 s), so splitting alone
 * would allow 256 KiB again, but the other steps of an import were not measured against hostile files of
 * that size.
 */
export const THREAD_MIN_BYTES = 32 * 1024;
/** The reading deadline's base when the caller gives none (TESSERA_READ_TIMEOUT_MS's default). */
export const DEFAULT_READ_TIMEOUT_MS = 60_000;

/** How long a thread may read a file: the base, plus a millisecond a KiB (512 MiB: 9 minutes more). */
export function readingDeadlineMs(bytes: number, baseMs = DEFAULT_READ_TIMEOUT_MS): number {
  return baseMs + Math.ceil(bytes / 1024);
}
/** Translations sent to the merging thread per message. */
const SEND_BATCH = 2000;

export interface ThreadRequest {
  op: 'extract' | 'merge' | 'mismatches';
  format: string;
  srclang: string;
  trglang: string;
  original: Uint8Array;
  /** How an extract cuts units into segments. */
  plan?: PlanOptions;
}

/**
 * A document thread that ran past its deadline: a project's own segmentation rules that never finish, or a
 * file built to be slow to parse.
 */
export class ThreadDeadlineError extends Error {
  override name = 'ThreadDeadlineError';
}

type Message =
  | { type: 'started' }
  | { type: 'segments'; rows: NewSegment[] }
  | { type: 'extracted'; units: number; words: number }
  | { type: 'merged'; bytes: ArrayBuffer }
  | { type: 'mismatches'; found: PlaceholderMismatch[] }
  | { type: 'error'; name: string; message: string };

function filterOf(format: string) {
  const filter = filterByFormat(format);
  if (!filter) throw new Error(`No filter for format ${format}`);
  return filter;
}

/** Runs the thread; `onMessage` answers a value to settle with, or undefined to go on. */
function inThread<T>(
  request: ThreadRequest,
  onMessage: (message: Message) => T | undefined,
  afterStart?: (post: (message: unknown) => void) => Promise<void>,
  deadlineMs?: number,
): Promise<T> {
  const worker = startThread(new URL('./document-worker.ts', import.meta.url), request);
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    // Past its deadline (counted from the thread's start, once its code is loaded) the thread is ended: a
    // regular expression that backtracks without end cannot be stopped any other way, and it holds only this
    // thread, never the server's.
    let timer: NodeJS.Timeout | undefined;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    worker.on('message', (message: Message) => {
      if (message.type === 'started') {
        if (deadlineMs !== undefined) {
          timer = setTimeout(
            () => settle(() => reject(new ThreadDeadlineError(`took longer than ${deadlineMs / 1000} s`))),
            deadlineMs,
          );
        }
        return;
      }
      if (message.type === 'error') {
        const err = errorFromThread(message);
        settle(() => reject(err));
        return;
      }
      const value = onMessage(message);
      if (value !== undefined) settle(() => resolve(value));
    });
    worker.on('error', (err) => settle(() => reject(err)));
    worker.on('exit', (code) => settle(() => reject(new Error(`document thread exited with code ${code}`))));
    afterStart?.((message) => worker.postMessage(message)).catch((err: Error) => settle(() => reject(err)));
  });
}

export interface Extracted {
  segments: NewSegment[];
  units: number;
  /** The words of all segments' sources (counted here: 100,000 segments take 120 ms). */
  words: number;
}

/**
 * The document's segments and how many units its filter found. Throws FormatError if unreadable. A project's
 * own segmentation rules (plan.srx) are the user's regular expressions, and some filters' parsers are slow on
 * hostile input: those always run in a thread. A thread runs under `deadlineMs` (ThreadDeadlineError past
 * it), by default the reading deadline for the file's size.
 */
export async function extractDocument(
  original: Buffer,
  doc: { format: string; srclang: string; trglang: string },
  plan: PlanOptions = {},
  deadlineMs = readingDeadlineMs(original.length),
): Promise<Extracted> {
  const filter = filterOf(doc.format);
  if (original.length < THREAD_MIN_BYTES && !plan.srx && !filter.slowOnHostileInput) {
    const units = await filter.extract(original, doc);
    const segments = planSegments(units, doc.srclang, plan);
    return { segments, units: units.length, words: wordsOf(segments) };
  }
  const segments: NewSegment[] = [];
  let ack: (message: unknown) => void = () => {};
  return inThread<Extracted>(
    { op: 'extract', ...doc, original, plan },
    (message) => {
      if (message.type === 'segments') {
        for (const row of message.rows) segments.push(row);
        // Asks for the next batch after a turn of the event loop, so requests go between batches.
        setImmediate(() => ack('taken'));
      } else if (message.type === 'extracted') {
        return { segments, units: message.units, words: message.words };
      }
      return undefined;
    },
    async (post) => {
      ack = post;
    },
    deadlineMs,
  );
}

/** Sends the translations to the thread in batches, then says that they all came. */
function sendTranslations(translations: readonly (UnitTranslation | null)[]) {
  return async (post: (message: unknown) => void) => {
    for (let i = 0; i < translations.length; i += SEND_BATCH) {
      post({ type: 'translations', rows: translations.slice(i, i + SEND_BATCH) });
      // Each message is cloned in this thread: let requests in between.
      await nextTurn();
    }
    post({ type: 'end' });
  };
}

/** The original with the translations merged in, by the document's filter. */
export async function mergeDocument(
  original: Buffer,
  translations: readonly (UnitTranslation | null)[],
  doc: { format: string; srclang: string; trglang: string },
): Promise<Buffer> {
  const filter = filterOf(doc.format);
  if (original.length < THREAD_MIN_BYTES) return filter.merge(original, translations, doc);
  return inThread<Buffer>(
    { op: 'merge', ...doc, original },
    (message) => (message.type === 'merged' ? Buffer.from(message.bytes) : undefined),
    sendTranslations(translations),
  );
}

/**
 * The units whose translation's placeholders the document's format cannot run (FormatFilter.placeholders);
 * none for a format whose placeholders do not execute.
 */
export async function placeholderMismatches(
  original: Buffer,
  translations: readonly (UnitTranslation | null)[],
  doc: { format: string; srclang: string; trglang: string },
): Promise<PlaceholderMismatch[]> {
  const check = filterOf(doc.format).placeholders;
  if (!check || translations.every((t) => t === null)) return [];
  if (original.length < THREAD_MIN_BYTES) return check.mismatches(original, translations, doc);
  return inThread<PlaceholderMismatch[]>(
    { op: 'mismatches', ...doc, original },
    (message) => (message.type === 'mismatches' ? message.found : undefined),
    sendTranslations(translations),
  );
}
