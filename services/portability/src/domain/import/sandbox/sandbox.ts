import type { ImportFormat } from '@haven/contracts/portability';
import { SandboxProcess, sandboxScript, type SandboxLimits } from '@haven/kit/sandbox';
import { ImportLimitError, type ItemPosition } from '../source';
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

type Child = SandboxProcess<ChildMessage, ParentMessage>;

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

/**
 * A read left by a step whose time was up, kept for the import's next step: a fresh sandbox would
 * read the zip again from the start of the entry (a journal of 100,000 entries is one entry) only
 * to skip what is done, every step. It is taken over only where it stopped; else it is killed.
 */
interface Parked {
  child: Child;
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

function park(key: string, read: Omit<Parked, 'timer'>) {
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

const samePosition = (a: ItemPosition, b: ItemPosition) => a.entry === b.entry && a.item === b.item;
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
  let kept = key ? unpark(key) : undefined;
  if (kept && !(samePosition(kept.at, from) && kept.heapMb === run.budget.heapMb && kept.child.alive)) {
    kept.child.kill();
    kept = undefined;
  }
  for (;;) {
    const child =
      kept?.child ?? startChild(start(run, 'read', run.quarantined, from, 0), run.blob, run.budget);
    let entry = kept?.entry ?? null;
    let next = from;
    let pending = kept?.pending ?? [];
    let owesMore = kept?.owesMore ?? false;
    kept = undefined;
    let ended = false;
    try {
      for (;;) {
        while (pending.length) {
          const item = pending.shift()!;
          next = after(item);
          yield item;
        }
        if (owesMore) {
          child.send({ type: 'more' });
          owesMore = false;
        }
        const m = await child.next();
        if (m.type === 'entry') {
          entry = { index: m.entry, name: m.name };
          if (next.entry !== m.entry) next = { entry: m.entry, item: 0 };
          run.onEntry?.(m.entry, m.name);
        } else if (m.type === 'items') [pending, owesMore] = [[...m.items], true];
        else if (m.type === 'done') return void (ended = true);
        else if (m.type === 'limit') {
          ended = true;
          throw new ImportLimitError(m.message);
        } else if (m.type === 'died' || m.type === 'failed') {
          ended = true;
          const why = m.type === 'died' ? m.reason : m.message;
          if (!entry) throw unreadableZip(why);
          const at = next.entry === entry.index ? next : { entry: entry.index, item: 0 };
          from = { entry: entry.index + 1, item: 0 };
          yield {
            kind: 'problem',
            outcome: 'failed',
            reason: couldNotRead(why),
            at,
            file: entry.name,
            endsEntry: true,
          };
          break;
        }
      }
    } finally {
      // The caller stopped taking items (a step's time is up): the read waits for the next step.
      if (!ended && key && child.alive)
        park(key, { child, at: next, pending, owesMore, entry, heapMb: run.budget.heapMb });
      else child.kill();
    }
  }
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
