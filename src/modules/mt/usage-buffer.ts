// The MT usage counters (mt_usage, mt_usage_months), added up in memory and written in batches.
//
// Why: written on every call, the two counters' upserts were a write transaction — the store's write lock and
// a commit — on every cached suggestion, which is otherwise two indexed reads: measured in one process, the
// cache hit path took 0.24 ms at p50 with the write and 0.13 ms without. Batched, a call adds to a map and
// one transaction a second writes what every call of that second counted.
//
// What that costs, said plainly: counts not yet written are lost if the process dies (at most the last
// `intervalMs` of them); another server process sharing a PostgreSQL store sees them up to `intervalMs` late,
// which the monthly limits — a soft cap already (engine.ts, MonthLimits) — can bear. Within this process
// nothing reads stale counts: every reader calls `flush` first (the usage routes, the limits' check).
import type { Db } from '../../store/db.ts';
import { addMonthUsage, addUsage } from './repository.ts';

interface Pending {
  organizationId: number;
  month: string;
  engine: { id: number; name: string };
  characters: number;
  cachedCharacters: number;
  requests: number;
}

export class UsageBuffer {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  /** The flush being written, which the next one waits for: two never write the same counts. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly intervalMs = 1000,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Counts one call's characters on the organization's engine for the month; written within `intervalMs`. */
  add(
    organizationId: number,
    month: string,
    engine: { id: number; name: string },
    usage: { characters: number; cachedCharacters: number },
  ): void {
    const key = `${organizationId}\u0000${month}\u0000${engine.id}\u0000${engine.name}`;
    const known = this.pending.get(key);
    if (known) {
      known.characters += usage.characters;
      known.cachedCharacters += usage.cachedCharacters;
      known.requests += 1;
    } else {
      this.pending.set(key, { organizationId, month, engine, ...usage, requests: 1 });
    }
    this.schedule();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      // A store that refused the write is tried again a period later; the counts wait in memory.
      this.flush().catch((err) => {
        this.onError(err);
        this.schedule();
      });
    }, this.intervalMs).unref();
  }

  /** Writes what is counted so far, in one transaction; on failure the counts stay for the next flush. */
  flush(): Promise<void> {
    const next = this.writing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await this.db.transaction(async (tx) => {
          for (const p of batch.values()) {
            const usage = {
              characters: p.characters,
              cachedCharacters: p.cachedCharacters,
              requests: p.requests,
            };
            await addUsage(tx, p.organizationId, p.engine.name, usage);
            await addMonthUsage(tx, p.organizationId, p.month, p.engine, usage);
          }
        });
      } catch (err) {
        // Put back what was not written, added to what came in meanwhile.
        for (const [key, p] of batch) {
          const known = this.pending.get(key);
          if (!known) this.pending.set(key, p);
          else {
            known.characters += p.characters;
            known.cachedCharacters += p.cachedCharacters;
            known.requests += p.requests;
          }
        }
        throw err;
      }
    });
    // A failed flush does not stop the next one from trying.
    this.writing = next.catch(() => {});
    return next;
  }

  /** Writes what is left and stops the timer (the app's close, before the store closes). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}
