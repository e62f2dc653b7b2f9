/**
 * Helpers for tests that talk to real PostgreSQL (or PGlite) and real Redis. Imported by tests only.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig, type Config } from './config';
import { openDatabase, type DatabaseConnection } from './db';
import { signInternalToken } from './internal-auth';
import { createLogger, type Logger } from './logger';
import { freePort } from './net';
import { startService, type RunningService, type ServiceDefinition } from './service';
import type { Caller } from '@haven/contracts/contract';
import { INTERNAL_TOKEN_HEADER, SESSION_COOKIE, type ServiceName } from '@haven/contracts/routes';
import { connectRedis, createRedis } from './redis';
import { createSessionStore } from './sessions';

/** A complete test configuration: fresh secrets, a private Redis key prefix, silent logs. */
export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `t${randomBytes(6).toString('hex')}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    INTERNAL_SECRET: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: 'memory://',
    ...overrides,
  });
}

/** Creates an empty database on the server at `adminUrl`; `drop()` removes it (forcing out clients). */
export async function createScratchDatabase(
  adminUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `haven_test_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * A database of its own for one test file: a fresh database on the server named by DATABASE_URL
 * (dropped afterwards), or an in-memory PGlite when none is given.
 */
export async function createTestDatabase(): Promise<{
  connection: DatabaseConnection;
  url?: string;
  drop(): Promise<void>;
}> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const connection = await openDatabase({ dataDir: 'memory://' });
    return { connection, drop: () => connection.close() };
  }
  const scratch = await createScratchDatabase(adminUrl);
  const connection = await openDatabase({ url: scratch.url, poolSize: 5 });
  return {
    connection,
    url: scratch.url,
    async drop() {
      await connection.close();
      await scratch.drop();
    },
  };
}

/** Starts one service on a free port with its own test database. */
export async function startTestService(
  def: ServiceDefinition,
  overrides: Record<string, string | undefined> = {},
  options: { log?: Logger } = {},
): Promise<
  RunningService & {
    config: Config;
    /** Internal headers for a call to this service on behalf of `userId`. */
    headers(userId: number | null, caller?: Caller): Record<string, string>;
    stop(): Promise<void>;
  }
> {
  const config = testConfig(overrides);
  const database = await createTestDatabase();
  const running = await startService(def, {
    config,
    database: database.connection,
    port: 0,
    log: options.log ?? createLogger({ name: def.name, level: 'silent' }),
  });
  return {
    ...running,
    config,
    headers: (userId, caller) => internalHeaders(config, userId, def.name, caller),
    async stop() {
      await running.close();
      await database.drop();
    },
  };
}

/** Headers a trusted hop (the gateway unless `caller` says which service) sends `audience` for `userId`. */
export function internalHeaders(
  config: Config,
  userId: number | null,
  audience: ServiceName,
  caller: Caller = 'gateway',
): Record<string, string> {
  return {
    [INTERNAL_TOKEN_HEADER]: signInternalToken(config.INTERNAL_SECRET, { userId, audience, caller }),
  };
}

/** Polls `check` until it is true (or resolves true), failing after `ms`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  ms = 15_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${what} not reached within ${ms} ms`);
}

export { freePort } from './net';

/**
 * A private redis-server on its own port, which a test can stop and start again to simulate an
 * outage. It keeps nothing on disk.
 */
export async function startPrivateRedis(): Promise<{
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ReturnType<typeof spawn> | undefined;
  const waitFor = async (up: boolean) => {
    for (let i = 0; i < 100; i++) {
      const ok = await new Promise<boolean>((resolve) => {
        const probe = spawn('redis-cli', ['-p', String(port), 'ping'], {
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        let out = '';
        probe.stdout.on('data', (d: Buffer) => (out += d.toString()));
        probe.on('exit', () => resolve(out.includes('PONG')));
      });
      if (ok === up) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`private redis did not ${up ? 'start' : 'stop'}`);
  };
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await waitFor(true);
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    await waitFor(false);
  };
  await start();
  return { url, start, stop };
}

/** A signed-in user's Cookie header, as the auth service would have set it (tests and benchmarks). */
export async function sessionCookie(config: Config, userId: number): Promise<string> {
  const redis = createRedis(config.REDIS_URL);
  try {
    await connectRedis(redis, config.REDIS_URL);
    const store = createSessionStore(redis, { prefix: config.REDIS_PREFIX, jwtSecret: config.JWT_SECRET! });
    const { token } = await store.create(userId);
    return `${SESSION_COOKIE}=${token}`;
  } finally {
    redis.disconnect();
  }
}

/**
 * Several services sharing one configuration (so their internal tokens verify across them) and one
 * test database (each in its own schema), finding each other by name: what a service that reads
 * another's internal API needs in a test.
 */
export async function startTestServices(
  defs: ServiceDefinition[],
  overrides: Record<string, string | undefined> = {},
  options: { log?: Logger } = {},
) {
  const config = testConfig(overrides);
  const database = await createTestDatabase();
  const urls = {} as Record<ServiceName, string>;
  const running: RunningService[] = [];
  try {
    for (const def of defs) {
      const service = await startService(def, {
        config,
        database: database.connection,
        port: 0,
        log: options.log ?? createLogger({ name: def.name, level: 'silent' }),
        serviceUrls: () => urls,
      });
      urls[def.name] = service.url;
      running.push(service);
    }
  } catch (err) {
    for (const s of running.reverse()) await s.close();
    await database.drop();
    throw err;
  }
  const byName = (name: ServiceName) => {
    const service = running.find((s) => s.name === name);
    if (!service) throw new Error(`${name} is not running in this test`);
    return service;
  };
  return {
    config,
    /** The shared database connection (to start another instance of a service on it). */
    database: database.connection,
    /** Its URL when it is a PostgreSQL server (another process can reach it), undefined for PGlite. */
    databaseUrl: database.url,
    /** Where each service listens (to start another instance that finds the others). */
    urls: () => urls,
    services: running,
    get: byName,
    /** Internal headers for a call to `target` on behalf of `userId` (from the gateway by default). */
    headers: (target: ServiceName, userId: number | null, caller: Caller = 'gateway') =>
      internalHeaders(config, userId, target, caller),
    /** Calls a service's public route as the gateway would for `userId`; the JSON answer, parsed. */
    async call(target: ServiceName, userId: number, method: string, path: string, body?: unknown) {
      const res = await fetch(byName(target).url + path, {
        method,
        headers: {
          ...internalHeaders(config, userId, target),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
    async stop() {
      for (const s of [...running].reverse()) await s.close();
      await database.drop();
    },
  };
}

/**
 * Milliseconds of CPU this process spends running `f` (user and system). Bounds on how long a
 * parser takes use it rather than the wall clock: the machine's other load (parallel test files)
 * stretches wall time several times over, but hardly the CPU time the work itself needs.
 */
export function cpuMs(f: () => unknown): number {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
