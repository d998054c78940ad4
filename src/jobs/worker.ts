// The worker loop that runs in every server process: claims jobs, runs their handlers, keeps leases alive.
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../store/db.ts';
import {
  claimJob,
  completeJob,
  DEFAULT_LEASE_SECONDS,
  failJob,
  type JobRow,
  type JobType,
  LeaseLostError,
  MAX_ATTEMPTS,
  newWorkerId,
  releaseJob,
  renewLease,
  setProgress,
} from './queue.ts';

export interface JobContext {
  db: Db;
  workerId: string;
  /** Aborted when the process shuts down: the handler should stop; the job goes back to the queue. */
  signal: AbortSignal;
  progress(done: number, total: number): Promise<void>;
  /** Marks the job succeeded inside the handler's final transaction (so the work and the state commit together). */
  complete(tx: Queryable, result: unknown): Promise<void>;
}

export type JobHandler = (job: JobRow, context: JobContext) => Promise<void>;

/** An error whose message is meant for the client (a malformed file, a missing resource): the job fails. */
export class JobFailure extends Error {
  override name = 'JobFailure';
}

export interface WorkerOptions {
  concurrency: number;
  pollMs?: number;
  leaseSeconds?: number;
  log: FastifyBaseLogger;
  /**
   * Runs when a job is failed without its handler running (too many attempts: its process kept dying),
   * so that the resource it was working on does not stay "in progress" for ever.
   */
  onGiveUp?: (job: JobRow, reason: string) => Promise<void>;
}

export class Worker {
  readonly id = newWorkerId();
  private readonly running = new Set<Promise<void>>();
  private controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = true;
  private readonly pollMs: number;
  private readonly leaseSeconds: number;

  constructor(
    private readonly db: Db,
    private readonly handlers: Partial<Record<JobType, JobHandler>>,
    private readonly options: WorkerOptions,
  ) {
    this.pollMs = options.pollMs ?? 500;
    this.leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  }

  start(): void {
    if (this.controller.signal.aborted) this.controller = new AbortController();
    this.stopped = false;
    this.schedule(0);
  }

  /** Looks for work now (called after a request enqueued a job in this process). */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  /** Stops claiming, interrupts running jobs (they are re-queued) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.controller.abort();
    await Promise.allSettled([...this.running]);
  }

  /** Runs claimable jobs one by one until none is left (tests and tools use this instead of start()). */
  async drain(): Promise<void> {
    if (this.controller.signal.aborted) this.controller = new AbortController();
    for (
      let job = await claimJob(this.db, this.id, this.leaseSeconds);
      job;
      job = await claimJob(this.db, this.id, this.leaseSeconds)
    ) {
      await this.run(job);
    }
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.poll()
        .catch((err) => this.options.log.error({ err }, 'job poll failed'))
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
        const job = await claimJob(this.db, this.id, this.leaseSeconds);
        if (!job) break;
        const run = this.run(job).finally(() => {
          this.running.delete(run);
          this.wake();
        });
        this.running.add(run);
      }
    } finally {
      this.polling = false;
    }
  }

  private async run(job: JobRow): Promise<void> {
    const log = this.options.log.child({ jobId: Number(job.id), jobType: job.type });
    const handler = this.handlers[job.type];
    if (!handler || Number(job.attempts) > MAX_ATTEMPTS) {
      const why = handler ? `gave up after ${MAX_ATTEMPTS} attempts` : `no handler for job type ${job.type}`;
      await failJob(this.db, Number(job.id), this.id, why);
      await this.options.onGiveUp?.(job, why);
      log.error(why);
      return;
    }
    const heartbeat = setInterval(
      () => {
        renewLease(this.db, Number(job.id), this.id, this.leaseSeconds).catch((err) =>
          log.warn({ err }, 'lease renewal failed'),
        );
      },
      Math.max(1000, (this.leaseSeconds * 1000) / 3),
    );
    heartbeat.unref();
    const context: JobContext = {
      db: this.db,
      workerId: this.id,
      signal: this.controller.signal,
      progress: (done, total) => setProgress(this.db, Number(job.id), done, total),
      complete: (tx, result) => completeJob(tx, Number(job.id), this.id, result),
    };
    try {
      await handler(job, context);
      log.info('job succeeded');
    } catch (err) {
      if (err instanceof LeaseLostError) {
        log.warn('lease lost; another worker runs the job');
      } else if (this.controller.signal.aborted) {
        await releaseJob(this.db, Number(job.id), this.id);
        log.info('job interrupted by shutdown; re-queued');
      } else if (
        err instanceof JobFailure ||
        (err as Error).name === 'FormatError' ||
        (err as Error).name === 'XmlError'
      ) {
        await failJob(this.db, Number(job.id), this.id, (err as Error).message);
        log.info({ reason: (err as Error).message }, 'job failed');
      } else {
        await failJob(this.db, Number(job.id), this.id, 'Internal error while running the job');
        log.error({ err }, 'job crashed');
      }
    } finally {
      clearInterval(heartbeat);
    }
  }
}
