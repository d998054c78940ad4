// The worker loop that runs in every server process: claims tasks, runs their handlers, keeps leases alive.

import type { FastifyBaseLogger } from 'fastify';
import { AppError, FormatError } from '../errors.ts';
import type { Db, Queryable } from '../store/db.ts';
import {
  claimTask,
  completeTask,
  DEFAULT_LEASE_SECONDS,
  failTask,
  LeaseLostError,
  MAX_ATTEMPTS,
  newWorkerId,
  releaseTask,
  renewLease,
  setProgress,
  type TaskRow,
  type TaskType,
} from './queue.ts';

export interface TaskContext {
  db: Db;
  workerId: string;
  /** Aborted when the process shuts down: the handler should stop; the task goes back to the queue. */
  signal: AbortSignal;
  /**
   * Records progress. With tx, the handler is inside its transaction (a long one, such as a memory
   * import's): on the embedded store the progress is written in it — the transaction holds the one writer,
   * so a write beside it would wait for it for ever — and this process's readers see it meanwhile through
   * TaskWorker.liveProgress; a shared store writes it beside the transaction, for every instance to see.
   * Call it before complete(tx).
   */
  progress(done: number, total: number, tx?: Queryable): Promise<void>;
  /** Marks the task succeeded inside the handler's final transaction (so the work and the state commit together). */
  complete(tx: Queryable, result: unknown): Promise<void>;
}

export type TaskHandler = (task: TaskRow, context: TaskContext) => Promise<void>;

/**
 * An error whose message is meant for the client (a malformed file, a missing resource): the task fails with
 * it. FormatErrors and AppErrors are such messages too.
 */
export class TaskFailure extends Error {
  override name = 'TaskFailure';
  constructor(
    message: string,
    /** The stable code the task shows beside the message. */
    readonly code = 'TASK_FAILED',
  ) {
    super(message);
  }
}

/** The code a failed task shows for an error its handler threw. */
function failureCode(err: Error): string {
  if (err instanceof TaskFailure || err instanceof AppError) return err.code;
  return 'MALFORMED_FILE';
}

/** What services that queue tasks need of the worker: a nudge to look for work now. */
export interface TaskNotifier {
  wake(): void;
}

export interface WorkerOptions {
  /** The instance id to claim tasks as (a fresh one when absent). */
  id?: string;
  concurrency: number;
  pollMs?: number;
  leaseSeconds?: number;
  log: FastifyBaseLogger;
  /**
   * Runs when a task is failed without its handler running (too many attempts: its process kept dying),
   * so that the resource it was working on does not stay "in progress" for ever.
   */
  onGiveUp?: (task: TaskRow, reason: string) => Promise<void>;
}

/** The progress of the tasks this process runs, as their handlers last reported it. */
export interface LiveProgress {
  liveProgress(taskId: number): { done: number; total: number } | undefined;
}

/** Named apart from worker_threads' Worker: this one runs queued tasks, in the server's own thread. */
export class TaskWorker implements TaskNotifier, LiveProgress {
  /** This process's instance id (src/store/instances.ts): the owner of the tasks it runs. */
  readonly id: string;
  private readonly running = new Set<Promise<void>>();
  private readonly progressOf = new Map<number, { done: number; total: number }>();
  private controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = true;
  private readonly pollMs: number;
  private readonly leaseSeconds: number;

  constructor(
    private readonly db: Db,
    private readonly handlers: Partial<Record<TaskType, TaskHandler>>,
    private readonly options: WorkerOptions,
  ) {
    this.id = options.id ?? newWorkerId();
    this.pollMs = options.pollMs ?? 500;
    this.leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  }

  start(): void {
    if (this.controller.signal.aborted) this.controller = new AbortController();
    this.stopped = false;
    this.schedule(0);
  }

  liveProgress(taskId: number): { done: number; total: number } | undefined {
    return this.progressOf.get(taskId);
  }

  /** Looks for work now (called after a request enqueued a task in this process). */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  /** Stops claiming, interrupts running tasks (they are re-queued) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.controller.abort();
    await Promise.allSettled([...this.running]);
  }

  /** Runs claimable tasks one by one until none is left (tests and tools use this instead of start()). */
  async drain(): Promise<void> {
    if (this.controller.signal.aborted) this.controller = new AbortController();
    for (
      let task = await claimTask(this.db, this.id, this.leaseSeconds);
      task;
      task = await claimTask(this.db, this.id, this.leaseSeconds)
    ) {
      await this.run(task);
    }
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.poll()
        .catch((err) => this.options.log.error({ err }, 'task poll failed'))
        .finally(() => {
          if (!this.stopped) this.schedule(this.pollMs);
        });
    }, ms);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      while (!this.stopped && this.running.size < this.options.concurrency) {
        const task = await claimTask(this.db, this.id, this.leaseSeconds);
        if (!task) break;
        const run = this.run(task).finally(() => {
          this.running.delete(run);
          this.wake();
        });
        this.running.add(run);
      }
    } finally {
      this.polling = false;
    }
  }

  private async run(task: TaskRow): Promise<void> {
    const log = this.options.log.child({ taskId: task.id, jobType: task.type });
    const handler = this.handlers[task.type];
    if (!handler || task.attempts > MAX_ATTEMPTS) {
      const why = handler
        ? `gave up after ${MAX_ATTEMPTS} attempts`
        : `no handler for task type ${task.type}`;
      await failTask(this.db, task.id, this.id, why, handler ? 'GAVE_UP' : 'INTERNAL_ERROR');
      await this.options.onGiveUp?.(task, why);
      log.error(why);
      return;
    }
    const heartbeat = setInterval(
      () => {
        renewLease(this.db, task.id, this.id, this.leaseSeconds).catch((err) =>
          log.warn({ err }, 'lease renewal failed'),
        );
      },
      Math.max(1000, (this.leaseSeconds * 1000) / 3),
    );
    heartbeat.unref();
    const context: TaskContext = {
      // Background work: on the embedded store its statements let requests go first.
      db: this.db.background(),
      workerId: this.id,
      signal: this.controller.signal,
      progress: (done, total, tx) => {
        this.progressOf.set(task.id, { done, total });
        return setProgress(tx && !this.db.shared ? tx : this.db, task.id, done, total);
      },
      complete: (tx, result) => completeTask(tx, task.id, this.id, result),
    };
    try {
      await handler(task, context);
      log.info('task succeeded');
    } catch (err) {
      if (err instanceof LeaseLostError) {
        log.warn('lease lost; another worker runs the task');
      } else if (this.controller.signal.aborted) {
        await releaseTask(this.db, task.id, this.id);
        log.info('task interrupted by shutdown; re-queued');
      } else if (err instanceof TaskFailure || err instanceof FormatError || err instanceof AppError) {
        if (await failTask(this.db, task.id, this.id, (err as Error).message, failureCode(err as Error)))
          log.info({ reason: (err as Error).message }, 'task failed');
        else log.warn({ err }, 'task finished, then its clean-up failed');
      } else {
        // A handler may throw after its result committed (removing the files it is done with): the task
        // stays succeeded, and the log says so rather than that it crashed.
        if (
          await failTask(this.db, task.id, this.id, 'Internal error while running the task', 'INTERNAL_ERROR')
        )
          log.error({ err }, 'task crashed');
        else log.warn({ err }, 'task finished, then its clean-up failed');
      }
    } finally {
      clearInterval(heartbeat);
      this.progressOf.delete(task.id);
    }
  }
}
