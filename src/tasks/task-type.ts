// What a type of background task is, as its module declares it: its name, the shape of its params, the
// handler that runs an attempt, and what to release when the worker gives up on it. The worker is given the
// list (src/app.ts) and parses each task's params with its type's schema before the handler sees them.
import type { FastifyBaseLogger } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { isStoreUnavailable } from '../errors.ts';
import type { Db, Queryable } from '../store/db.ts';
import { LeaseLostError, type TaskRow, type TaskTypeName } from './queue.ts';

export interface TaskContext {
  db: Db;
  workerId: string;
  /** This task's log (its id and type on every line). */
  log: FastifyBaseLogger;
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

export interface TaskType<S extends TSchema = TSchema> {
  /** The tasks table's type column. */
  readonly name: TaskTypeName;
  /** The params column's shape: the code that queues a task writes Static<typeof params>. */
  readonly params: S;
  /** Runs one attempt. It marks the task succeeded with context.complete, or throws (see TaskWorker). */
  run(task: TaskRow, params: Static<S>, context: TaskContext): Promise<void>;
  /**
   * Runs when the worker fails a task of this type without running its handler — its process kept dying
   * (too many attempts), or its params do not match the schema (then params is undefined) — so that what
   * the task was working on does not stay "in progress" for ever.
   */
  giveUp?(db: Db, task: TaskRow, params: Static<S> | undefined, reason: string): Promise<void>;
}

/**
 * Whether the task runs again after this failed attempt: interrupted by shutdown, taken over by another
 * worker, or cut off from the store (the worker re-queues it). Its handler then keeps what the next attempt
 * needs (its input file, its document's state) instead of clearing up as after a failure.
 */
export function attemptGoesOn(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted || err instanceof LeaseLostError || isStoreUnavailable(err);
}

/** Declares a task type (a typed identity: params' type follows from the schema). */
export function taskType<S extends TSchema>(type: TaskType<S>): TaskType<S> {
  return type;
}

/** A task's params checked against its type's schema, or why they do not match it. */
export function parseParams<S extends TSchema>(
  type: TaskType<S>,
  text: string,
): { params: Static<S> } | { malformed: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { malformed: `the params of a ${type.name} task are not JSON` };
  }
  const [issue] = Value.Errors(type.params, value);
  if (!issue) return { params: value as Static<S> };
  const where = issue.instancePath === '' ? 'params' : `params${issue.instancePath.replace(/\//g, '.')}`;
  return {
    malformed: `the params of a ${type.name} task do not match its schema: ${where} ${issue.message}`,
  };
}
