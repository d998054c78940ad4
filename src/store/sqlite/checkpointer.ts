// Checkpoints of the write-ahead log on a thread of their own. By default SQLite checkpoints inside the
// commit that grows the log past 1,000 pages: after pre-translating a 100,000-segment document that commit
// held the server's thread for 280 ms, most of it copying the log into the database (measured: a commit
// of 100,000 updated rows 172 ms with the automatic checkpoint, 44 ms without). So the writer's automatic
// checkpoints are off (wal_autocheckpoint = 0) and this thread's own connection checkpoints PASSIVE —
// never waiting for a reader or the writer — every INTERVAL_MS.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const INTERVAL_MS = 500;

// Plain JavaScript, evaluated: the thread needs nothing of ours but the driver, whose path it is given.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort.postMessage(String(err && err.message));
  }
}, workerData.interval);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(path: string) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, driver, interval: INTERVAL_MS },
    });
    // A failed checkpoint loses nothing (the log keeps the pages and the next one retries), but say so.
    this.worker.on('message', (message: string) =>
      process.emitWarning(`SQLite checkpoint failed: ${message}`),
    );
    this.worker.on('error', (err) => process.emitWarning(`SQLite checkpoint thread failed: ${err.message}`));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    // The store's close() stops it; a process that never closes its store still exits.
    this.worker.unref();
  }

  /** Stops the thread after its current checkpoint, its connection closed. */
  async stop(): Promise<void> {
    // Waited for: the process must not end before the thread closed its connection.
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.exited;
  }
}
