import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ImportFormat } from '@haven/contracts/portability';
import { repoPath, repoRoot } from '@haven/kit/paths';
import { ImportLimitError, type ItemPosition } from '../source';
import type { ChildMessage, ParentMessage, SandboxItem, StartMessage } from './protocol';

/**
 * The service's side of the import sandbox. Every reader of the uploaded zip (zip listing, format
 * detection, JSON, YAML, Markdown and hashtags, XML, HTML, dates) runs in a child process with a
 * small heap, no secrets in its environment and a watchdog. A child process, not a worker thread:
 * some failures a hostile file provokes (V8's "RegExpCompiler Allocation failed - process out of
 * memory") abort the whole process, whatever a worker's resourceLimits say. When the child dies,
 * overruns its time or throws, the file it was on is reported as failed and a fresh child goes on
 * with the next file.
 */

/** What one sandbox may use. */
export interface SandboxBudget {
  /** Longest it may work without a word: one note, or one entry of a journal. */
  timeMs: number;
  /** Its V8 heap (old space), in MB. */
  heapMb: number;
}

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

/** The child's script: its TypeScript source under tsx (tests, bench), else the built bundle. */
function childScript(): { file: string; execArgv: string[] } {
  if (import.meta.url.endsWith('.ts'))
    return { file: fileURLToPath(new URL('./child.ts', import.meta.url)), execArgv: ['--import', 'tsx'] };
  const file = repoPath('services', 'portability', 'dist', 'import-sandbox.js');
  if (!existsSync(file)) throw new Error(`The import sandbox is not built (${file}); run npm run build`);
  return { file, execArgv: [] };
}

type Died = { type: 'died'; reason: string };

/** One child process: its messages in order, a watchdog on each wait, ranges served as asked. */
class SandboxChild {
  private readonly child: ChildProcess;
  private readonly queue: Array<ChildMessage | Died> = [];
  private waiting: ((m: ChildMessage | Died) => void) | null = null;
  private stderr = '';
  private gone = false;

  constructor(
    start: StartMessage,
    private readonly blob: SandboxBlob,
    private readonly budget: SandboxBudget,
  ) {
    const { file, execArgv } = childScript();
    this.child = fork(file, [], {
      execArgv: [...execArgv, `--max-old-space-size=${budget.heapMb}`],
      // Nothing of the service's configuration (keys, database) reaches the sandbox.
      env: { PATH: process.env.PATH ?? '', NODE_ENV: process.env.NODE_ENV ?? 'production' },
      cwd: repoRoot(),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4000);
    });
    this.child.on('message', (m: ChildMessage) => (m.type === 'range' ? this.serve(m) : this.push(m)));
    this.child.on('error', (err) => this.push({ type: 'died', reason: err.message }));
    this.child.on('exit', (code, signal) => {
      this.gone = true;
      this.push({ type: 'died', reason: this.deathReason(code, signal) });
    });
    this.tell(start);
  }

  /** The next message; a child silent for longer than its budget is killed and reported so. */
  next(): Promise<ChildMessage | Died> {
    const ready = this.queue.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        this.kill();
        resolve({ type: 'died', reason: `reading it took longer than ${this.budget.timeMs / 1000} s` });
      }, this.budget.timeMs);
      this.waiting = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
    });
  }

  more() {
    this.tell({ type: 'more' });
  }

  kill() {
    if (!this.gone) this.child.kill('SIGKILL');
  }

  private push(m: ChildMessage | Died) {
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) waiting(m);
    else this.queue.push(m);
  }

  private tell(m: ParentMessage) {
    if (!this.gone && this.child.connected) this.child.send(m, (err) => err && this.kill());
  }

  private serve(m: Extract<ChildMessage, { type: 'range' }>) {
    const { start, end } = m;
    if (!(
      Number.isSafeInteger(start) &&
      Number.isSafeInteger(end) &&
      0 <= start &&
      start <= end &&
      end <= this.blob.size
    ))
      return this.tell({ type: 'range', id: m.id, error: 'range outside the file' });
    this.blob.readRange(start, end).then(
      (data) => this.tell({ type: 'range', id: m.id, data }),
      (err: Error) => this.tell({ type: 'range', id: m.id, error: err.message }),
    );
  }

  private deathReason(code: number | null, signal: NodeJS.Signals | null): string {
    if (/heap out of memory|Allocation failed/i.test(this.stderr))
      return `it needed more than ${this.budget.heapMb} MB of memory`;
    if (/Maximum call stack/i.test(this.stderr)) return 'it is nested too deeply';
    return `the reader stopped (${signal ?? `exit code ${code}`})`;
  }
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
    const child = new SandboxChild(
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
 * The items of the zip from `resume` on, read in the sandbox a batch at a time (the next batch is
 * asked for only when the caller has taken this one). An entry that stops the sandbox gives one
 * failed item, the last of its entry, and a fresh sandbox goes on from the next entry.
 */
export async function* readInSandbox(
  run: SandboxRun,
  resume: ItemPosition | undefined,
): AsyncGenerator<SandboxItem> {
  let from: ItemPosition = resume ?? { entry: 0, item: 0 };
  for (;;) {
    const child = new SandboxChild(start(run, 'read', run.quarantined, from, 0), run.blob, run.budget);
    let entry: { index: number; name: string } | null = null;
    let next = from;
    try {
      for (;;) {
        const m = await child.next();
        if (m.type === 'entry') {
          entry = { index: m.entry, name: m.name };
          if (next.entry !== m.entry) next = { entry: m.entry, item: 0 };
          run.onEntry?.(m.entry, m.name);
        } else if (m.type === 'items') {
          for (const item of m.items) {
            next = item.endsEntry
              ? { entry: item.at.entry + 1, item: 0 }
              : { entry: item.at.entry, item: item.at.item + 1 };
            yield item;
          }
          child.more();
        } else if (m.type === 'done') return;
        else if (m.type === 'limit') throw new ImportLimitError(m.message);
        else if (m.type === 'died' || m.type === 'failed') {
          const why = m.type === 'died' ? m.reason : m.message;
          if (!entry) throw unreadableZip(why);
          const at = next.entry === entry.index ? next : { entry: entry.index, item: 0 };
          yield {
            kind: 'problem',
            outcome: 'failed',
            reason: couldNotRead(why),
            at,
            file: entry.name,
            endsEntry: true,
          };
          from = { entry: entry.index + 1, item: 0 };
          break;
        }
      }
    } finally {
      child.kill();
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
