// buildApp: the Fastify application with every plugin and module registered. It never listens:
// src/server.ts does, and tests call app.inject().
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { authPlugin } from './http/auth.ts';
import { errorHandlerPlugin } from './http/error-handler.ts';
import { loggerOptions } from './http/logging.ts';
import { metricsPlugin } from './http/metrics.ts';
import { openapiPlugin } from './http/openapi.ts';
import { rateLimitPlugin } from './http/rate-limit.ts';
import type { App } from './http/types.ts';
import { Worker } from './jobs/worker.ts';
import { runDocumentImport } from './modules/documents/import-job.ts';
import { pretranslateHandler } from './modules/documents/pretranslate-job.ts';
import { releaseAfterGiveUp } from './modules/documents/repository.ts';
import { documentsRoutes } from './modules/documents/routes.ts';
import { jobsRoutes } from './modules/jobs/routes.ts';
import { languagesRoutes } from './modules/languages/routes.ts';
import { Languages } from './modules/languages/service.ts';
import { runMemoryImport } from './modules/memories/import.ts';
import { IndexCache } from './modules/memories/index-cache.ts';
import { memoriesRoutes } from './modules/memories/routes.ts';
import { projectsRoutes } from './modules/projects/routes.ts';
import { segmentsRoutes } from './modules/segments/routes.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { usersRoutes } from './modules/users/routes.ts';
import type { Db } from './store/db.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  /** Run the job worker loop in this process (default true; tests may drive jobs themselves). */
  runWorker?: boolean;
  /** Job lease in seconds (tests shorten it). */
  jobLeaseSeconds?: number;
  /** A destination for the JSON log lines (tests capture them); stdout when absent. */
  logStream?: NodeJS.WritableStream;
}

// JSON bodies are small by nature; file uploads stream under their own limit (maxUploadBytes).
const JSON_BODY_LIMIT = 16 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    worker: Worker;
    indexes: IndexCache;
  }
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, db } = deps;
  const bodyLimit = Math.min(config.maxUploadBytes, JSON_BODY_LIMIT);
  const options: FastifyServerOptions = {
    logger: loggerOptions(config.logLevel, deps.logStream),
    bodyLimit,
    // Lilt clients send ids and flags as query strings: coerce "7" → 7 and "true" → true.
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  };
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  const languages = new Languages(config.languages);

  await app.register(errorHandlerPlugin, { bodyLimit });
  await app.register(metricsPlugin);
  await app.register(openapiPlugin);
  await app.register(authPlugin, { db });
  await app.register(rateLimitPlugin, { max: config.rateLimit });

  await app.register(languagesRoutes, { languages });
  await app.register(usersRoutes, { db });

  const indexes = new IndexCache(db);
  await app.register(systemRoutes, { db, isWarm: () => indexes.warm });
  const worker = new Worker(
    db,
    {
      memory_import: runMemoryImport,
      document_import: runDocumentImport,
      pretranslate: pretranslateHandler(indexes),
    },
    {
      concurrency: config.workerConcurrency,
      log: app.log,
      leaseSeconds: deps.jobLeaseSeconds,
      onGiveUp: async (job, reason) => {
        if (job.document_id !== null) await releaseAfterGiveUp(db, Number(job.document_id), job.type, reason);
      },
    },
  );
  app.decorate('worker', worker);
  app.decorate('indexes', indexes);
  const memoryDeps = { db, languages, indexes };
  await app.register(memoriesRoutes, { ...memoryDeps, worker, maxUploadBytes: config.maxUploadBytes });
  await app.register(segmentsRoutes, memoryDeps);
  await app.register(jobsRoutes, { db });
  await app.register(projectsRoutes, { db, languages });
  await app.register(documentsRoutes, { db, worker, maxUploadBytes: config.maxUploadBytes });

  if (deps.runWorker ?? true) app.addHook('onReady', async () => worker.start());
  // Indexes load in the background: the server answers at once, /readyz says ready when they are in.
  app.addHook('onReady', async () => {
    indexes.warmUp().catch((err) => app.log.error({ err }, 'loading memory indexes failed'));
  });
  // Requests finish first (Fastify closes the server before onClose hooks), then running jobs are
  // interrupted and re-queued, so the store can close.
  app.addHook('onClose', async () => worker.stop());
  return app;
}
