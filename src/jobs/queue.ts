// The job queue: rows in the jobs table, claimed by one worker at a time under a renewable lease.
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../store/db.ts';
import { nowSeconds } from '../store/db.ts';

export const JOB_STATES = Object.freeze({
  /** Being uploaded: not claimable until the request that creates it has stored its whole file. */
  uploading: 'uploading',
  queued: 'queued',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
} as const);
export type JobState = (typeof JOB_STATES)[keyof typeof JOB_STATES];

export type JobType = 'memory_import' | 'document_import' | 'pretranslate' | 'export';

/** A job's lease: a worker that does not renew it for this long is presumed dead and its job runs again. */
export const DEFAULT_LEASE_SECONDS = 60;
/** A job failing this many times (process deaths included) is failed for good instead of retried. */
export const MAX_ATTEMPTS = 5;

export interface JobRow {
  id: number;
  organization_id: number;
  type: JobType;
  state: JobState;
  memory_id: number | null;
  document_id: number | null;
  params: string;
  progress_done: number;
  progress_total: number;
  result: string | null;
  error: string | null;
  attempts: number;
  worker_id: string | null;
  lease_until: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export async function insertJob(
  db: Queryable,
  job: {
    organizationId: number;
    type: JobType;
    state?: JobState;
    memoryId?: number | null;
    documentId?: number | null;
    params?: unknown;
  },
): Promise<number> {
  const row = await db.get<{ id: number }>(
    `INSERT INTO jobs (organization_id, type, state, memory_id, document_id, params, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      job.organizationId,
      job.type,
      job.state ?? JOB_STATES.queued,
      job.memoryId ?? null,
      job.documentId ?? null,
      JSON.stringify(job.params ?? {}),
      nowSeconds(),
    ],
  );
  return Number(row!.id);
}

export async function findJob(
  db: Queryable,
  id: number,
  organizationId: number,
): Promise<JobRow | undefined> {
  return db.get<JobRow>('SELECT * FROM jobs WHERE id = ? AND organization_id = ?', [id, organizationId]);
}

export function newWorkerId(): string {
  return `${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Claims the oldest claimable job: queued, or running with an expired lease (its worker died).
 * On PostgreSQL, FOR UPDATE SKIP LOCKED makes concurrent workers of several instances take different jobs.
 */
export async function claimJob(db: Db, workerId: string, leaseSeconds: number): Promise<JobRow | undefined> {
  const now = nowSeconds();
  const lock = db.dialect === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
  return db.transaction((tx) =>
    tx.get<JobRow>(
      `UPDATE jobs SET state = 'running', worker_id = ?, lease_until = ?, attempts = attempts + 1,
         started_at = COALESCE(started_at, ?)
       WHERE id = (
         SELECT id FROM jobs
         WHERE state = 'queued' OR (state = 'running' AND lease_until < ?)
         ORDER BY id LIMIT 1 ${lock}
       )
       RETURNING *`,
      [workerId, now + leaseSeconds, now, now],
    ),
  );
}

/** Extends the lease; answers false when the job is no longer ours (another worker took it over). */
export async function renewLease(
  db: Db,
  jobId: number,
  workerId: string,
  leaseSeconds: number,
): Promise<boolean> {
  const result = await db.run(
    `UPDATE jobs SET lease_until = ? WHERE id = ? AND worker_id = ? AND state = 'running'`,
    [nowSeconds() + leaseSeconds, jobId, workerId],
  );
  return result.changes > 0;
}

export async function setProgress(db: Queryable, jobId: number, done: number, total: number): Promise<void> {
  await db.run('UPDATE jobs SET progress_done = ?, progress_total = ? WHERE id = ?', [done, total, jobId]);
}

/**
 * Marks the job succeeded inside the caller's transaction, fenced on the worker id: if the lease was lost
 * and another worker owns the job now, this throws and the caller's transaction rolls back.
 */
export async function completeJob(
  tx: Queryable,
  jobId: number,
  workerId: string,
  result: unknown,
): Promise<void> {
  const { changes } = await tx.run(
    `UPDATE jobs SET state = 'succeeded', result = ?, error = NULL, finished_at = ?, lease_until = NULL
     WHERE id = ? AND worker_id = ? AND state = 'running'`,
    [JSON.stringify(result), nowSeconds(), jobId, workerId],
  );
  if (changes === 0) throw new LeaseLostError(jobId);
}

export async function failJob(
  db: Queryable,
  jobId: number,
  workerId: string,
  message: string,
): Promise<void> {
  await db.run(
    `UPDATE jobs SET state = 'failed', error = ?, finished_at = ?, lease_until = NULL
     WHERE id = ? AND worker_id = ? AND state = 'running'`,
    [message, nowSeconds(), jobId, workerId],
  );
}

/** Puts a job whose attempt was interrupted (shutdown) back in the queue. */
export async function releaseJob(db: Queryable, jobId: number, workerId: string): Promise<void> {
  await db.run(
    `UPDATE jobs SET state = 'queued', worker_id = NULL, lease_until = NULL
     WHERE id = ? AND worker_id = ? AND state = 'running'`,
    [jobId, workerId],
  );
}

export class LeaseLostError extends Error {
  constructor(jobId: number) {
    super(`job ${jobId} was taken over by another worker`);
    this.name = 'LeaseLostError';
  }
}

/** The job as GET /v2/jobs answers it. */
export function publicJob(row: JobRow) {
  const state = row.state === JOB_STATES.uploading ? JOB_STATES.queued : row.state;
  return {
    id: Number(row.id),
    type: row.type,
    state,
    progress: { done: Number(row.progress_done), total: Number(row.progress_total) },
    result: row.result === null ? null : JSON.parse(row.result),
    error: row.error,
    created_at: Number(row.created_at),
    started_at: row.started_at === null ? null : Number(row.started_at),
    finished_at: row.finished_at === null ? null : Number(row.finished_at),
  };
}
