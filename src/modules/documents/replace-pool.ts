// The threads of find and replace, and how many replaces run at once. Every replace holds a slot while it
// runs: a user has PER_USER of them and the server MAX_ACTIVE, beyond which a replace answers 429 with
// Retry-After (a hundred previews at once would otherwise each start a thread, or each walk a large
// document). Replaces with a regular expression have a smaller server-wide allowance of their own (two per
// pool thread): the pool runs their slices one after another, so admitting more only lengthens the wait,
// and runaway expressions holding every slot for their whole budget must not turn away literal replaces,
// which never touch the pool. Regular expressions run, a slice of texts at a time, on a small pool of threads shared by
// every replace (queued when all are busy), under one time budget per replace: a slice that runs past what
// is left of it (an expression such as (a+)+$, which no JavaScript engine stops half-way) ends its thread
// and the replace with REGEX_TIMEOUT; a new thread takes the next slice.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { AppError, errors } from '../../errors.ts';
import { startThread } from '../../tasks/threads.ts';
import type { ReplaceSpec } from './find-replace.ts';
import type { ReplaceSlice, ReplaceSliceAnswer } from './replace-worker.ts';

export interface ReplacePoolOptions {
  /** How long the regular expression of one replace may run in all, over every slice. */
  deadlineMs: number;
  threads?: number;
  perUser?: number;
  maxActive?: number;
  /** Replaces with a regular expression the server admits at once (default: two per pool thread). */
  maxRegex?: number;
}

/** Replaces one user may run at once; more are refused with 429. */
const PER_USER = 2;
/** Replaces the server runs at once, every user together. */
const MAX_ACTIVE = 8;
/** An idle thread is ended after this long (a new one starts for the next expression). */
const IDLE_MS = 60_000;
const RETRY_AFTER_S = 2;
/** Replaces with a regular expression admitted per pool thread, every user together. */
const REGEX_PER_THREAD = 2;

interface Pending {
  slice: ReplaceSlice;
  budgetMs: number;
  resolve: (answer: { afters: (string | null)[]; ms: number }) => void;
  reject: (err: unknown) => void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  current: (Pending & { started: number; timer: NodeJS.Timeout }) | null;
  idle: NodeJS.Timeout | null;
}

/** A replace holding its slot: its regular-expression slices and what is left of its time budget. */
export interface ReplaceJob {
  /** Each text replaced (null where the result would be longer than maxLength), on a pool thread. */
  replaceInThread(spec: ReplaceSpec, texts: string[], maxLength: number): Promise<(string | null)[]>;
}

export class ReplacePool {
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private readonly byUser = new Map<number, number>();
  private active = 0;
  private activeRegex = 0;
  private nextId = 1;
  private closed = false;
  private readonly size: number;
  private readonly perUser: number;
  private readonly maxActive: number;
  private readonly maxRegex: number;

  constructor(private readonly options: ReplacePoolOptions) {
    // One thread on two cores: the other is the server's; regular expressions wait their turn in the queue.
    this.size = options.threads ?? Math.max(1, Math.min(2, availableParallelism() - 1));
    this.perUser = options.perUser ?? PER_USER;
    this.maxActive = options.maxActive ?? MAX_ACTIVE;
    this.maxRegex = Math.min(this.maxActive, options.maxRegex ?? REGEX_PER_THREAD * this.size);
  }

  /**
   * Runs `work` holding one of the user's slots, or refuses with 429 when the user or the server has none;
   * a replace with a regular expression (`regex`) also needs one of the server's regular-expression slots.
   */
  async withSlot<T>(user: number, regex: boolean, work: (job: ReplaceJob) => Promise<T>): Promise<T> {
    const held = this.byUser.get(user) ?? 0;
    if (held >= this.perUser) {
      throw errors.tooManyReplaces(
        `You already run ${held} finds and replaces; retry when one is done`,
        RETRY_AFTER_S,
      );
    }
    if (this.active >= this.maxActive) {
      throw errors.tooManyReplaces(
        `The server runs ${this.active} finds and replaces; retry in ${RETRY_AFTER_S} s`,
        RETRY_AFTER_S,
      );
    }
    if (regex && this.activeRegex >= this.maxRegex) {
      throw errors.tooManyReplaces(
        `The server runs ${this.activeRegex} finds and replaces with a regular expression; retry in ${RETRY_AFTER_S} s, or search for plain text`,
        RETRY_AFTER_S,
      );
    }
    this.byUser.set(user, held + 1);
    this.active++;
    if (regex) this.activeRegex++;
    let budgetMs = this.options.deadlineMs;
    const job: ReplaceJob = {
      replaceInThread: async (spec, texts, maxLength) => {
        const { afters, ms } = await this.run({ id: this.nextId++, spec, texts, maxLength }, budgetMs);
        budgetMs -= ms;
        return afters;
      },
    };
    try {
      return await work(job);
    } finally {
      this.active--;
      if (regex) this.activeRegex--;
      const left = (this.byUser.get(user) ?? 1) - 1;
      if (left > 0) this.byUser.set(user, left);
      else this.byUser.delete(user);
    }
  }

