import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '@haven/kit/db';
import { createLogger } from '@haven/kit/logger';
import { restoreBackup } from '../../services/portability/src/domain/backup/backups';
import { serviceSchemas } from '../../services/portability/src/domain/backup/schemas';

export const FIXTURES = path.join(import.meta.dirname, 'fixtures');

/** A release's fixture: the keys it was written with and what the API answered for each person. */
export function loadFixture(release: string) {
  const folder = path.join(FIXTURES, release);
  const read = (name: string) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as unknown;
  return {
    keys: read('env.json') as Record<string, string>,
    expected: read('expected.json') as Record<string, unknown>,
    /** Restores the fixture's database into `dataDir` (PGlite), with its release's migrations. */
    async restoreInto(dataDir: string): Promise<void> {
      const conn = await openDatabase({ dataDir });
      try {
        await restoreBackup({
          conn,
          input: createReadStream(path.join(folder, 'haven.backup.gz')),
          services: serviceSchemas(),
          log: createLogger({ name: 'fixture', level: 'silent' }),
        });
      } finally {
        await conn.close();
      }
    },
  };
}

/** Signs in through the API; a caller of the API as that person. */
export async function signIn(base: string, who: { email: string; password: string }) {
  const { apiFor } = await import('./make-fixture');
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: who.email, password: who.password }),
  });
  if (login.status !== 200) throw new Error(`${who.email} could not sign in: ${login.status}`);
  const session = login.headers.getSetCookie().find((c) => c.startsWith('haven_session='))!;
  return apiFor(base, session.split(';')[0]!);
}
