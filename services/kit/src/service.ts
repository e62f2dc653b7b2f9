import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { queuesConsumedBy } from '@haven/contracts/jobs';
import { ConfigError, loadConfig, requireSettings, type Config } from './config';
import { createFieldCipher } from './crypto';
import { drizzleOf, openDatabase, pingDatabase, runMigrations, type DatabaseConnection, type Db } from './db';
import { healthRouter } from './health';
import { createServiceApp, type ContractRoutes } from './http';
import { createInternalClients, serviceUrlsFrom } from './internal-client';
import { createLogger, type Logger } from './logger';
import { startTracing } from './tracing';
import { createMetrics } from './metrics';
import { deleteSentEvents, outboxBacklog, startOutboxRelay, type OutboxRelay } from './outbox';
import {
  assertJobRegistry,
  QueueRegistry,
  startWorkers,
  type QueueConnection,
  type WorkerSet,
} from './queue';
import { startReconcilers, type PeriodicTask } from './reconciler';
import { checkEvictionPolicy, connectRedis, createRedis, type Redis } from './redis';
import { createUnitOfWork } from './unit-of-work';

import type {
  RunningService,
  ServiceDefinition,
  ServiceDeps,
  ServiceParts,
  StartOptions,
} from './service-definition';

export type {
  RunningService,
  ServiceDefinition,
  ServiceDeps,
  ServiceParts,
  StartOptions,
  Watcher,
} from './service-definition';

/** The database: the caller's connection, or one opened here (then closed here too); migrated. */
async function openStorage(
  def: ServiceDefinition,
  config: Config,
  log: Logger,
  database?: DatabaseConnection,
) {
  const ownsDatabase = !database;
  const conn = database ?? (await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, log }));
  await runMigrations(conn, def.name, def.migrationsFolder);
  return { conn, db: drizzleOf(conn), ownsDatabase };
}

/** Redis, checked, and the queues and the outbox relay over it. */
async function connectQueues(def: ServiceDefinition, config: Config, log: Logger, db: Db) {
  const redis = createRedis(config.REDIS_URL);
  await connectRedis(redis, config.REDIS_URL);
  await checkEvictionPolicy(redis, log);
  const connection: QueueConnection = {
    redisUrl: config.REDIS_URL,
    prefix: config.REDIS_PREFIX,
    backoffMs: config.JOB_BACKOFF_MS,
    lockMs: config.JOB_LOCK_MS,
  };
  const queues = new QueueRegistry(connection);
  const relay = startOutboxRelay({ db, table: def.outboxTable, queues, log });
  return { redis, connection, queues, relay };
}

/** What the composition root builds the domain from. */
function serviceDeps(
  def: ServiceDefinition,
  options: StartOptions,
  opened: Pick<ServiceDeps, 'log' | 'db' | 'redis' | 'queues'> & {
    conn: DatabaseConnection;
    relay: OutboxRelay;
  },
): ServiceDeps {
  const { config } = options;
  const { log, db, conn, redis, queues, relay } = opened;
  const metrics = createMetrics(def.name, {
    queues: () => queues.counts(queuesConsumedBy(def.name)),
    outbox: () => outboxBacklog(db, def.outboxTable),
  });
  const urls = options.serviceUrls ?? (() => serviceUrlsFrom(config));
  return {
    config,
    log,
    db,
    connection: conn,
    redis,
    queues,
    cipher: createFieldCipher(
      config.DATA_ENCRYPTION_KEY,
      config.DATA_ENCRYPTION_OLD_KEYS?.split(',').filter(Boolean),
    ),
    uow: createUnitOfWork({ db, table: def.outboxTable, relay }),
    internal: createInternalClients({ secret: config.INTERNAL_SECRET, caller: def.name, urls }),
    metrics,
  };
}

/** Every service keeps its outbox small: published events go after the retention period. */
const outboxCleanup = (def: ServiceDefinition, { db, log }: ServiceDeps): PeriodicTask => ({
  name: `${def.name}-outbox-cleanup`,
  everyMs: 3_600_000,
  run: async () => {
    const deleted = await deleteSentEvents(db, def.outboxTable);
    if (deleted) log.info({ deleted }, 'published outbox events deleted');
  },
});

/** Where workers run: the workers, the reconcilers and periodic tasks, and the watchers, started. */
function startBackground(
  def: ServiceDefinition,
  parts: ServiceParts,
  deps: ServiceDeps,
  queueing: { connection: QueueConnection; runWorkers: boolean },
) {
  const { config, log, metrics, queues, redis } = deps;
  const { connection, runWorkers } = queueing;
  const workers =
    runWorkers && parts.jobs.length > 0 ? startWorkers(parts.jobs, connection, log, metrics) : undefined;
  const periodic: PeriodicTask[] = [...(parts.periodic ?? []), outboxCleanup(def, deps)];
  const reconcilers = runWorkers
    ? startReconcilers(parts.reconcilers ?? [], { queues, redis, prefix: config.REDIS_PREFIX, log }, periodic)
    : undefined;
  const watchers = runWorkers ? (parts.watchers ?? []) : [];
  for (const watcher of watchers) watcher.start();
  return { workers, reconcilers, watchers };
}

