import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseConnection } from '@haven/kit/db';
import { until } from '@haven/kit/testing';
import { startS3Double } from '../../../test/doubles/s3-server';
import { startEveryService } from '../../../test/support/stack';
import { backupStoreAt } from '../src/domain/backup/stores';
import { newUser } from './support/imports';

const CLI = path.resolve(import.meta.dirname, '../dist/backup.js');

/** One series' value from a Prometheus text page. */
function series(page: string, name: string): number {
  const line = page.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return line ? Number(line.split(' ').at(-1)) : NaN;
}

describe('the scheduled backup', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'haven-backup-job-'));
  const dir = path.join(root, 'backups');
  let everything: Awaited<ReturnType<typeof startEveryService>>;
  beforeAll(async () => {
    everything = await startEveryService({ BACKUP_URL: dir, BACKUP_KEEP: '3', JOB_BACKOFF_MS: '20' });
  });
  afterAll(async () => {
    await everything?.stop();
    rmSync(root, { recursive: true, force: true });
  });
  const portability = () => everything.stack.get('portability');
  const metrics = async () => (await fetch(`${portability().url}/metrics`)).text();

  it('takes the backup the schedule last called for, once, and says so in /metrics', async () => {
    expect(series(await metrics(), 'haven_backup_last_success_timestamp_seconds')).toBe(0);
    // The reconciler's round (once a minute where workers run) finds the nightly slot without a backup.
    expect(await portability().reconcilers!.runOnce()).toBe(1);
    // The folder is made by the job itself, and the backup is renamed into view last (after its
    // checksum): wait for the backup, not for the folder or the checksum.
    await until(() => existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.backup.gz')), 30_000);
    const [file] = readdirSync(dir).filter((f) => f.endsWith('.backup.gz'));
    expect(file).toMatch(/^haven-\d{4}-\d{2}-\d{2}T\d{2}-00-00-000Z\.backup\.gz$/);
    // Taken: the next round finds nothing due.
    expect(await portability().reconcilers!.runOnce()).toBe(0);
    const page = await metrics();
    expect(series(page, 'haven_backup_last_success_timestamp_seconds')).toBeGreaterThan(0);
    expect(series(page, 'haven_backup_last_size_bytes')).toBeGreaterThan(100);
    expect(series(page, 'haven_backup_failures_total')).toBe(0);
  });

  it('counts a failed backup in /metrics, and it is tried again', async () => {
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, 'not a folder');
    await portability().deps.queues.add('backup.run', { at: new Date().toISOString() });
    await until(async () => series(await metrics(), 'haven_backup_failures_total') >= 2, 30_000);
    expect(series(await metrics(), 'haven_backup_last_failure_timestamp_seconds')).toBeGreaterThan(0);
    // Once the folder can be written again, a retry writes the backup.
    rmSync(dir, { force: true });
    await until(() => existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.sha256')), 30_000);
  });
});

async function rowCount(conn: DatabaseConnection, table: string): Promise<number> {
  const text = `select count(*)::int as n from ${table}`;
  const rows = conn.kind === 'pg' ? (await conn.pool.query(text)).rows : (await conn.client.query(text)).rows;
  return (rows[0] as { n: number }).n;
}

describe('backups to an S3-compatible bucket', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'haven-backup-s3-'));
  let s3: Awaited<ReturnType<typeof startS3Double>>;
  let everything: Awaited<ReturnType<typeof startEveryService>>;
  beforeAll(async () => {
    s3 = await startS3Double();
    everything = await startEveryService({ ...s3.env('nightly'), BACKUP_KEEP: '2', JOB_BACKOFF_MS: '20' });
  });
  afterAll(async () => {
    await everything?.stop();
    await s3?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('takes the scheduled backup into the bucket, and npm run restore brings it back from there', async () => {
    const portability = everything.stack.get('portability');
    const bucket = backupStoreAt(s3.env('nightly').BACKUP_URL!, {
      BACKUP_S3_ENDPOINT: s3.endpoint,
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    });
    const me = await newUser(everything.stack, 'bucketed');
    for (const content of ['Rain on the skylight.', 'Letters to answer: two.']) {
      const res = await fetch(`${everything.stack.get('thoughts').url}/api/thoughts`, {
        method: 'POST',
        headers: { ...everything.stack.headers('thoughts', me), 'content-type': 'application/json' },
        body: JSON.stringify({ content }),
      });
      expect(res.status).toBe(201);
    }
    expect(await portability.reconcilers!.runOnce()).toBe(1);
    await until(async () => (await bucket.list()).some((f) => f.sha256), 30_000);
    const [file] = await bucket.list();
    const page = await (await fetch(`${portability.url}/metrics`)).text();
    expect(series(page, 'haven_backup_last_size_bytes')).toBe(file!.size);

    // The command, as an operator runs it: the bucket's backups listed, one restored into a new
    // (embedded) database by its name alone.
    const env = { PATH: process.env.PATH, DATA_DIR: path.join(root, 'restored'), ...s3.env('nightly') };
    const listed = await promisify(execFile)(process.execPath, [CLI, 'backup', '--list'], { env });
    expect(listed.stdout).toContain(`Backups in s3://${s3.bucket}/nightly, oldest first:`);
    expect(listed.stdout).toContain(`${file!.name}`);
    expect(listed.stdout).toContain(file!.sha256!);
    const restored = await promisify(execFile)(
      process.execPath,
      [CLI, 'restore', file!.name, '--other-key'],
      { env },
    );
    expect(restored.stdout).toMatch(
      new RegExp(`Restored \\d+ rows from ${file!.name.replace(/\./g, '\\.')}`),
    );
    const copy = await openDatabase({ dataDir: path.join(root, 'restored') });
    try {
      expect(await rowCount(copy, 'thoughts.thoughts')).toBe(2);
      for (const table of ['auth.users', 'thoughts.thoughts', 'thoughts.search_grams'])
        expect(await rowCount(copy, table)).toBe(await rowCount(portability.deps.connection, table));
    } finally {
      await copy.close();
    }
  });
});
