// The worker loop that runs in every server process: claims tasks, runs their handlers, keeps leases alive.

import type { FastifyBaseLogger } from 'fastify';
import { AppError, FormatError, isStoreUnavailable, TaskFailure } from '../errors.ts';
import type { Db } from '../store/db.ts';
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
  type TaskTypeName,
} from './queue.ts';
import { parseParams, type TaskContext, type TaskType } from './task-type.ts';

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
}

/** The progress of the tasks this process runs, as their handlers last reported it. */
export interface LiveProgress {
  liveProgress(taskId: number): { done: number; total: number } | undefined;
}

/** The points of an attempt at which TaskWorker.atStage is called. */
export type AttemptStage = 'claimed' | 'progress' | 'complete' | 'settling';

/** Named apart from worker_threads' Worker: this one runs queued tasks, in the server's own thread. */
export class TaskWorker implements TaskNotifier, LiveProgress {
  /** This process's instance id (src/store/instances.ts): the owner of the tasks it runs. */
  readonly id: string;
  /**
   * Awaited at each stage of every attempt (after the claim, at each progress report, before the task is
   * marked succeeded, after a failure before its outcome is recorded): where the fault tests cut the store's connection, deterministically, whichever the
   * task type. Unset in service.
   */
  atStage: ((stage: AttemptStage, task: TaskRow) => Promise<void>) | undefined;
  private readonly running = new Set<Promise<void>>();
  private readonly progressOf = new Map<number, { done: number; total: number }>();
  private controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = true;
  private readonly pollMs: number;
  private readonly leaseSeconds: number;
  private readonly types: ReadonlyMap<TaskTypeName, TaskType>;

  /** Runs tasks of the given types; a task of another type fails at once. */
  constructor(
    private readonly db: Db,
    types: readonly TaskType[],
    private readonly options: WorkerOptions,
  ) {
    this.types = new Map(types.map((type) => [type.name, type]));
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
        // run() records every outcome itself; this only keeps a slip from ending the process.
        const run = this.run(task)
          .catch((err) => this.options.log.error({ err, taskId: task.id }, 'task run failed'))
          .finally(() => {
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
    const type = this.types.get(task.type);
    if (!type) {
      const why = `no handler for task type ${task.type}`;
      await failTask(this.db, task.id, this.id, why, 'INTERNAL_ERROR');
      log.error(why);
      return;
    }
    const parsed = parseParams(type, task.params);
    if ('malformed' in parsed || task.attempts > MAX_ATTEMPTS) {
      const [why, code] =
        'malformed' in parsed
          ? [`Internal error: ${parsed.malformed}`, 'INTERNAL_ERROR']
          : [`gave up after ${MAX_ATTEMPTS} attempts`, 'GAVE_UP'];
      await failTask(this.db, task.id, this.id, why, code);
      await type.giveUp?.(this.db, task, 'params' in parsed ? parsed.params : undefined, why);
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
      log,
      signal: this.controller.signal,
      progress: async (done, total, tx) => {
        await this.atStage?.('progress', task);
        this.progressOf.set(task.id, { done, total });
        return setProgress(tx && !this.db.shared ? tx : this.db, task.id, done, total);
      },
      complete: async (tx, result) => {
        await this.atStage?.('complete', task);
        return completeTask(tx, task.id, this.id, result);
      },
    };
    try {
      await this.atStage?.('claimed', task);
      await type.run(task, parsed.params, context);
      log.info('task succeeded');
    } catch (err) {
      if (err instanceof LeaseLostError) {
        log.warn('lease lost; another worker runs the task');
        return;
      }
      await this.atStage?.('settling', task);
      await this.record(() => this.settle(task, type, parsed.params, err, log), log);
    } finally {
      clearInterval(heartbeat);
      this.progressOf.delete(task.id);
    }
  }

  /** Records how a failed attempt ended: re-queued, or failed saying why. */
  private async settle(task: TaskRow, type: TaskType, params: unknown, err: unknown, log: FastifyBaseLogger) {
    if (this.controller.signal.aborted) {
      await releaseTask(this.db, task.id, this.id);
      log.info('task interrupted by shutdown; re-queued');
    } else if (isStoreUnavailable(err)) {
      // Nothing of the attempt committed: the task runs again, up to MAX_ATTEMPTS attempts.
      const reason = (err as Error).message;
      if (task.attempts < MAX_ATTEMPTS) {
        await releaseTask(this.db, task.id, this.id);
        log.warn({ reason, attempt: task.attempts }, 'task lost the database connection; re-queued');
        return;
      }
      const why = `The database connection was lost during each of ${MAX_ATTEMPTS} attempts (the last: ${reason})`;
      if (await failTask(this.db, task.id, this.id, why, 'STORE_UNAVAILABLE')) {
        await type.giveUp?.(this.db, task, params, why);
        log.error({ reason }, 'task failed: the database connection was lost at every attempt');
      }
    } else if (err instanceof TaskFailure || err instanceof FormatError || err instanceof AppError) {
      if (await failTask(this.db, task.id, this.id, err.message, failureCode(err)))
        log.info({ reason: err.message }, 'task failed');
      else log.warn({ err }, 'task finished, then its clean-up failed');
    } else {
      // A handler may throw after its result committed (removing the files it is done with): the task
      // stays succeeded, and the log says so rather than that it crashed.
      const why = 'Internal error while running the task';
      if (await failTask(this.db, task.id, this.id, why, 'INTERNAL_ERROR')) {
        log.error({ err }, 'task crashed');
        // What the task left in progress (a document shown importing, an export running) says it failed.
        await type.giveUp?.(this.db, task, params, why);
      } else log.warn({ err }, 'task finished, then its clean-up failed');
    }
  }

  /**
   * Runs a write of a task's outcome. The store out of reach a moment (a restart, a failover), it is tried
   * again a few times; after that the task keeps its state, and its lease, which is no longer renewed,
   * puts it back in the queue. Never throws: a failure here must not end the process.
   */
  private async record(write: () => Promise<void>, log: FastifyBaseLogger): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        return await write();
      } catch (err) {
        if (!isStoreUnavailable(err) || tries === 4) {
          log.error({ err }, 'the outcome of the task could not be recorded; its lease will re-queue it');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 1000 * tries));
      }
    }
  }
}
