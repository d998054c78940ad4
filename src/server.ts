// The server process: load config → open store → migrate → bootstrap → start workers → listen;
// SIGTERM/SIGINT finish in-flight requests, then close the store.
import { mkdirSync } from 'node:fs';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import type { App } from './http/types.ts';
import { bootstrap } from './modules/users/service.ts';
import type { Db } from './store/db.ts';
import { migrate } from './store/migrate.ts';
import { openStore } from './store/open-store.ts';
import { type DataDirLock, lockDataDir } from './store/sqlite/data-dir-lock.ts';

export interface RunningServer {
  app: App;
  db: Db;
  url: string;
  stop(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  // The embedded store belongs to one server process: a second one on the same directory is refused.
  let lock: DataDirLock | undefined;
  if (!config.databaseUrl) {
    mkdirSync(config.dataDir, { recursive: true });
    lock = lockDataDir(config.dataDir);
  }
  let db: Db | undefined;
  let app: App;
  let boot: Awaited<ReturnType<typeof bootstrap>>;
  try {
    db = openStore(config);
    await migrate(db);
    boot = await bootstrap(db, config.apiKey);
    app = await buildApp({ config, db, exclusiveStore: lock !== undefined });
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await db?.close().catch(() => {});
    lock?.release();
    throw err;
  }
  const store = db;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  // Messages for the person at the terminal go to stderr as plain text; stdout carries the JSON log lines.
  if (boot.generatedKey) printSignIn(url, boot.generatedKey);
  else if (boot.created)
    process.stderr.write('Created the admin user and its API key from TESSERA_API_KEY.\n');
  process.stderr.write(`Tessera listening on ${url} (store: ${store.dialect})\n`);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await app.close();
      await store.close();
      lock?.release();
    })();
    return stopping;
  };
  return { app, db: store, url, stop };
}

function printSignIn(url: string, key: string) {
  process.stderr.write(
    [
      '',
      'First start: created organization "default", user "admin" and this API key.',
      'It is shown once only — store it now:',
      '',
      `  ${key}`,
      '',
      'Try it:',
      `  curl -u '${key}:${key}' ${url}/v2/languages`,
      '',
      'More keys: npx tessera keys create; users with passwords: npx tessera users create NAME --password-stdin',
      '',
    ].join('\n'),
  );
}

/** Runs until SIGTERM or SIGINT, then shuts down cleanly and exits. */
export async function serveUntilSignal(config: Config): Promise<void> {
  const server = await startServer(config);
  const onSignal = (signal: NodeJS.Signals) => {
    server.app.log.info({ signal }, 'shutting down');
    server
      .stop()
      .then(() => process.exit(0))
      .catch((err) => {
        process.stderr.write(`tessera: shutdown failed: ${(err as Error).message}\n`);
        process.exit(1);
      });
  };
  // Not once: a terminal's Ctrl-C reaches the server and its launcher (src/cli/server-node-flags.ts), which
  // forwards it, and that second signal must not end the shutdown the first one began.
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
