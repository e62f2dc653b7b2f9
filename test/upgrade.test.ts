/**
 * Upgrades never lose or strand data: every release's fixture (test/upgrade/fixtures/<release>: a
 * database written through the API by that release, as a backup file) is restored with that
 * release's migrations, the current code starts on it and runs its own, and every person's journal
 * must read back through the API exactly as that release answered. A release that changes what the
 * API answers for old data on purpose updates the older fixtures' expected.json, in the same commit.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startAllInOne } from './support/bundle';
import { testProductEnv } from './support/data-template';
import { FIXTURES, loadFixture, signIn } from './upgrade/fixture';
import { PEOPLE, readJournal } from './upgrade/journal';

vi.setConfig({ testTimeout: 120_000 });

const releases = readdirSync(FIXTURES).sort();

describe('upgrading from an earlier release', () => {
  it('has a fixture of this release at least', () => {
    expect(releases.length).toBeGreaterThan(0);
  });

  it.each(releases)('reads back everything written by release %s', async (release) => {
    const fixture = loadFixture(release);
    const dataDir = mkdtempSync(path.join(tmpdir(), `haven-upgrade-${release}-`));
    try {
      await fixture.restoreInto(dataDir);
      const app = await startAllInOne({ ...testProductEnv(dataDir), ...fixture.keys }, { port: 0 });
      try {
        for (const who of PEOPLE) {
          // What that release recorded (a later release may read more than an older fixture holds).
          const expected = fixture.expected[who.email] as Record<string, unknown>;
          const journal = await readJournal(await signIn(app.url, who));
          expect(Object.fromEntries(Object.keys(expected).map((k) => [k, journal[k]]))).toEqual(expected);
        }
      } finally {
        await app.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
