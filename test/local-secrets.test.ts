import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureLocalSecrets, keyNotice } from '../scripts/local-secrets';

describe('npm start keeps its secrets and says what to keep', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'haven-secrets-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('makes the key once, in a file only its owner reads, and says so only then', () => {
    const first: NodeJS.ProcessEnv = {};
    const made = ensureLocalSecrets(first, dataDir);
    expect(made).toEqual({ file: path.join(dataDir, 'secrets.json'), keyCreated: true, keyInFile: true });
    expect(statSync(made.file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(made.file, 'utf8')).DATA_ENCRYPTION_KEY).toBe(first.DATA_ENCRYPTION_KEY);

    const again: NodeJS.ProcessEnv = {};
    expect(ensureLocalSecrets(again, dataDir)).toMatchObject({ keyCreated: false, keyInFile: true });
    expect(again.DATA_ENCRYPTION_KEY).toBe(first.DATA_ENCRYPTION_KEY);

    const notice = keyNotice(made.file);
    expect(notice).toContain(made.file);
    expect(notice).toMatch(/apart from this folder and its backups/);
    expect(notice).toMatch(/without the key the journal cannot be read/);
  });

  it('leaves a key the environment gives where it is', () => {
    const other = mkdtempSync(path.join(tmpdir(), 'haven-secrets-'));
    try {
      const env: NodeJS.ProcessEnv = { DATA_ENCRYPTION_KEY: 'given-by-the-operator' };
      expect(ensureLocalSecrets(env, other)).toMatchObject({ keyCreated: false, keyInFile: false });
      expect(env.DATA_ENCRYPTION_KEY).toBe('given-by-the-operator');
      expect(readFileSync(path.join(other, 'secrets.json'), 'utf8')).not.toContain('DATA_ENCRYPTION_KEY');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
