import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@haven/kit/testing';
import { startEveryService } from '../../../test/support/stack';

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
    await until(() => readdirSync(dir).some((f) => f.endsWith('.backup.gz.sha256')), 30_000);
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
