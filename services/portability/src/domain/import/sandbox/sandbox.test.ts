import { describe, expect, it } from 'vitest';
import { dayOneZip } from '../../../../test/support/probe-zips';
import type { ItemPosition } from '../source';
import type { SandboxItem } from './protocol';
import { readInSandbox, sandboxBudgets, type SandboxRun } from './sandbox';

const ENTRIES = 30_000;

/** A run over an in-memory zip that records the ranges the sandbox asks for. */
function runOver(zip: Buffer, timeMs: number): SandboxRun & { starts: number[] } {
  const starts: number[] = [];
  return {
    starts,
    blob: {
      size: zip.length,
      readRange: async (start, end) => {
        starts.push(start);
        return zip.subarray(start, end);
      },
    },
    now: new Date('2026-01-15T09:00:00Z'),
    quarantined: new Map(),
    budget: sandboxBudgets(192, timeMs).first,
  };
}

/** Takes `count` items (all when undefined) from a read, then stops taking. */
async function take(read: AsyncGenerator<SandboxItem>, count?: number): Promise<SandboxItem[]> {
  const items: SandboxItem[] = [];
  for await (const item of read) {
    items.push(item);
    if (items.length === count) break;
  }
  return items;
}

const positions = (items: SandboxItem[]) => items.map((i) => i.at.item);

describe('reading a journal in the sandbox, step after step', () => {
  it('goes back deep into a journal without its watchdog taking the skipping for a hang', async () => {
    const run = runOver(await dayOneZip(ENTRIES), 1500);
    const resume: ItemPosition = { entry: 0, item: ENTRIES - 500 };
    const items = await take(readInSandbox(run, resume));
    expect(items.every((i) => i.kind === 'thought')).toBe(true);
    expect(positions(items)).toEqual(Array.from({ length: 500 }, (_, i) => ENTRIES - 500 + i));
  }, 60_000);

  it('lets the next step go on with the read the last one left, where it stopped', async () => {
    const run = runOver(await dayOneZip(ENTRIES), 20_000);
    const first = await take(readInSandbox(run, undefined, 'transfer-1'), 10_000);
    const readBefore = Math.max(...run.starts);
    run.starts.length = 0;
    const rest = await take(readInSandbox(run, { entry: 0, item: 10_000 }, 'transfer-1'));
    expect(positions([...first, ...rest])).toEqual(Array.from({ length: ENTRIES }, (_, i) => i));
    // The zip was not read again from its start: the parked sandbox went on.
    expect(Math.min(...run.starts)).toBeGreaterThan(readBefore);
  }, 60_000);

  it('does not take over a parked read from another position', async () => {
    const run = runOver(await dayOneZip(2000), 20_000);
    await take(readInSandbox(run, undefined, 'transfer-2'), 500);
    // The step that wrote those items died: the next resumes before where the read stopped.
    const again = await take(readInSandbox(run, { entry: 0, item: 300 }, 'transfer-2'));
    expect(positions(again)).toEqual(Array.from({ length: 1700 }, (_, i) => 300 + i));
  }, 60_000);
});
