/**
 * `npm run rekey` (the image's `rekey` command): after a key rotation, re-encrypts every value still
 * under an old key (DATA_ENCRYPTION_OLD_KEYS) with the current DATA_ENCRYPTION_KEY, then says whether
 * the old keys can be removed. With DATABASE_URL it runs while the services run; on `npm start`'s
 * PGlite folder, with Haven stopped. Keys come from the environment, else DATA_DIR/secrets.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ENCRYPTED_COLUMNS as assistant } from '@haven/assistant/domain/encrypted-columns';
import { ENCRYPTED_COLUMNS as auth } from '@haven/auth/domain/encrypted-columns';
import { ENCRYPTED_COLUMNS as insights } from '@haven/insights/domain/encrypted-columns';
import { ENCRYPTED_COLUMNS as integrations } from '@haven/integrations/domain/encrypted-columns';
import { ENCRYPTED_COLUMNS as portability } from '@haven/portability/domain/encrypted-columns';
import { ENCRYPTED_COLUMNS as thoughts } from '@haven/thoughts/domain/encrypted-columns';
import { createFieldCipher, keyIdOf } from '@haven/kit/crypto';
import { openDatabase } from '@haven/kit/db';
import { runningFrom } from '@haven/kit/instance-lock';
import { countByKey, plainQuery, reencryptColumn, type EncryptedColumn } from '@haven/kit/reencrypt';

export const COLUMNS: EncryptedColumn[] = [
  ...auth,
  ...thoughts,
  ...insights,
  ...assistant,
  ...integrations,
  ...portability,
];

/** Thoughts' tags: re-encrypted with their blind index by the thoughts service at start, only counted here. */
const TAGS: EncryptedColumn = {
  schema: 'thoughts',
  table: 'thoughts',
  column: 'tags_enc',
  key: ['id'],
  context: () => '',
};

const say = (line = ''): void => void process.stdout.write(`${line}\n`);

function keysFrom(env: NodeJS.ProcessEnv, dataDir: string): { current: string; old: string[] } {
  const file = path.join(dataDir, 'secrets.json');
  const stored = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { DATA_ENCRYPTION_KEY?: string })
    : {};
  const current = env.DATA_ENCRYPTION_KEY || stored.DATA_ENCRYPTION_KEY;
  if (!current) throw new Error('No DATA_ENCRYPTION_KEY: set it (and DATA_ENCRYPTION_OLD_KEYS) first.');
  const old = (env.DATA_ENCRYPTION_OLD_KEYS ?? '').split(',').filter((k) => k.trim());
  return { current, old };
}

export interface RekeyOutcome {
  rewritten: number;
  /** Values per key id still not under the current key, by column (`schema.table.column`). */
  left: Record<string, Record<string, number>>;
}

export async function rekey(env: NodeJS.ProcessEnv = process.env): Promise<RekeyOutcome> {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  if (!env.DATABASE_URL) {
    const pid = runningFrom(dataDir);
    if (pid) throw new Error(`Haven is running from ${dataDir} (process ${pid}): stop it first.`);
  }
  const keys = keysFrom(env, dataDir);
  const cipher = createFieldCipher(keys.current, keys.old);
  const known = new Set([
    cipher.currentKeyId,
    ...keys.old.map((k) => keyIdOf(Buffer.from(k.trim(), 'base64'))),
  ]);
  const conn = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL, poolSize: 2 } : { dataDir });
  const query = plainQuery(conn);
  try {
    const name = (c: EncryptedColumn) => `${c.schema}.${c.table}.${c.column}`;
    for (const c of [...COLUMNS, TAGS]) {
      const unknown = Object.keys(await countByKey(query, c)).filter((id) => !known.has(id));
      if (unknown.length > 0)
        throw new Error(
          `${name(c)} holds values under the key ${unknown.join(', ')}, which is not configured: add it to DATA_ENCRYPTION_OLD_KEYS.`,
        );
    }
    let rewritten = 0;
    for (const c of COLUMNS) rewritten += await reencryptColumn(query, cipher, c);
    const left: RekeyOutcome['left'] = {};
    for (const c of [...COLUMNS, TAGS]) {
      const counts = await countByKey(query, c);
      delete counts[cipher.currentKeyId];
      if (Object.keys(counts).length > 0) left[name(c)] = counts;
    }
    return { rewritten, left };
  } finally {
    await conn.close();
  }
}

async function main(): Promise<number> {
  try {
    const { rewritten, left } = await rekey();
    say(`Re-encrypted ${rewritten} values under the current key.`);
    const tags = left['thoughts.thoughts.tags_enc'];
    if (tags)
      say(
        `${Object.values(tags).reduce((a, b) => a + b, 0)} thoughts' tags are still under an old key: start Haven once with both keys (the thoughts service re-encrypts them with their index), then run this again.`,
      );
    else if (Object.keys(left).length > 0) say(`Still under an old key: ${JSON.stringify(left)}`);
    else say('No value uses an old key any more: DATA_ENCRYPTION_OLD_KEYS can be emptied.');
    return 0;
  } catch (err) {
    process.stderr.write(`\n${(err as Error).message}\n`);
    return 1;
  }
}

if (process.argv[1] && /rekey\.(ts|js)$/.test(process.argv[1]))
  void main().then((code) => process.exit(code));
