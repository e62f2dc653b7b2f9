import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { generateKey } from '@haven/kit/crypto';

export interface LocalSecrets {
  /** DATA_DIR/secrets.json. */
  file: string;
  /** The journal's key was made just now (this is the journal's first start). */
  keyCreated: boolean;
  /** The journal's key is kept in `file` (not given by the environment). */
  keyInFile: boolean;
}

/**
 * Secrets the all-in-one run needs but a newcomer should not have to invent: generated once into
 * DATA_DIR/secrets.json (readable by the owner only) and reused, unless the environment sets them.
 */
export function ensureLocalSecrets(env: NodeJS.ProcessEnv, dataDir: string): LocalSecrets {
  const file = path.join(dataDir, 'secrets.json');
  const stored: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const wanted: Record<string, () => string> = {
    JWT_SECRET: () => randomBytes(48).toString('base64url'),
    INTERNAL_SECRET: () => randomBytes(48).toString('base64url'),
    DATA_ENCRYPTION_KEY: generateKey,
  };
  const made = new Set<string>();
  for (const [name, make] of Object.entries(wanted)) {
    if (env[name]) continue;
    if (!stored[name]) {
      stored[name] = make();
      made.add(name);
    }
    env[name] = stored[name];
  }
  if (made.size > 0) {
    writeFileSync(file, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return {
    file,
    keyCreated: made.has('DATA_ENCRYPTION_KEY'),
    keyInFile: env.DATA_ENCRYPTION_KEY === stored.DATA_ENCRYPTION_KEY,
  };
}

/** What the owner is told once, when the journal's key is made: keep it, and keep it apart. */
export function keyNotice(file: string): string {
  return (
    `Your journal is encrypted with the key DATA_ENCRYPTION_KEY in ${file}. Keep a copy of that file ` +
    'somewhere safe and apart from this folder and its backups (a password manager, another disk): ' +
    'without the key the journal cannot be read, by you or by anyone, and whoever has both a backup ' +
    'and the key can read it.'
  );
}
