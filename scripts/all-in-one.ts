/**
 * `npm start`: the whole product in one Node process. Every service (with its workers) listens on its
 * own internal port behind the gateway, exactly as in the distributed stack; the embedded default
 * database is PGlite under DATA_DIR, shared by all services through one connection.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_NAMES, type ServiceName } from '@haven/contracts/routes';
import { ConfigError, loadConfig, type Config } from '@haven/kit/config';
import { openDatabase } from '@haven/kit/db';
import { claimDataDir, DataDirBusy } from '@haven/kit/instance-lock';
import { createLogger } from '@haven/kit/logger';
import { startTracing } from '@haven/kit/tracing';
import { reservePort } from '@haven/kit/net';
import { repoPath } from '@haven/kit/paths';
import {
  installProcessGuards,
  onShutdown,
  startService,
  type RunningService,
  type ServiceDefinition,
} from '@haven/kit/service';
import { startGateway } from '@haven/gateway/start';
import { assistantService } from '@haven/assistant/service';
import { authService } from '@haven/auth/service';
import { insightsService } from '@haven/insights/service';
import { integrationsService } from '@haven/integrations/service';
import { portabilityService } from '@haven/portability/service';
import { thoughtsService } from '@haven/thoughts/service';
import { ensureLocalSecrets, keyNotice, type LocalSecrets } from './local-secrets';
import { ensureRedis } from './redis-finder';

const SERVICES: Record<ServiceName, ServiceDefinition> = {
  auth: authService,
  thoughts: thoughtsService,
  insights: insightsService,
  assistant: assistantService,
  integrations: integrationsService,
  portability: portabilityService,
};

export interface AllInOne {
  url: string;
  /** Where the generated secrets are, and whether the journal's key was made by this start. */
  secrets: LocalSecrets;
  services: RunningService[];
  close(): Promise<void>;
}

/** Starts everything; used by `npm start` and by the end-to-end tests. */
export async function startAllInOne(
  env: NodeJS.ProcessEnv = process.env,
  options: { port?: number } = {},
): Promise<AllInOne> {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  mkdirSync(dataDir, { recursive: true });
  env.DATA_DIR = dataDir;
  // PGlite has no lock of its own: two processes on one folder would corrupt it.
  const release = env.DATABASE_URL ? () => undefined : claimDataDir(dataDir);
  const secrets = ensureLocalSecrets(env, dataDir);
  // Nightly backups of the journal, beside it unless told otherwise (README, "Backups"); an empty
  // BACKUP_URL turns them off.
  env.BACKUP_URL ??= path.join(dataDir, 'backups');
  // E-mailed links need the public address; without APP_URL it is this machine's gateway port.
  let port = options.port ?? (env.PORT ? Number(env.PORT) : 8080);
  // A free port is held while the services start, so no other process takes it meanwhile.
  const held = port === 0 ? await reservePort() : undefined;
  if (held) port = held.port;
  env.APP_URL ||= `http://localhost:${port}`;
  // The product, not a development server: answers are not re-checked against their schemas
  // (the tests run with NODE_ENV=test, which checks them).
  env.NODE_ENV ||= 'production';
  const config: Config = loadConfig(env);
  // A person at a terminal reads lines; anything else (a file, a collector) gets JSON.
  const log = createLogger({ name: 'haven', level: config.LOG_LEVEL, pretty: process.stdout.isTTY });
  const stopTracing = await startTracing('haven', config.OTEL_EXPORTER_OTLP_ENDPOINT);

  const redis = await ensureRedis(config.REDIS_URL, dataDir);
  // PGlite is one connection per process: open it once for every service. With DATABASE_URL each
  // service opens its own pool, as it would in its own container.
  const database = config.DATABASE_URL ? undefined : await openDatabase({ dataDir });
  const services: RunningService[] = [];
  const stopAll = async () => {
    process.off('SIGUSR2', backupNow);
    for (const s of services.reverse()) await s.close();
    await database?.close();
    await redis.stop();
    await stopTracing?.();
    release();
  };
  // `npm run backup` while this runs: the one process that may open the PGlite folder takes it.
  const backupNow = () => {
    const portability = services.find((s) => s.name === 'portability');
    portability?.deps.queues
      .add('backup.run', { at: new Date().toISOString() })
      .catch((err: unknown) => log.error({ err }, 'could not queue the backup asked for'));
  };
  process.on('SIGUSR2', backupNow);
  // Filled as the services start; internal calls read it when they are made, after start-up.
  const urls = {} as Record<ServiceName, string>;
  try {
    for (const name of SERVICE_NAMES) {
      const def = SERVICES[name];
      const running = await startService(def, {
        // One process, but each service is handed only the secrets it may hold: JWT_SECRET goes to
        // auth (and the gateway) alone, as it would in its own container.
        config: def.requires?.includes('JWT_SECRET') ? config : { ...config, JWT_SECRET: undefined },
        database,
        log: log.child({ service: name }),
        port: 0,
        host: '127.0.0.1',
        serviceUrls: () => urls,
      });
      services.push(running);
      urls[name] = running.url;
    }
    await held?.release();
    const gateway = await startGateway({
      config,
      services: urls,
      port,
      host: config.HOST,
      staticDir: config.STATIC_DIR ?? repoPath('frontend', 'dist'),
      log: log.child({ service: 'gateway' }),
    });
    log.info(
      {
        gateway: gateway.metricsUrl,
        services: Object.fromEntries(services.map((s) => [s.name, `${s.url}/metrics`])),
      },
      'Prometheus metrics (this machine only)',
    );
    return {
      url: gateway.url,
      secrets,
      services,
      close: async () => {
        await gateway.close();
        await stopAll();
      },
    };
  } catch (err) {
    await held?.release();
    await stopAll().catch(() => undefined);
    throw err;
  }
}

/** Text cut into indented lines of at most 78 characters, for a terminal. */
function wrapped(text: string): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + word.length < 76) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => `  ${line}`).join('\n');
}

async function main() {
  try {
    const log = createLogger({ name: 'haven', pretty: process.stdout.isTTY });
    installProcessGuards(log);
    const app = await startAllInOne();
    const shown = process.env.APP_URL ?? app.url.replace('127.0.0.1', 'localhost');
    process.stdout.write(`\n  Haven is running at ${shown}\n  (Ctrl-C stops it)\n\n`);
    if (app.secrets.keyCreated) process.stdout.write(`${wrapped(keyNotice(app.secrets.file))}\n\n`);
    onShutdown(() => app.close(), log);
  } catch (err) {
    const known = err instanceof ConfigError || err instanceof DataDirBusy;
    const message = known ? (err as Error).message : `Start-up failed: ${(err as Error).message}`;
    process.stderr.write(`\n${message}\n`);
    process.exit(1);
  }
}

if (process.argv[1] && /all-in-one\.(ts|js)$/.test(process.argv[1])) void main();
