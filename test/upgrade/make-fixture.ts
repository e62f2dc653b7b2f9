/**
 * Makes this release's upgrade fixture: `npx tsx test/upgrade/make-fixture.ts <release>` writes
 * test/upgrade/fixtures/<release>/ with
 *   haven.backup.gz   the database after writeJournal() (and connectGoogle()) through the API (a Haven backup file)
 *   env.json          the keys it was written with (made for the fixture; they guard nothing else)
 *   expected.json     what the API answered for each person, which every later release must answer too
 * Each release adds its own; test/upgrade.test.ts restores every one with the current code.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { keyIdOf } from '@haven/kit/crypto';
import { openDatabase } from '@haven/kit/db';
import { createLogger } from '@haven/kit/logger';
import { startAllInOne } from '../../scripts/all-in-one';
import { createBackups } from '../../services/portability/src/domain/backup/backups';
import { serviceSchemas } from '../../services/portability/src/domain/backup/schemas';
import { directoryStore } from '../../services/portability/src/domain/backup/store';
import { startGoogleDouble } from '../doubles/google-server';
import { startSmtpCatcher } from '../doubles/smtp-catcher';
import { createAccount } from '../e2e/harness';
import { testProductEnv } from '../support/data-template';
import { connectGoogle, PEOPLE, readJournal, writeJournal } from './journal';

/** A signed-in caller of the product's API. */
export function apiFor(base: string, cookie: string) {
  return async (method: string, p: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(base + p, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    const type = res.headers.get('content-type') ?? '';
    return type.includes('json') ? res.json() : Buffer.from(await res.arrayBuffer()).toString('base64');
  };
}

async function main(release: string) {
  const out = path.join(import.meta.dirname, 'fixtures', release);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'haven-fixture-'));
  const keys = {
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    INTERNAL_SECRET: randomBytes(32).toString('hex'),
  };
  const smtp = await startSmtpCatcher();
  // Tokens that outlive the fixture: a later start has no Google to refresh them with.
  const google = await startGoogleDouble({ accessTokenSeconds: 20 * 365 * 86_400 });
  const app = await startAllInOne(
    {
      ...testProductEnv(dataDir),
      ...keys,
      ...google.env,
      SMTP_URL: smtp.url,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    },
    { port: 0 },
  );
  const expected: Record<string, unknown> = {};
  try {
    for (const [i, who] of PEOPLE.entries()) {
      const c = await createAccount(app.url, smtp, who);
      const api = apiFor(app.url, `${c.name}=${c.value}`);
      await writeJournal(api, who, i);
      if (i === 0) await connectGoogle(api, google, app.url);
      expected[who.email] = await readJournal(api);
    }
  } finally {
    await app.close();
    await smtp.stop();
    await google.stop();
  }
  const conn = await openDatabase({ dataDir });
  const log = createLogger({ name: 'fixture', level: 'warn' });
  const store = directoryStore(path.join(dataDir, 'backups'));
  const keyId = keyIdOf(Buffer.from(keys.DATA_ENCRYPTION_KEY, 'base64'));
  const backups = createBackups({ conn, store, services: serviceSchemas(), keep: 1, keyId, log });
  const file = await backups.take(new Date());
  await conn.close();
  mkdirSync(out, { recursive: true });
  copyFileSync(path.join(store.location, file.name), path.join(out, 'haven.backup.gz'));
  writeFileSync(path.join(out, 'env.json'), `${JSON.stringify(keys, null, 2)}\n`);
  writeFileSync(path.join(out, 'expected.json'), `${JSON.stringify(expected, null, 2)}\n`);
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`fixture ${release}: ${file.size} bytes of backup, ${PEOPLE.length} people, in ${out}`);
}

if (process.argv[1] && /make-fixture\.ts$/.test(process.argv[1])) {
  const release = process.argv[2];
  if (!release) throw new Error('Usage: npx tsx test/upgrade/make-fixture.ts <release, e.g. 2026-11-28>');
  void main(release).then(() => process.exit(0));
}
