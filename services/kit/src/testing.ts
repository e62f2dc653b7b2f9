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
import { INTERNAL_TOKEN_HEADER } from '@haven/contracts/routes';

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
): Promise<RunningService & { config: Config; stop(): Promise<void> }> {
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
    async stop() {
      await running.close();
      await database.drop();
    },
  };
}

/** Headers a trusted hop would send for `userId`. */
export function internalHeaders(config: Config, userId: number | null): Record<string, string> {
  return {
    [INTERNAL_TOKEN_HEADER]: signInternalToken(config.INTERNAL_SECRET, { userId }),
  };
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
