/**
 * Rotating the key end to end (README, "Keys"): a journal written under key A (this release's upgrade
 * fixture: thoughts with audio and tags, a conversation, an insight, an export) is started under a new
 * key B with A kept in DATA_ENCRYPTION_OLD_KEYS, `npm run rekey` re-encrypts what is left under A, and
 * Haven started with B alone reads every person's journal as it was.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateKey, keyIdOf } from '@haven/kit/crypto';
import { openDatabase } from '@haven/kit/db';
import { countByKey, plainQuery } from '@haven/kit/reencrypt';
import { until } from '@haven/kit/testing';
import { startAllInOne } from './support/bundle';
import { COLUMNS, rekey } from '../scripts/rekey';
import { testProductEnv } from './support/data-template';
import { FIXTURES, loadFixture, signIn } from './upgrade/fixture';
import { PEOPLE, readJournal } from './upgrade/journal';

vi.setConfig({ testTimeout: 180_000 });

/** How many values of each encrypted column are under `keyId`, read with Haven stopped. */
async function countUnder(dataDir: string, keyId: string): Promise<Record<string, number>> {
  const conn = await openDatabase({ dataDir });
  try {
    const counts: Record<string, number> = {};
    for (const c of COLUMNS) {
      const n = (await countByKey(plainQuery(conn), c))[keyId];
      if (n) counts[`${c.schema}.${c.table}.${c.column}`] = n;
    }
    return counts;
  } finally {
    await conn.close();
  }
}

describe('rotating the key', () => {
  const release = readdirSync(FIXTURES).sort().at(-1)!;
  const fixture = loadFixture(release);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'haven-rekey-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('re-encrypts everything under the new key, after which the old one can go', async () => {
    await fixture.restoreInto(dataDir);
    const oldKey = fixture.keys.DATA_ENCRYPTION_KEY!;
    const newKey = generateKey();
    const rotated = { ...fixture.keys, DATA_ENCRYPTION_KEY: newKey, DATA_ENCRYPTION_OLD_KEYS: oldKey };

    // Rotated: both keys configured, everything reads as before; the thoughts service reseals the tags.
    let app = await startAllInOne({ ...testProductEnv(dataDir), ...rotated }, { port: 0 });
    try {
      for (const who of PEOPLE)
        expect(await readJournal(await signIn(app.url, who))).toEqual(fixture.expected[who.email]);
      const query = plainQuery(app.services[0]!.deps.connection);
      const newId = keyIdOf(Buffer.from(newKey, 'base64'));
      await until(async () => {
        const [row] = await query(
          `select count(*)::int as n from thoughts.thoughts where tags_enc like 'enc1.%' and tags_enc not like $1`,
          [`enc1.${newId}.%`],
        );
        return row!.n === 0;
      }, 30_000);
    } finally {
      await app.close();
    }

    // The pass: everything else still under the old key is rewritten under the new one.
    const env = { ...testProductEnv(dataDir), ...rotated };
    const underOld = await countUnder(dataDir, keyIdOf(Buffer.from(oldKey, 'base64')));
    // Every kind the fixture holds: thoughts and their audio, a conversation, its messages and their
    // metadata, insights, Google's tokens, cached mail and calendar, an export.
    expect(Object.keys(underOld).sort()).toEqual([
      'assistant.conversations.title_enc',
      'assistant.messages.content_enc',
      'assistant.messages.metadata_enc',
      'insights.insights.content_enc',
      'integrations.calendar_events.data_enc',
      'integrations.integrations.access_token_enc',
      'integrations.integrations.account_enc',
      'integrations.integrations.refresh_token_enc',
      'integrations.mail_messages.body_enc',
      'integrations.mail_messages.data_enc',
      'portability.blob_chunks.data_enc',
      'thoughts.thoughts.audio_enc',
      'thoughts.thoughts.content_enc',
    ]);
    const outcome = await rekey(env);
    expect(outcome.rewritten).toBe(Object.values(underOld).reduce((a, b) => a + b, 0));
    expect(outcome.left).toEqual({});
    expect((await rekey(env)).rewritten).toBe(0);

    // The old key removed: every person's journal still reads the same.
    app = await startAllInOne(
      { ...testProductEnv(dataDir), ...fixture.keys, DATA_ENCRYPTION_KEY: newKey },
      { port: 0 },
    );
    try {
      for (const who of PEOPLE)
        expect(await readJournal(await signIn(app.url, who))).toEqual(fixture.expected[who.email]);
    } finally {
      await app.close();
    }
  });

  it('stops at a value under a key that is not configured, naming it', async () => {
    const env = { ...testProductEnv(dataDir), ...fixture.keys, DATA_ENCRYPTION_KEY: generateKey() };
    await expect(rekey(env)).rejects.toThrow(
      /holds values under the key [0-9a-f]{8}, which is not configured/,
    );
  });
});
