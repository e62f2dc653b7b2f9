import type { ImportFormat } from '@haven/contracts/portability';
import { SandboxProcess, sandboxScript, type SandboxLimits } from '@haven/kit/sandbox';
import { ImportLimitError, type ItemPosition } from '../source';
import { park, takeParked, type Parked, type SandboxChild as Child } from './parked';
import type { ChildMessage, ParentMessage, SandboxItem, StartMessage } from './protocol';

/**
 * The service's side of the import sandbox (a kit sandbox: see @haven/kit/sandbox). Every reader of
 * the uploaded zip (zip listing, format detection, JSON, YAML, Markdown and hashtags, XML, HTML,
 * dates) runs in it. When the child dies, overruns its time or throws, the file it was on is
 * reported as failed and a fresh child goes on with the next file.
 */

/** What one import sandbox may use: `timeMs` is for one note, or one entry of a journal. */
export type SandboxBudget = SandboxLimits;

/**
 * The budget of a first try, and the smaller one of a step taken again after its process died (half
 * the heap, a quarter of the time: what killed it is found fast, then skipped).
 */
export function sandboxBudgets(
  heapMb: number,
  timeMs: number,
): { first: SandboxBudget; retry: SandboxBudget } {
  return {
    first: { heapMb, timeMs },
    retry: { heapMb: Math.max(16, Math.floor(heapMb / 2)), timeMs: Math.max(100, Math.floor(timeMs / 4)) },
  };
}

/** The stored zip, as the sandbox reads it. */
export interface SandboxBlob {
  size: number;
  readRange(start: number, end: number): Promise<Buffer>;
}

export interface SandboxRun {
  blob: SandboxBlob;
  /** The import's own time. */
  now: Date;
  /** Entries not to read, with why (from an earlier pass or a process that died on them). */
  quarantined: ReadonlyMap<number, string>;
  budget: SandboxBudget;
  /** Told of each entry the sandbox starts, with its name. */
  onEntry?: (entry: number, name: string) => void;
}

/** How a person is told that one file was beyond the sandbox's limits. */
export const couldNotRead = (why: string) => `This note could not be read within the limits: ${why}`;

const script = () =>
  sandboxScript(import.meta.url, './child.ts', ['services', 'portability', 'dist', 'import-sandbox.js']);

/** A sandbox started on `start`, the zip's bytes served to it by range as it asks. */
function startChild(start: StartMessage, blob: SandboxBlob, budget: SandboxBudget): Child {
  const child: Child = new SandboxProcess<ChildMessage, ParentMessage>(script(), budget, (m) => {
    if (m.type !== 'range') return false;
    serveRange(child, blob, m);
    return true;
  });
  child.send(start);
  return child;
}

function serveRange(child: Child, blob: SandboxBlob, m: Extract<ChildMessage, { type: 'range' }>) {
  const { start, end } = m;
  if (!(
    Number.isSafeInteger(start) &&
    Number.isSafeInteger(end) &&
    0 <= start &&
    start <= end &&
    end <= blob.size
  ))
    return child.send({ type: 'range', id: m.id, error: 'range outside the file' });
  blob.readRange(start, end).then(
    (data) => child.send({ type: 'range', id: m.id, data }),
    (err: Error) => child.send({ type: 'range', id: m.id, error: err.message }),
  );
}

/** The first pass's result: the format, the items counted, the entries the sandbox could not read. */
export interface Counted {
  format: ImportFormat;
  total: number;
  quarantined: Map<number, string>;
}

/**
 * The first pass, in the sandbox: every item counted and the limits checked. An entry that stops
 * the sandbox is quarantined (counted as one failed item, never read again) and a fresh sandbox
 * counts on from the next entry. `heartbeat` is called now and then while it works.
 */
export async function countInSandbox(run: SandboxRun, heartbeat: () => Promise<unknown>): Promise<Counted> {
  const quarantined = new Map(run.quarantined);
  let format: ImportFormat | null = null;
  let from = 0;
  let counted = 0;
  let beat = Date.now();
  for (;;) {
    const child = startChild(
      start(run, 'count', quarantined, { entry: from, item: 0 }, counted),
      run.blob,
      run.budget,
    );
    let entry: number | null = null;
    let atEntry = counted;
    try {
      for (;;) {
        const m = await child.next();
        if (Date.now() - beat > 5000) {
          beat = Date.now();
          await heartbeat();
        }
        if (m.type === 'format') format = m.format;
        else if (m.type === 'entry') {
          [entry, atEntry] = [m.entry, m.counted ?? atEntry];
          run.onEntry?.(m.entry, m.name);
        } else if (m.type === 'counted') return { format: format!, total: m.total, quarantined };
        else if (m.type === 'limit') throw new ImportLimitError(m.message);
        else if (m.type === 'died' || m.type === 'failed') {
          const at = m.type === 'failed' ? (m.entry ?? entry) : entry;
          if (at === null || format === null) throw unreadableZip(m.type === 'died' ? m.reason : m.message);
          quarantined.set(at, couldNotRead(m.type === 'died' ? m.reason : m.message));
          [from, counted] = [at + 1, atEntry + 1];
          break;
        }
      }
    } finally {
      child.kill();
    }
  }
}

