import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Router } from 'express';
import type { ServiceName } from '@haven/contracts/routes';
import { ConfigError, loadConfig, type Config } from './config';
import { createFieldCipher, type FieldCipher } from './crypto';
import { drizzleOf, openDatabase, pingDatabase, runMigrations, type DatabaseConnection, type Db } from './db';
import { healthRouter } from './health';
import { createServiceApp } from './http';
import { createLogger, type Logger } from './logger';
import { startOutboxRelay, type OutboxRelay } from './outbox';
import type { OutboxTable } from './outbox-table';
import { QueueRegistry, startWorkers, type JobDefinition, type WorkerSet } from './queue';
import { connectRedis, createRedis, type Redis } from './redis';
import { createSessionStore, type SessionStore } from './sessions';

/** What a service's routes and jobs are built from; wired once, passed in, never imported globally. */
export interface ServiceDeps {
  config: Config;
  log: Logger;
  db: Db;
  redis: Redis;
  queues: QueueRegistry;
  cipher: FieldCipher;
  sessions: SessionStore;
  /** Present when the service has an outbox: call `kick()` after committing an event. */
  outbox?: OutboxRelay;
}

/** A service as the runner sees it: its name, migrations, outbox, routes and queue tasks. */
export interface ServiceDefinition {
  name: ServiceName;
  /** Absolute path of the drizzle-kit migrations folder. */
  migrationsFolder: string;
  outboxTable?: OutboxTable;
  /** JSON body limit of the service, e.g. '15mb' where audio is uploaded. */
  jsonLimit?: string;
  /** Adds the service's routes; called once with the wired dependencies. */
  routes(router: Router, deps: ServiceDeps): void;
  /** Queue tasks this service's workers run. */
  jobs(deps: ServiceDeps): JobDefinition[];
}

export interface RunningService {
  name: string;
  url: string;
  port: number;
  deps: ServiceDeps;
  server: Server;
  workers?: WorkerSet;
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
}

/** Builds the Express app of a service from its definition and dependencies (tests use this). */
export function buildServiceApp(def: ServiceDefinition, deps: ServiceDeps) {
  return createServiceApp({
    name: def.name,
    log: deps.log,
    internalSecret: deps.config.INTERNAL_SECRET,
    jsonLimit: def.jsonLimit,
    health: healthRouter(def.name, {
      database: () => pingDatabase(deps.db),
      redis: () => deps.redis.ping(),
    }),
    routes: (router) => def.routes(router, deps),
  });
}

/**
 * Starts a service: database (migrated), Redis, queues, outbox relay, workers and the HTTP server.
 * Resolves once it is listening.
 */
export async function startService(def: ServiceDefinition, options: StartOptions): Promise<RunningService> {
  const { config } = options;
  const log = options.log ?? createLogger({ name: def.name, level: config.LOG_LEVEL });
  const ownsDatabase = !options.database;
  const conn =
    options.database ?? (await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR }));
  await runMigrations(conn, def.name, def.migrationsFolder);
  const db = drizzleOf(conn);

  const redis = createRedis(config.REDIS_URL);
  await connectRedis(redis, config.REDIS_URL);
  const connection = { redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX };
  const queues = new QueueRegistry(connection);
  const outbox = def.outboxTable ? startOutboxRelay({ db, table: def.outboxTable, queues, log }) : undefined;
  const deps: ServiceDeps = {
    config,
    log,
    db,
    redis,
    queues,
    outbox,
    cipher: createFieldCipher(
      config.DATA_ENCRYPTION_KEY,
      config.DATA_ENCRYPTION_OLD_KEYS?.split(',').filter(Boolean),
    ),
    sessions: createSessionStore(redis, { prefix: config.REDIS_PREFIX, jwtSecret: config.JWT_SECRET }),
  };

  const runWorkers = options.runWorkers ?? config.RUN_WORKERS;
  const jobs = def.jobs(deps);
  const workers = runWorkers && jobs.length > 0 ? startWorkers(jobs, connection, log) : undefined;

  const app = buildServiceApp(def, deps);
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
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await workers?.close();
        await outbox?.stop();
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
 * The body of a service's own `main.ts` (distributed mode): load and check the configuration, start,
 * and stop cleanly on a signal. A configuration error names the variable and exits with status 1.
 */
export async function runMain(def: ServiceDefinition): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${def.name}: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger({ name: def.name, level: config.LOG_LEVEL });
  try {
    const running = await startService(def, { config, log, port: config.PORT ?? 3000, host: config.HOST });
    onShutdown(() => running.close(), log);
  } catch (err) {
    log.fatal({ err: (err as Error).message }, 'start-up failed');
    process.exit(1);
  }
}