  /** Ends every thread; slices still queued or running fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(errors.unavailable('The server is stopping'));
    await Promise.all(this.threads.splice(0).map((thread) => this.end(thread)));
  }

  private run(slice: ReplaceSlice, budgetMs: number) {
    if (this.closed) return Promise.reject(errors.unavailable('The server is stopping'));
    if (budgetMs <= 0) return Promise.reject(errors.regexTimeout(this.options.deadlineMs / 1000));
    return new Promise<{ afters: (string | null)[]; ms: number }>((resolve, reject) => {
      this.queue.push({ slice, budgetMs, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const thread = this.threads.find((t) => t.ready && t.current === null);
      if (!thread) {
        const starting = this.threads.some((t) => !t.ready);
        if (!starting && this.threads.length < this.size) this.start();
        return;
      }
      const pending = this.queue.shift()!;
      if (thread.idle) clearTimeout(thread.idle);
      thread.idle = null;
      // The budget counts from when a thread takes the slice: waiting in the queue is not the expression's.
      const timer = setTimeout(() => this.timedOut(thread), pending.budgetMs);
      thread.current = { ...pending, started: performance.now(), timer };
      thread.worker.postMessage(pending.slice);
    }
  }

  private start(): void {
    const worker = startThread(new URL('./replace-worker.ts', import.meta.url), null);
    // A thread never keeps the process alive; close() ends them with the server.
    worker.unref();
    const thread: Thread = { worker, ready: false, current: null, idle: null };
    this.threads.push(thread);
    worker.on('message', (message: 'ready' | ReplaceSliceAnswer) => {
      if (message === 'ready') {
        thread.ready = true;
        this.rest(thread);
        this.dispatch();
        return;
      }
      const current = thread.current;
      if (!current || current.slice.id !== message.id) return;
      clearTimeout(current.timer);
      thread.current = null;
      if ('error' in message) current.reject(new Error(message.error));
      else current.resolve({ afters: message.afters, ms: performance.now() - current.started });
      this.rest(thread);
      this.dispatch();
    });
    worker.on('error', (err) => this.lost(thread, err));
    worker.on('exit', () => this.lost(thread, new Error('the replace thread exited')));
  }

  /** An idle thread is ended after IDLE_MS, so that an idle server holds no thread's memory. */
  private rest(thread: Thread): void {
    if (thread.current || thread.idle) return;
    thread.idle = setTimeout(() => {
      this.remove(thread);
      void this.end(thread);
    }, IDLE_MS);
    thread.idle.unref();
  }

  private timedOut(thread: Thread): void {
    const current = thread.current;
    thread.current = null;
    this.remove(thread);
    void this.end(thread);
    current?.reject(errors.regexTimeout(this.options.deadlineMs / 1000));
    this.dispatch();
  }

  private lost(thread: Thread, err: unknown): void {
    if (!this.threads.includes(thread)) return;
    this.remove(thread);
    const current = thread.current;
    thread.current = null;
    if (current) {
      clearTimeout(current.timer);
      current.reject(err instanceof AppError ? err : errors.internal());
    }
    if (!this.closed) this.dispatch();
  }

  private remove(thread: Thread): void {
    const i = this.threads.indexOf(thread);
    if (i >= 0) this.threads.splice(i, 1);
    if (thread.idle) clearTimeout(thread.idle);
    thread.idle = null;
  }

  private async end(thread: Thread): Promise<void> {
    if (thread.current) {
      clearTimeout(thread.current.timer);
      thread.current.reject(errors.unavailable('The server is stopping'));
      thread.current = null;
    }
    await thread.worker.terminate();
  }
}