const after = (item: SandboxItem): ItemPosition =>
  item.endsEntry ? { entry: item.at.entry + 1, item: 0 } : { entry: item.at.entry, item: item.at.item + 1 };

/**
 * The items of the zip from `resume` on, read in the sandbox a batch at a time (the next batch is
 * asked for only when the caller has taken this one). An entry that stops the sandbox gives one
 * failed item, the last of its entry, and a fresh sandbox goes on from the next entry. With `key`
 * (the import's id), a caller that stops taking items early leaves the read parked for the next
 * call with that key, which goes on with it when it resumes where the read stopped.
 */
export async function* readInSandbox(
  run: SandboxRun,
  resume: ItemPosition | undefined,
  key?: string,
): AsyncGenerator<SandboxItem> {
  let from: ItemPosition = resume ?? { entry: 0, item: 0 };
  let kept = key ? takeParked(key, from, run.budget.heapMb) : undefined;
  for (;;) {
    const read = readFrom(run, from, kept);
    kept = undefined;
    try {
      const failedOn = yield* readChild(read, run);
      if (!failedOn) return;
      from = failedOn;
    } finally {
      // The caller stopped taking items (a step's time is up): the read waits for the next step.
      if (!read.ended && key && read.child.alive) {
        const { child, next: at, pending, owesMore, entry } = read;
        park(key, { child, at, pending, owesMore, entry, heapMb: run.budget.heapMb });
      } else read.child.kill();
    }
  }
}

/** The read of the parked sandbox `kept`, or of a fresh one, from `from` on. */
function readFrom(run: SandboxRun, from: ItemPosition, kept: Parked | undefined): Read {
  if (kept) {
    const { child, entry, pending, owesMore } = kept;
    return { child, entry, next: from, pending, owesMore, ended: false };
  }
  const child = startChild(start(run, 'read', run.quarantined, from, 0), run.blob, run.budget);
  return { child, entry: null, next: from, pending: [], owesMore: false, ended: false };
}

/** One sandbox's read, as it stands. */
interface Read {
  child: Child;
  /** The entry the sandbox reads. */
  entry: { index: number; name: string } | null;
  /** Where the next item it gives stands. */
  next: ItemPosition;
  /** Items it sent that were not taken yet. */
  pending: SandboxItem[];
  /** Whether the batch of `pending` is still to be paid for with a 'more'. */
  owesMore: boolean;
  /** Whether the sandbox is done with (it ended, stopped on a limit, died or failed): never parked. */
  ended: boolean;
}

/**
 * The items one sandbox gives, a batch at a time. Returns null when it has read to the end, or,
 * when it stopped on an entry (after giving that entry's failed item), where a fresh one goes on.
 */
async function* readChild(read: Read, run: SandboxRun): AsyncGenerator<SandboxItem, ItemPosition | null> {
  for (;;) {
    while (read.pending.length) {
      const item = read.pending.shift()!;
      read.next = after(item);
      yield item;
    }
    if (read.owesMore) {
      read.child.send({ type: 'more' });
      read.owesMore = false;
    }
    const m = await read.child.next();
    if (m.type === 'entry') {
      read.entry = { index: m.entry, name: m.name };
      if (read.next.entry !== m.entry) read.next = { entry: m.entry, item: 0 };
      run.onEntry?.(m.entry, m.name);
    } else if (m.type === 'items') [read.pending, read.owesMore] = [[...m.items], true];
    else if (m.type === 'done') {
      read.ended = true;
      return null;
    } else if (m.type === 'limit') {
      read.ended = true;
      throw new ImportLimitError(m.message);
    } else if (m.type === 'died' || m.type === 'failed') {
      read.ended = true;
      const stopped = stoppedOn(read, m.type === 'died' ? m.reason : m.message);
      yield stopped.item;
      return stopped.from;
    }
  }
}

/** The failed item of the entry a sandbox stopped on, and where a fresh sandbox goes on. */
function stoppedOn(read: Read, why: string): { item: SandboxItem; from: ItemPosition } {
  const { entry, next } = read;
  if (!entry) throw unreadableZip(why);
  const at = next.entry === entry.index ? next : { entry: entry.index, item: 0 };
  return {
    item: {
      kind: 'problem',
      outcome: 'failed',
      reason: couldNotRead(why),
      at,
      file: entry.name,
      endsEntry: true,
    },
    from: { entry: entry.index + 1, item: 0 },
  };
}

function start(
  run: SandboxRun,
  mode: 'count' | 'read',
  quarantined: ReadonlyMap<number, string>,
  resume: ItemPosition,
  counted: number,
): StartMessage {
  return {
    type: 'start',
    mode,
    size: run.blob.size,
    now: run.now.toISOString(),
    resume,
    quarantined: [...quarantined],
    counted,
  };
}

/** The sandbox failed before it reached any file: the zip itself (its listing) is beyond the limits. */
const unreadableZip = (why: string) =>
  new ImportLimitError(`The zip could not be read within the limits (${why}); nothing was imported`);
