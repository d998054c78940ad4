// Keeps this process known as alive to the others sharing the store, and releases what dead processes held:
// their half-stored uploads, their running tasks, and whatever the modules register (export marks…).
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../store/db.ts';
import {
  BEATS_PER_TIMEOUT,
  beat,
  declareOthersDead,
  forgetLongDead,
  liveCutoff,
  registerInstance,
  removeInstance,
} from '../store/instances.ts';
import { deleteDeadUploads, requeueTasksOfDeadInstances } from './queue.ts';

/** Releases what instances dead before `liveCutoff` (a heartbeat time) held; answers how many things. */
export type Sweep = (db: Db, liveCutoff: number) => Promise<number>;

export class InstanceKeeper {
  private beatTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private readonly sweeps: Sweep[];

  constructor(
    private readonly db: Db,
    readonly id: string,
    moduleSweeps: Sweep[],
    private readonly log: FastifyBaseLogger,
    /** Seconds without a heartbeat after which an instance counts as dead (TESSERA_INSTANCE_TIMEOUT). */
    private readonly timeoutSeconds = 30,
  ) {
    this.sweeps = [deleteDeadUploads, requeueTasksOfDeadInstances, ...moduleSweeps];
  }

  /**
   * Registers this instance and releases what dead ones left. `exclusive`: no other process can use the
   * store (the SQLite data directory is locked), so every other instance is dead now — a restart does not
   * wait for its predecessor's heartbeat to go stale.
   */
  async start(options: { exclusive: boolean }): Promise<void> {
    await registerInstance(this.db, this.id);
    if (options.exclusive) await declareOthersDead(this.db, this.id);
    await this.sweep();
    this.beatTimer = setInterval(
      () => {
        beat(this.db, this.id).catch((err) => this.log.warn({ err }, 'heartbeat failed'));
      },
      (this.timeoutSeconds * 1000) / BEATS_PER_TIMEOUT,
    );
    this.sweepTimer = setInterval(
      () => {
        this.sweep().catch((err) => this.log.warn({ err }, 'sweep failed'));
        // Sweeping a third as often as the timeout: what a dead process held is released soon after.
      },
      (this.timeoutSeconds * 1000) / 3,
    );
    this.beatTimer.unref();
    this.sweepTimer.unref();
  }

  /** Releases what dead instances held (also called by tests instead of waiting for the timer). */
  async sweep(): Promise<void> {
    const cutoff = liveCutoff(this.timeoutSeconds);
    let released = 0;
    for (const sweep of this.sweeps) released += await sweep(this.db, cutoff);
    await forgetLongDead(this.db);
    if (released > 0) this.log.info({ released }, 'released what dead instances held');
  }

  async stop(): Promise<void> {
    clearInterval(this.beatTimer);
    clearInterval(this.sweepTimer);
    await removeInstance(this.db, this.id).catch(() => {});
  }
}