/** The HTTP server: health, metrics and (where the API runs) the routes; resolves once it listens. */
async function listen(
  def: ServiceDefinition,
  options: StartOptions,
  deps: ServiceDeps,
  routes: ContractRoutes[],
  workers: WorkerSet | undefined,
): Promise<{ server: Server; port: number }> {
  const { config, log, db, redis, metrics } = deps;
  const app = createServiceApp({
    name: def.name,
    log,
    internalSecret: config.INTERNAL_SECRET,
    jsonLimit: def.jsonLimit,
    checkAnswers: config.NODE_ENV !== 'production',
    metrics,
    health: healthRouter(def.name, {
      database: () => pingDatabase(db),
      redis: () => redis.ping(),
      // The workers hold Redis connections of their own: one that is lost stops the jobs alone.
      ...(workers ? { workers: () => workers.ready() } : {}),
    }),
    routes: config.RUN_API ? routes : [],
  });
  const server = app.listen(options.port ?? config.PORT ?? 0, options.host ?? '127.0.0.1');
  server.keepAliveTimeout = 65_000;
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  log.info({ port, workers: workers?.workers.length ?? 0 }, `${def.name} service listening`);
  return { server, port };
}

/** Stops in order, once however often it is called: stop accepting, finish jobs, stop the relay, close connections. */
function closer(running: {
  server: Server;
  background: ReturnType<typeof startBackground>;
  parts: ServiceParts;
  relay: OutboxRelay;
  queues: QueueRegistry;
  redis: Redis;
  closeDatabase?: () => Promise<void>;
}): () => Promise<void> {
  const { server, background, parts, relay, queues, redis } = running;
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      background.reconcilers?.stop();
      await Promise.all(background.watchers.map((w) => w.stop()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await background.workers?.close();
      await parts.close?.();
      await relay.stop();
      await queues.close();
      redis.disconnect();
      await running.closeDatabase?.();
    })();
    return closing;
  };
}

/**
 * Starts a service: settings checked, database migrated, Redis, queues, outbox relay, the domain
 * built once, its workers and the HTTP server. Resolves once it is listening.
 */
export async function startService(def: ServiceDefinition, options: StartOptions): Promise<RunningService> {
  const { config } = options;
  requireSettings(config, def.requires ?? []);
  const log = options.log ?? createLogger({ name: def.name, level: config.LOG_LEVEL });
  const { conn, db, ownsDatabase } = await openStorage(def, config, log, options.database);
  const { redis, connection, queues, relay } = await connectQueues(def, config, log, db);
  const deps = serviceDeps(def, options, { log, db, conn, redis, queues, relay });

  const parts = def.build(deps);
  assertJobRegistry(def.name, parts.jobs);
  const runWorkers = options.runWorkers ?? config.RUN_WORKERS;
  const background = startBackground(def, parts, deps, { connection, runWorkers });
  const { server, port } = await listen(def, options, deps, parts.routes, background.workers);

  return {
    name: def.name,
    url: `http://127.0.0.1:${port}`,
    port,
    deps,
    server,
    workers: background.workers,
    reconcilers: background.reconcilers,
    close: closer({
      server,
      background,
      parts,
      relay,
      queues,
      redis,
      ...(ownsDatabase ? { closeDatabase: () => conn.close() } : {}),
    }),
  };
}

/** Stops the process cleanly on SIGINT/SIGTERM: `close` runs once; a second signal exits at once. */
export function onShutdown(close: () => Promise<void>, log: Logger): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      (err: Error) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

/**
 * Last-resort handlers for an entry point: a promise rejected with nobody listening is logged (the
 * request or job that lost it has already answered or will retry); an uncaught exception leaves the
 * process in an unknown state, so it is logged and the process exits 1 for its supervisor
 * (compose's `restart: unless-stopped`) to start a fresh one.
 */
export function installProcessGuards(log: Logger): void {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled promise rejection');
  });
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'uncaught exception; exiting');
    process.exitCode = 1;
    // Let the log line reach its destination before leaving.
    setImmediate(() => process.exit(1));
  });
}

/** Loads the configuration or exits 1 with every bad variable named, prefixed by the process name. */
export function loadConfigOrExit(processName: string, required: ReadonlyArray<keyof Config> = []): Config {
  try {
    const config = loadConfig();
    requireSettings(config, required);
    return config;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${processName}: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * The body of a service's own `main.ts` (distributed mode): load and check the configuration, start,
 * and stop cleanly on a signal. A configuration error names the variable and exits with status 1.
 */
export async function runMain(def: ServiceDefinition): Promise<void> {
  const config = loadConfigOrExit(def.name, def.requires);
  const log = createLogger({ name: def.name, level: config.LOG_LEVEL });
  installProcessGuards(log);
  try {
    const stopTracing = await startTracing(`haven-${def.name}`, config.OTEL_EXPORTER_OTLP_ENDPOINT);
    const running = await startService(def, { config, log, port: config.PORT ?? 3000, host: config.HOST });
    onShutdown(async () => {
      await running.close();
      await stopTracing?.();
    }, log);
  } catch (err) {
    log.fatal({ err }, 'start-up failed');
    process.exit(1);
  }
}
