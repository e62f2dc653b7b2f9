import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A data folder the product has started on once and closed: its embedded database made and every
 * migration applied. Creating and migrating PGlite takes ~6 s of one core; the browser tests start the
 * product some forty times, each on a copy of this folder (0.3 s), so a test run makes it once (its
 * global setup, through `HAVEN_TEST_DATA_TEMPLATE`). What each test then does starts from the state
 * `npm start` leaves on a first start with nothing in it.
 */
export const DATA_TEMPLATE_ENV = 'HAVEN_TEST_DATA_TEMPLATE';

/**
 * The product's environment in the tests: as `npm start` runs it (embedded PGlite in `dataDir`, the
 * machine's Redis under a key prefix of its own), quiet, on the loopback interface.
 */
export function testProductEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATA_DIR: dataDir,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `e2e${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    // No nightly backup in the middle of a test (test/backup.test.ts turns them on).
    BACKUP_URL: '',
  };
}

/** Starts and stops the product on a new folder; the folder. */
export async function makeDataTemplate(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'haven-template-'));
  // Loaded here only: the browser tests import this file for its helpers, not the product's source.
  const { startAllInOne } = await import('../../scripts/all-in-one');
  const app = await startAllInOne(testProductEnv(dataDir), { port: 0 });
  await app.close();
  return dataDir;
}

/** Fills `dataDir` from the run's template when there is one (else the product makes it anew). */
export function fromDataTemplate(dataDir: string): void {
  const template = process.env[DATA_TEMPLATE_ENV];
  if (template && existsSync(path.join(template, 'pgdata'))) cpSync(template, dataDir, { recursive: true });
}

// Run as a script (by the global setup, so the product's code stays out of vitest's own process):
// prints the folder.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await makeDataTemplate());
  process.exit(0);
}
