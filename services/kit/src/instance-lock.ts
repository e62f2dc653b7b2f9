/**
 * One `npm start` per data folder. PGlite keeps no lock of its own: a second process that opened the
 * same folder (another start, a restore) would write over the first's files. The running process
 * holds DATA_DIR/haven.pid; others read it to know it is there.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const PID_FILE = 'haven.pid';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of the Haven process running from `dataDir`, or null when none is. */
export function runningFrom(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, PID_FILE), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** Thrown when another process already runs from the folder. */
export class DataDirBusy extends Error {
  override name = 'DataDirBusy';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`Haven is already running from ${dataDir} (process ${pid}).`);
  }
}

/** Claims `dataDir` for this process (a stale claim, its process gone, is taken over); returns the release. */
export function claimDataDir(dataDir: string): () => void {
  const other = runningFrom(dataDir);
  if (other) throw new DataDirBusy(dataDir, other);
  const file = path.join(dataDir, PID_FILE);
  writeFileSync(file, `${process.pid}\n`, { mode: 0o600 });
  return () => {
    if (runningFrom(dataDir) === null) rmSync(file, { force: true });
  };
}
