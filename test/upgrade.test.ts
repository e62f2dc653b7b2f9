/**
 * Upgrades never lose or strand data: every release's fixture (test/upgrade/fixtures/<release>: a
 * database written through the API by that release, as a backup file) is restored with that
 * release's migrations, the current code starts on it and runs its own, and every person's journal
 * must read back through the API exactly as that release answered. A release that changes what the
 * API answers for old data on purpose updates the older fixtures' expected.json, in the same commit.
 */
import { readdirSync, readFileSync, createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openDatabase } from '@haven/kit/db';
import { createLogger } from '@haven/kit/logger';
import { startAllInOne } from '../scripts/all-in-one';
import { restoreBackup } from '../services/portability/src/domain/backup/backups';
import { serviceSchemas } from '../services/portability/src/domain/backup/schemas';
import { testProductEnv } from './support/data-template';
import { PEOPLE, readJournal } from './upgrade/journal';
import { apiFor } from './upgrade/make-fixture';

vi.setConfig({ testTimeout: 120_000 });

const FIXTURES = path.join(import.meta.dirname, 'upgrade', 'fixtures');
const releases = readdirSync(FIXTURES).sort();

describe('upgrading from an earlier release', () => {
  it('has a fixture of this release at least', () => {
    expect(releases.length).toBeGreaterThan(0);
  });

  it.each(releases)('reads back everything written by release %s', async (release) => {
    const folder = path.join(FIXTURES, release);
    const keys = JSON.parse(readFileSync(path.join(folder, 'env.json'), 'utf8')) as Record<string, string>;
    const expected = JSON.parse(readFileSync(path.join(folder, 'expected.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const dataDir = mkdtempSync(path.join(tmpdir(), `haven-upgrade-${release}-`));
    try {
      const conn = await openDatabase({ dataDir });
      try {
        await restoreBackup({
          conn,
          input: createReadStream(path.join(folder, 'haven.backup.gz')),
          services: serviceSchemas(),
          log: createLogger({ name: 'upgrade', level: 'silent' }),
        });
      } finally {
        await conn.close();
      }
      const app = await startAllInOne({ ...testProductEnv(dataDir), ...keys }, { port: 0 });
      try {
        for (const who of PEOPLE) {
          const login = await fetch(`${app.url}/api/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: who.email, password: who.password }),
          });
          expect(login.status, `${who.email} signs in`).toBe(200);
          const session = login.headers.getSetCookie().find((c) => c.startsWith('haven_session='))!;
          const journal = await readJournal(apiFor(app.url, session.split(';')[0]!));
          expect(journal).toEqual(expected[who.email]);
        }
      } finally {
        await app.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
