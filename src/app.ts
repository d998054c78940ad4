// buildApp: the Fastify application with every plugin and module registered. It never listens:
// src/server.ts does, and tests call app.inject().
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { EventBus } from './events/event-bus.ts';
import { authPlugin } from './http/auth.ts';
import { clientErrorHandler, frameworkErrors } from './http/client-errors.ts';
import { MemoryCounters, StoreCounters } from './http/counters.ts';
import { errorHandlerPlugin } from './http/error-handler.ts';
import { eventStreamPlugin } from './http/event-stream.ts';
import { inputGuardsPlugin, safeIntegerKeyword } from './http/input-guards.ts';
import { AccessLog, loggerOptions } from './http/logging.ts';
import { metricsPlugin } from './http/metrics.ts';
import { openapiPlugin } from './http/openapi.ts';
import { policyPlugin } from './http/policy.ts';
import { rateLimitPlugin } from './http/rate-limit.ts';
import { SignInThrottle } from './http/sign-in-throttle.ts';
import type { App } from './http/types.ts';
import { webAppPlugin } from './http/web-app.ts';
import { commentsRoutes } from './modules/comments/routes.ts';
import { commentNotes, unresolvedSegmentIds } from './modules/comments/service.ts';
import { documentImportTask } from './modules/documents/import-task.ts';
import { pretranslateTask } from './modules/documents/pretranslate-task.ts';
import { ReplacePool } from './modules/documents/replace-pool.ts';
import { documentsRoutes } from './modules/documents/routes.ts';
import { segmentInContext } from './modules/documents/segment-service.ts';
import { documentSweeps } from './modules/documents/service.ts';
import { eventsRoutes } from './modules/events/routes.ts';
import { fileTranslationsRoutes } from './modules/file-translations/routes.ts';
import { fileTranslationTask } from './modules/file-translations/translate-task.ts';
import { filesRoutes } from './modules/files/routes.ts';
import { fileSweeps } from './modules/files/service.ts';
import { jobExportTask } from './modules/jobs/export-task.ts';
import { jobsRoutes } from './modules/jobs/routes.ts';
import { languagesRoutes } from './modules/languages/routes.ts';
import { Languages } from './modules/languages/service.ts';
import { discardFinishedImports, memoryImportTask } from './modules/memories/import-task.ts';
import { IndexCache, indexDirFor } from './modules/memories/index-cache.ts';
import { memoriesRoutes } from './modules/memories/routes.ts';
import { memoryTrimEdgesTask } from './modules/memories/trim-edges-task.ts';
import { providerServing } from './modules/mt/coverage.ts';
import { MtEngine } from './modules/mt/engine.ts';
import { MtMetrics } from './modules/mt/metrics.ts';
import { OrganizationEngines } from './modules/mt/organization-engines.ts';
import { ApertiumProvider } from './modules/mt/providers/apertium.ts';
import { repairRoutes } from './modules/mt/repair-routes.ts';
import { mtRoutes } from './modules/mt/routes.ts';
import { secretBoxFor } from './modules/mt/secret-box.ts';
import { mtSettingsRoutes } from './modules/mt/settings-routes.ts';
import { UsageBuffer } from './modules/mt/usage-buffer.ts';
import { notificationsRoutes } from './modules/notifications/routes.ts';
import { projectsRoutes } from './modules/projects/routes.ts';
import { findProject, memoryOfProject, projectsUsingMemory } from './modules/projects/service.ts';
import { qualityRoutes } from './modules/quality/routes.ts';
import { reviewRoutes } from './modules/review/routes.ts';
import { segmentsRoutes } from './modules/segments/routes.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { tasksRoutes } from './modules/tasks/routes.ts';
import { LearnedLexicon } from './modules/terms/learned-lexicon.ts';
import { termsRoutes } from './modules/terms/routes.ts';
import { importTermFile, isTermFile } from './modules/terms/service.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { authenticateKey, authenticatePassword } from './modules/users/service.ts';
import { authenticateSession, credentialsStillValid, sweepSessions } from './modules/users/sessions.ts';
import { workflowsRoutes } from './modules/workflows/routes.ts';
import type { Db } from './store/db.ts';
import { InstanceKeeper } from './tasks/instance-keeper.ts';
import { newWorkerId } from './tasks/queue.ts';
import { TaskWorker } from './tasks/task-worker.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  /** Run the task worker loop in this process (default true; tests may drive tasks themselves). */
  runWorker?: boolean;
  /** Task lease in seconds (tests shorten it). */
  jobLeaseSeconds?: number;
  /** A destination for the JSON log lines (tests capture them); stdout when absent. */
  logStream?: NodeJS.WritableStream;
  /**
   * No other process can use the store (the SQLite data directory is locked by this one): at start every
   * other instance is known dead, and what it held is released at once.
   */
  exclusiveStore?: boolean;
}

