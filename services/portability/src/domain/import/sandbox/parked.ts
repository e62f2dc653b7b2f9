import type { SandboxProcess } from '@haven/kit/sandbox';
import type { ItemPosition } from '../source';
import type { ChildMessage, ParentMessage, SandboxItem } from './protocol';

/** An import sandbox's process, as the service holds it. */
export type SandboxChild = SandboxProcess<ChildMessage, ParentMessage>;

/**
 * A read left by a step whose time was up, kept for the import's next step: a fresh sandbox would
 * read the zip again from the start of the entry (a journal of 100,000 entries is one entry) only
 * to skip what is done, every step. It is taken over only where it stopped; else it is killed.
 */
export interface Parked {
  child: SandboxChild;
  /** Where the next item it gives stands. */
  at: ItemPosition;
  /** Items it sent that were not taken yet. */
  pending: SandboxItem[];
  /** Whether the batch of `pending` is still to be paid for with a 'more'. */
  owesMore: boolean;
  entry: { index: number; name: string } | null;
  heapMb: number;
  timer: NodeJS.Timeout;
}
const parked = new Map<string, Parked>();
/** How long a parked read waits for its next step, and how many are kept at once. */
const PARK_MS = 30_000;
const PARK_MAX = 4;

export function park(key: string, read: Omit<Parked, 'timer'>) {
  unpark(key)?.child.kill();
  const timer = setTimeout(() => unpark(key)?.child.kill(), PARK_MS);
  timer.unref();
  parked.set(key, { ...read, timer });
  if (parked.size > PARK_MAX) {
    const oldest = parked.keys().next().value!;
    unpark(oldest)?.child.kill();
  }
}

function unpark(key: string): Parked | undefined {
  const read = parked.get(key);
  if (!read) return undefined;
  parked.delete(key);
  clearTimeout(read.timer);
  return read;
}

/** The read parked under `key`, when it stopped at `from` with the same heap; any other is killed. */
export function takeParked(key: string, from: ItemPosition, heapMb: number): Parked | undefined {
  const kept = unpark(key);
  if (kept && !(samePosition(kept.at, from) && kept.heapMb === heapMb && kept.child.alive)) {
    kept.child.kill();
    return undefined;
  }
  return kept;
}

const samePosition = (a: ItemPosition, b: ItemPosition) => a.entry === b.entry && a.item === b.item;
