/**
 * The restore drill for `npm start`: a journal written through the API is backed up while the product
 * runs (`npm run backup` asks the running process), the product is stopped and its database destroyed,
 * `npm run restore FILE` brings it back, and every thought, its audio, the conversation and the
 * settings read back through the API as they were.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateKey } from '@haven/kit/crypto';
import type { AllInOne } from '../scripts/all-in-one';
import { startAllInOne } from './support/bundle';
import { startSmtpCatcher } from './doubles/smtp-catcher';
import { createAccount } from './e2e/harness';
import { toneWav } from './support/audio';
import { testProductEnv } from './support/data-template';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const CLI = path.resolve(import.meta.dirname, '../services/portability/dist/backup.js');
const run = promisify(execFile);

/** Runs the backup command as `npm run backup` / `npm run restore` do; its exit code and output. */
async function cli(args: string[], dataDir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir },
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

const WAV = toneWav().toString('base64');

describe('backup and restore of npm start', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'haven-backup-drill-'));
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  let app: AllInOne | undefined;
  const env = () => {
    const e: NodeJS.ProcessEnv = { ...testProductEnv(dataDir), SMTP_URL: smtp.url };
    delete e.BACKUP_URL; // as npm start: DATA_DIR/backups
    return e;
  };
  afterAll(async () => {
    await app?.close();
    await smtp?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('brings back every thought, its audio, conversations and settings after the database is gone', async () => {
    smtp = await startSmtpCatcher();
    app = await startAllInOne(env(), { port: 0 });
    const who = { username: 'keeper', email: 'keeper@example.com', password: 'years-of-thoughts' };
    const c = await createAccount(app.url, smtp, who);
    let cookie = `${c.name}=${c.value}`;
    const api = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(app!.url + p, {
        method,
        headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
      return res;
    };
    await api('POST', '/api/thoughts', { content: 'First light on the harbour. #morning', tags: ['sea'] });
    await api('POST', '/api/thoughts', {
      content: 'Said on the walk home',
      isVoice: true,
      audioData: `data:audio/wav;base64,${WAV}`,
    });
    await api('POST', '/api/thoughts', {
      content: 'Tab\tand line\nand back\\slash ✓',
      category: 'professional',
    });
    await api('POST', '/api/conversations', { title: 'Planning the year' });
    await api('PATCH', '/api/user-preferences', { askBeforeEmails: false, weeklyReviewDay: 3 });

    const read = async () => {
      const thoughts = (await (await api('GET', '/api/thoughts/all')).json()) as Array<{
        id: number;
        hasAudio: boolean;
      }>;
      const voice = thoughts.find((t) => t.hasAudio)!;
      const audio = Buffer.from(await (await api('GET', `/api/thoughts/${voice.id}/audio`)).arrayBuffer());
      return {
        user: await (await api('GET', '/api/user')).json(),
        thoughts,
        audio: audio.toString('base64'),
        conversations: await (await api('GET', '/api/conversations')).json(),
        preferences: await (await api('GET', '/api/user-preferences')).json(),
      };
    };
    const before = await read();
    expect(before.thoughts).toHaveLength(3);

    // While it runs, the backup is taken by the running process (it alone may open the database).
    const backup = await cli(['backup'], dataDir);
    expect(backup.out).toMatch(/Backup written: .*haven-.*\.backup\.gz/);
    expect(backup.out).toContain('The backup holds no key');
    expect(backup.code).toBe(0);
    const file = /Backup written: (\S+)/.exec(backup.out)![1]!;
    expect(path.dirname(file)).toBe(path.join(dataDir, 'backups'));
    expect((await cli(['backup', '--list'], dataDir)).out).toContain(path.basename(file));

    // A restore does not go under a running product.
    const refused = await cli(['restore', file], dataDir);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/Haven is running from .* stop it first/);

    await app.close();
    app = undefined;
    rmSync(path.join(dataDir, 'pgdata'), { recursive: true, force: true });

    // A key other than the backup's is refused: the journal would not be readable.
    const secrets = path.join(dataDir, 'secrets.json');
    const kept = readFileSync(secrets, 'utf8');
    writeFileSync(secrets, JSON.stringify({ ...JSON.parse(kept), DATA_ENCRYPTION_KEY: generateKey() }));
    const otherKey = await cli(['restore', path.basename(file)], dataDir);
    expect(otherKey.code).toBe(1);
    expect(otherKey.out).toMatch(
      /This backup was written with the key [0-9a-f]{8}, but the key here is [0-9a-f]{8}/,
    );
    writeFileSync(secrets, kept);

    const restored = await cli(['restore', path.basename(file)], dataDir);
    expect(restored.out).toMatch(/Restored \d+ rows from haven-/);
    expect(restored.code).toBe(0);
    // Restoring again over the journal is refused without --clean, and keeps the old one aside with it.
    const again = await cli(['restore', file], dataDir);
    expect(again.code).toBe(1);
    expect(again.out).toContain('already holds a Haven journal');
    const clean = await cli(['restore', file, '--clean'], dataDir);
    expect(clean.code).toBe(0);
    expect(clean.out).toMatch(/kept in .*pgdata\.before-restore-/);

    app = await startAllInOne(env(), { port: 0 });
    const login = await fetch(`${app.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: who.email, password: who.password }),
    });
    expect(login.status).toBe(200);
    cookie = login.headers
      .getSetCookie()
      .find((v) => v.startsWith('haven_session='))!
      .split(';')[0]!;
    expect(await read()).toEqual(before);
    // New writes go on after the restored ones.
    await api('POST', '/api/thoughts', { content: 'After the restore' });
    expect(((await (await api('GET', '/api/thoughts/all')).json()) as unknown[]).length).toBe(4);
    expect(existsSync(path.join(dataDir, 'haven.pid'))).toBe(true);
  });
});