// JSON bodies are small by nature; file uploads stream under their own limit (maxUploadBytes).
const JSON_BODY_LIMIT = 16 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    worker: TaskWorker;
    indexes: IndexCache;
    instance: InstanceKeeper;
    /** The lexicons learned from the memories (modules/terms/learned-lexicon.ts). */
    learned: LearnedLexicon;
  }
}

/**
 * Fastify's trustProxy for the setting. A number of hops becomes a function trusting that many proxies
 * nearest the server, whoever they are: Fastify itself reads a bare number as trusting none, since it cannot tell a
 * proxy from a client that connects directly (the setting's documentation says to use a count only when
 * every request comes through the proxies).
 */
function trustProxyOption(setting: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, db } = deps;
  const bodyLimit = Math.min(config.maxUploadBytes, JSON_BODY_LIMIT);
  const options: FastifyServerOptions = {
    logger: loggerOptions(config.logLevel, deps.logStream),
    // One line a request, written when it is answered, instead of Fastify's two (http/logging.ts).
    logController: new AccessLog(),
    bodyLimit,
    // Lilt clients send ids and flags as query strings: coerce "7" → 7 and "true" → true.
    ajv: {
      customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false },
      plugins: [safeIntegerKeyword],
    },
    return503OnClosing: true,
    frameworkErrors,
    clientErrorHandler,
    forceCloseConnections: 'idle',
    trustProxy: trustProxyOption(config.trustProxy),
  };
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  const languages = new Languages(config.languages);
  const indexes = new IndexCache(db, { dir: indexDirFor(config), log: app.log });
  const events = new EventBus(db);
  const instanceId = newWorkerId();
  // The threads and slots of find and replace (regular expressions run there, under a deadline).
  const replaces = new ReplacePool({ deadlineMs: config.regexTimeoutMs });
  // Projects sit above documents and memories (a Project embeds its documents and is made on a memory): what
  // those ask of projects is handed to them here.
  const projects = { findProject, memoryOfProject };
  // Several processes may share a PostgreSQL store: their limits count together there.
  const counters = db.shared ? new StoreCounters(db) : new MemoryCounters();
  const counterSweeps = counters instanceof StoreCounters ? [async () => counters.sweep()] : [];
  // Machine translation: each organization's own engines, then the operator's default for every one.
  const secretBox = secretBoxFor(config);
  const mtMetrics = new MtMetrics();
  // The usage counters are written a second at a time (usage-buffer.ts), the rest at close.
  const mtUsage = new UsageBuffer(db, 1000, (err) => app.log.warn({ err }, 'writing MT usage failed'));
  const mt = new MtEngine(
    config.mtApertiumUrl ? [new ApertiumProvider(config.mtApertiumUrl)] : [],
    { timeoutMs: config.mtTimeoutMs, cacheDays: config.mtCacheDays, usage: mtUsage },
    Date.now,
    new OrganizationEngines(secretBox),
    mtMetrics,
  );
  const instance = new InstanceKeeper(
    db,
    instanceId,
    [
      ...documentSweeps,
      ...fileSweeps,
      discardFinishedImports,
      ...counterSweeps,
      sweepSessions,
      (store) => mt.sweepCache(store),
    ],
    app.log,
    config.instanceTimeout,
  );
  // The background task types, each declared by its module: its params' schema, its handler, and what to
  // release when the worker gives up on it.
  const worker = new TaskWorker(
    db,
    [
      memoryImportTask(indexes, { maxDecompressedBytes: config.maxDecompressedBytes }),
      memoryTrimEdgesTask(indexes),
      documentImportTask({
        indexes,
        projects,
        regexTimeoutMs: config.regexTimeoutMs,
        readTimeoutMs: config.readTimeoutMs,
      }),
      pretranslateTask(indexes, projects, mt),
      jobExportTask,
      fileTranslationTask({ indexes, mt, maxUploadBytes: config.maxUploadBytes }),
    ],
    {
      id: instanceId,
      concurrency: config.workerConcurrency,
      log: app.log,
      leaseSeconds: deps.jobLeaseSeconds,
    },
  );
  app.decorate('worker', worker);
  app.decorate('indexes', indexes);
  app.decorate('instance', instance);

  // Which role may call which route: first, so that it sees every route registered (its check runs after
  // authentication, in preParsing).
  await app.register(policyPlugin);
  await app.register(errorHandlerPlugin, { bodyLimit });
  await app.register(inputGuardsPlugin);
  await app.register(metricsPlugin);
  mtMetrics.registerIn(app.metrics);
  await app.register(openapiPlugin);
  const throttle = new SignInThrottle(counters);
  await app.register(authPlugin, {
    throttle,
    authenticator: {
      key: (key) => authenticateKey(db, key),
      password: (username, password) => authenticatePassword(db, username, password),
      session: (token) => authenticateSession(db, token),
    },
  });
  await app.register(rateLimitPlugin, { max: config.rateLimit, counters });
  await app.register(eventStreamPlugin, {
    stillValid: (principals) => credentialsStillValid(db, principals),
  });

  const uploads = { tasks: worker, maxUploadBytes: config.maxUploadBytes, instanceId, events, mt };
  await app.register(systemRoutes, { db, isWarm: () => indexes.warm });
  await app.register(languagesRoutes, { languages });
  await app.register(usersRoutes, { db, throttle });
  // The lexicons learned from the memories, in a worker thread of their own (modules/terms/learned-lexicon.ts).
  const learned = new LearnedLexicon(db);
  app.decorate('learned', learned);
  const termsDeps = {
    db,
    languages,
    indexes,
    learned,
    maxUploadBytes: config.maxUploadBytes,
    maxDecompressedBytes: config.maxDecompressedBytes,
  };
  await app.register(memoriesRoutes, {
    db,
    languages,
    indexes,
    projectsUsing: projectsUsingMemory,
    // The terms module sits above memories (its lexicon is learned from their pairs): a deleted memory's
    // model is dropped through the hook rather than memories importing terms.
    memoryDeleted: (memoryId: number) => learned.forget(memoryId),
    segmentContext: segmentInContext,
    ...uploads,
    termFiles: {
      isTermFile: isTermFile,
      importTermFile: (principal, params, file) => importTermFile(termsDeps, principal, params, file),
    },
  });
  await app.register(termsRoutes, termsDeps);
  await app.register(segmentsRoutes, { db, languages, indexes, events });
  await app.register(mtRoutes, { db, languages, indexes, mt, segmentContext: segmentInContext });
  await app.register(repairRoutes, {
    db,
    languages,
    indexes,
    mt,
    segmentContext: segmentInContext,
    learned,
  });
  await app.register(mtSettingsRoutes, { db, mt, box: secretBox, timeoutMs: config.mtTimeoutMs });
  await app.register(tasksRoutes, { db, tasks: worker });
  await app.register(projectsRoutes, { db, languages, regexTimeoutMs: config.regexTimeoutMs });
  // Comments sit above documents (they are written on documents): what documents ask of them is handed over.
  const comments = { unresolvedSegmentIds, commentNotes };
  await app.register(documentsRoutes, { db, projects, replaces, comments, ...uploads });
  await app.register(filesRoutes, { db, ...uploads });
  await app.register(fileTranslationsRoutes, { db });
  // The analysis names the engine serving each pair for the organization: its own engines, then the
  // operator's default.
  const mtProviderOf = (organizationId: number, source: string, target: string) =>
    providerServing(
      { configured: true, languages: () => mt.languagesFor(db, organizationId) },
      source,
      target,
    );
  await app.register(jobsRoutes, { db, languages, indexes, projects, mtProviderOf, ...uploads });
  await app.register(eventsRoutes, { db, events });
  await app.register(commentsRoutes, { db, events });
  await app.register(notificationsRoutes, { db });
  await app.register(qualityRoutes, { db });
  await app.register(reviewRoutes, { db });
  await app.register(workflowsRoutes, { db, events });
  await app.register(webAppPlugin, {});

  // Before the worker: a restarted process first puts back the tasks its dead predecessor held.
  app.addHook('onReady', async () => instance.start({ exclusive: deps.exclusiveStore ?? false }));
  if (deps.runWorker ?? true) app.addHook('onReady', async () => worker.start());
  // Indexes load in the background: the server answers at once, /readyz says ready when they are in.
  app.addHook('onReady', async () => {
    indexes.warmUp().catch((err) => app.log.error({ err }, 'loading memory indexes failed'));
  });
  // Requests finish first (Fastify closes the server before onClose hooks), then running tasks are
  // interrupted and re-queued, so the store can close.
  app.addHook('onClose', async () => {
    await worker.stop();
    await mtUsage.close().catch((err) => app.log.warn({ err }, 'writing MT usage failed'));
    // What changed since the indexes were loaded is saved, so that the next start reads its files.
    await indexes.saveAll().catch((err) => app.log.warn({ err }, 'saving memory indexes failed'));
    await instance.stop();
    await events.close();
    await replaces.close();
    await learned.close();
  });
  return app;
}
