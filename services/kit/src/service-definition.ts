import type { Server } from 'node:http';
import type { ServiceName } from '@haven/contracts/routes';
import type { Config } from './config';
import type { FieldCipher } from './crypto';
import type { DatabaseConnection, Db } from './db';
import type { ContractRoutes } from './http';
import type { InternalClients, ServiceUrls } from './internal-client';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { OutboxTable } from './outbox-table';
import type { JobDefinition, QueueRegistry, WorkerSet } from './queue';
import type { PeriodicTask, ReconcilerDefinition, Reconcilers } from './reconciler';
import type { Redis } from './redis';
import type { UnitOfWork } from './unit-of-work';

/*
 * What a service is to the runner (service.ts): its definition, the dependencies its composition
 * root gets, the parts it hands back, and the running service.
 */

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
