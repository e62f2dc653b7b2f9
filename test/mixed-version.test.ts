/**
 * A rolling update runs both versions at once: replicas of the previous commit keep serving (and
 * taking queued work) on a database the new code has already migrated. Here the previous commit
 * (PREVIOUS_VERSION, default HEAD^: run it with the release you have deployed before rolling out) is
 * built from git and started beside the current code on one PostgreSQL database and one Redis: a
 * person signs up and writes a whole journal through each version, and both versions must read
 * both journals alike. Migrations that drop or rename what the old code still uses fail here (and
 * in test/migrations.test.ts, which asks for them to be a marked contract step).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScratchDatabase } from '@haven/kit/testing';
import type { AllInOne } from '../scripts/all-in-one';
import { startAllInOne } from './support/bundle';
import { startGoogleDouble } from './doubles/google-server';
import { startSmtpCatcher } from './doubles/smtp-catcher';
import { createAccount } from './e2e/harness';
import { testProductEnv } from './support/data-template';
import { signIn } from './upgrade/fixture';
import { connectGoogle, PEOPLE, readJournal, writeJournal } from './upgrade/journal';
import { apiFor } from './upgrade/make-fixture';
import { buildPreviousVersion, commitOf, startPreviousVersion, subjectOf } from './upgrade/previous-version';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const previous = commitOf(process.env.PREVIOUS_VERSION ?? 'HEAD^');

/** Both answers cut to what they have in common: a field one version added or dropped is not compared. */
function shared(a: unknown, b: unknown): [unknown, unknown] {
  if (Array.isArray(a) && Array.isArray(b)) {
    const pairs = a.map((x, i) => shared(x, b[i]));
    return [
      pairs.map((p) => p[0]).concat(a.slice(b.length)),
      pairs.map((p) => p[1]).concat(b.slice(a.length)),
    ];
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a).filter((k) => k in b);
    const pairs = keys.map((k) =>
      shared((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    );
    return [
      Object.fromEntries(keys.map((k, i) => [k, pairs[i]![0]])),
      Object.fromEntries(keys.map((k, i) => [k, pairs[i]![1]])),
    ];
  }
  return [a, b];
}

describe.runIf(process.env.DATABASE_URL)('the previous commit beside this one (a rolling update)', () => {
  if (!previous) {
    // A clone without history (git clone --depth 1) or without git: said, not passed in silence.
    it.skip(`needs the previous commit (${process.env.PREVIOUS_VERSION ?? 'HEAD^'}) in git history`);
    return;
  }
  const root = mkdtempSync(path.join(tmpdir(), 'haven-mixed-'));
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  let google: Awaited<ReturnType<typeof startGoogleDouble>>;
  let current: AllInOne | undefined;
  let old: Awaited<ReturnType<typeof startPreviousVersion>> | undefined;

  beforeAll(async () => {
    buildPreviousVersion(previous, path.join(root, 'previous'));
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    smtp = await startSmtpCatcher();
    google = await startGoogleDouble();
    // One database, one Redis (one key prefix: both versions' workers take the same queues), the same keys.
    const together = {
      REDIS_PREFIX: `mixed${randomBytes(4).toString('hex')}`,
      DATABASE_URL: scratch.url,
      SMTP_URL: smtp.url,
      ...google.env,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      JWT_SECRET: randomBytes(32).toString('hex'),
      INTERNAL_SECRET: randomBytes(32).toString('hex'),
    };
    // The new code first: its migrations run, then the old code starts on the migrated schema.
    current = await startAllInOne(
      { ...testProductEnv(path.join(root, 'current')), ...together },
      { port: 0 },
    );
    old = await startPreviousVersion(path.join(root, 'previous'), {
      ...testProductEnv(path.join(root, 'previous-data')),
      ...together,
      LOG_LEVEL: 'error',
    });
  });
  afterAll(async () => {
    await old?.stop();
    await current?.close();
    await smtp?.stop();
    await google?.stop();
    await scratch?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it(`serves and reads alike what either version writes (previous: ${previous ? subjectOf(previous) : ''})`, async () => {
    try {
      await bothVersionsAgree();
    } catch (err) {
      // Why the old code failed is in its log, not in the status it answered.
      throw new Error(
        `${(err as Error).message}\n\nThe previous version's log (errors):\n${old!.output().slice(-6000)}`,
      );
    }
  });

  async function bothVersionsAgree() {
    const versions = { previous: old!.url, current: current!.url };
    const writers = [versions.previous, versions.current];
    for (const [i, who] of PEOPLE.entries()) {
      const c = await createAccount(writers[i]!, smtp, who);
      const api = apiFor(writers[i]!, `${c.name}=${c.value}`);
      await writeJournal(api, who, i);
      // Mail and calendar connected, synced and a draft saved, through the previous version.
      if (i === 0) await connectGoogle(api, google, writers[i]!);
    }
    for (const who of PEOPLE) {
      const [byOld, byNew] = shared(
        await readJournal(await signIn(versions.previous, who)),
        await readJournal(await signIn(versions.current, who)),
      );
      expect(byOld).toEqual(byNew);
      expect((byNew as { thoughts: unknown[] }).thoughts).toHaveLength(5);
    }
  }
});
