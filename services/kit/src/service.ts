import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { queuesConsumedBy } from '@haven/contracts/jobs';
import type { ServiceName } from '@haven/contracts/routes';
import { ConfigError, loadConfig, requireSettings, type Config } from './config';
import { createFieldCipher, type FieldCipher } from './crypto';
import { drizzleOf, openDatabase, pingDatabase, runMigrations, type DatabaseConnection, type Db } from './db';
import { healthRouter } from './health';
import { createServiceApp, type ContractRoutes } from './http';
import {
  createInternalClients,
  serviceUrlsFrom,
  type InternalClients,
  type ServiceUrls,
} from './internal-client';
import { createLogger, type Logger } from './logger';
import { startTracing } from './tracing';
import { createMetrics, type Metrics } from './metrics';
import { deleteSentEvents, outboxBacklog, startOutboxRelay } from './outbox';
import type { OutboxTable } from './outbox-table';
import { assertJobRegistry, QueueRegistry, startWorkers, type JobDefinition, type WorkerSet } from './queue';
import {
  startReconcilers,
  type PeriodicTask,
  type ReconcilerDefinition,
  type Reconcilers,
} from './reconciler';
import { checkEvictionPolicy, connectRedis, createRedis, type Redis } from './redis';
import { createUnitOfWork, type UnitOfWork } from './unit-of-work';

/** What a service's domain is built from; wired once, passed in, never imported globally. */
export interface ServiceDeps {
  config: Config;
  log: Logger;
  db: Db;
  /** The connection behind `db` (a backup reads the whole database through it). */
  connection: DatabaseConnection;
  redis: Redis;
  queues: QueueRegistry;
  cipher: FieldCipher;
  /** Writes data and its outbox events in one transaction, and publishes them after the commit. */
  uow: UnitOfWork;
  /** Typed clients for other services' internal routes, signed as this service. */
  internal: InternalClients;
  /** This service's Prometheus series (its own registry, served at `/metrics`). */
  metrics: Metrics;
}

/** What the composition root hands the runner: the routes to mount and the queue tasks to run. */
export interface ServiceParts {
  routes: ContractRoutes[];
  jobs: JobDefinition[];
  /** Queries that find work whose job was lost, and queue it again (run where workers run). */
  reconcilers?: ReconcilerDefinition[];
  /** Periodic work (sweeps, clean-ups): once per interval across replicas, where workers run. */
  periodic?: PeriodicTask[];
  /**
   * Long-lived work of each process that runs workers (held connections that wait for a provider's
   * push), started with the workers and stopped before them.
   */
  watchers?: Watcher[];
  /** Runs when the service stops, before its connections close. */
  close?(): Promise<void>;
}

/** Work a worker process keeps running (see `ServiceParts.watchers`). */
export interface Watcher {
  name: string;
  start(): void;
  stop(): Promise<void>;
}

/** A service as the runner sees it: its name, migrations, outbox and composition root. */
export interface ServiceDefinition {
  name: ServiceName;
  /** Absolute path of the drizzle-kit migrations folder. */
  migrationsFolder: string;
  outboxTable: OutboxTable;
  /** Settings this service cannot run without, beyond those every service needs. */
  requires?: ReadonlyArray<keyof Config>;
  /** JSON body limit of the service, e.g. '15mb' where audio is uploaded. */
  jsonLimit?: string;
  /** The composition root: builds the domain once from the dependencies, for routes and jobs alike. */
  build(deps: ServiceDeps): ServiceParts;
}

export interface RunningService {
  name: ServiceName;
  url: string;
  port: number;
  deps: ServiceDeps;
  server: Server;
  workers?: WorkerSet;
  reconcilers?: Reconcilers;
  /** Stops in order: stop accepting, finish jobs, stop the relay, close connections. */
  close(): Promise<void>;
}

export interface StartOptions {
  config: Config;
  port?: number;
  host?: string;
  /** A connection opened by the caller (the all-in-one launcher shares one PGlite). */
  database?: DatabaseConnection;
  log?: Logger;
  runWorkers?: boolean;
  /** Where the other services are; defaults to the *_URL settings. */
  serviceUrls?: ServiceUrls;
}

/**
 * Starts a service: settings checked, database migrated, Redis, queues, outbox relay, the domain
 * built once, its workers and the HTTP server. Resolves once it is listening.
 */
export async function startService(def: ServiceDefinition, options: StartOptions): Promise<RunningService> {
  const { config } = options;
  requireSettings(config, def.requires ?? []);
  const log = options.log ?? createLogger({ name: def.name, level: config.LOG_LEVEL });
  const ownsDatabase = !options.database;
  const conn =
    options.database ?? (await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, log }));
  await runMigrations(conn, def.name, def.migrationsFolder);
  const db = drizzleOf(conn);

  const redis = createRedis(config.REDIS_URL);
  await connectRedis(redis, config.REDIS_URL);
  await checkEvictionPolicy(redis, log);
  const connection = {
    redisUrl: config.REDIS_URL,
    prefix: config.REDIS_PREFIX,
    backoffMs: config.JOB_BACKOFF_MS,
    lockMs: config.JOB_LOCK_MS,
  };
  const queues = new QueueRegistry(connection);
  const relay = startOutboxRelay({ db, table: def.outboxTable, queues, log });
  const metrics = createMetrics(def.name, {
    queues: () => queues.counts(queuesConsumedBy(def.name)),
    outbox: () => outboxBacklog(db, def.outboxTable),
  });
  const urls = options.serviceUrls ?? (() => serviceUrlsFrom(config));
  const deps: ServiceDeps = {
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

  const parts = def.build(deps);
  assertJobRegistry(def.name, parts.jobs);
  const runWorkers = options.runWorkers ?? config.RUN_WORKERS;
  const workers =
    runWorkers && parts.jobs.length > 0 ? startWorkers(parts.jobs, connection, log, metrics) : undefined;
  // Every service keeps its outbox small: published events go after the retention period.
  const periodic: PeriodicTask[] = [
    ...(parts.periodic ?? []),
    {
      name: `${def.name}-outbox-cleanup`,
      everyMs: 3_600_000,
      run: async () => {
        const deleted = await deleteSentEvents(db, def.outboxTable);
        if (deleted) log.info({ deleted }, 'published outbox events deleted');
      },
    },
  ];
  const reconcilers = runWorkers
    ? startReconcilers(parts.reconcilers ?? [], { queues, redis, prefix: config.REDIS_PREFIX, log }, periodic)
    : undefined;
  const watchers = runWorkers ? (parts.watchers ?? []) : [];
  for (const watcher of watchers) watcher.start();

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
    routes: config.RUN_API ? parts.routes : [],
  });
  const server = app.listen(options.port ?? config.PORT ?? 0, options.host ?? '127.0.0.1');
  server.keepAliveTimeout = 65_000;
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  log.info({ port, workers: workers?.workers.length ?? 0 }, `${def.name} service listening`);

  let closing: Promise<void> | undefined;
  return {
    name: def.name,
    url: `http://127.0.0.1:${port}`,
    port,
    deps,
    server,
    workers,
    reconcilers,
    close() {
      closing ??= (async () => {
        reconcilers?.stop();
        await Promise.all(watchers.map((w) => w.stop()));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await workers?.close();
        await parts.close?.();
        await relay.stop();
        await queues.close();
        redis.disconnect();
        if (ownsDatabase) await conn.close();
      })();
      return closing;
    },
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
