import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { repoPath, repoRoot } from './paths';

/**
 * Sandboxes for untrusted content: parsers of what users upload or receive (zips, notes, mail
 * bodies) run in a child process with a small heap, no secret in its environment and a watchdog,
 * so that whatever a hostile input makes them do (run out of stack or memory, spin, abort the
 * process) the service goes on serving everyone. A child process, not a worker thread: V8 aborts
 * the whole process on some failures (its RegExp compiler running out of memory after a stack
 * overflow) whatever a worker's resourceLimits say. See docs in the README ("What protects the
 * server").
 */

/** What one sandbox may use. */
export interface SandboxLimits {
  /** Longest it may be waited for without a word, once it has started (see `sandboxStarted`). */
  timeMs: number;
  /** Its V8 heap (old space), in MB. */
  heapMb: number;
}

/** Where a sandbox's script is: its TypeScript source (run under tsx) or its built bundle. */
export interface SandboxScript {
  file: string;
  execArgv: string[];
}

/**
 * The child script: `source` (relative to `from`, the caller's `import.meta.url`) when the caller
 * runs from its TypeScript source (tests, the bench), else the bundle `dist` (a repository path)
 * that `scripts/build.mjs` builds beside the service's own.
 */
export function sandboxScript(from: string, source: string, dist: string[]): SandboxScript {
  if (from.endsWith('.ts'))
    return { file: fileURLToPath(new URL(source, from)), execArgv: ['--import', 'tsx'] };
  const file = repoPath(...dist);
  if (!existsSync(file)) throw new Error(`The sandbox ${file} is not built; run npm run build`);
  return { file, execArgv: [] };
}

/** The sandbox ended: it died, was killed by its watchdog, or exited. */
export interface SandboxDied {
  type: 'died';
  /** Why, in words a person can be shown. */
  reason: string;
}

/** What a child says once its code is loaded: from then on, its time is the task's. */
const STARTED = '@haven/sandbox-started';
/** How long a child may take to load its code (seconds under tsx on a loaded machine). */
const START_LIMIT_MS = 30_000;

/**
 * Tells the service this sandbox's code is loaded. Loading it (compiling TypeScript in tests, a
 * cold disk) is not charged to the task's time: the watchdog's `timeMs` counts from here.
 */
export function sandboxStarted(): void {
  process.send?.({ type: STARTED });
}

/**
 * One sandbox child: messages in order, a watchdog on each wait. `intercept` sees every message
 * first and may answer it itself (true: not queued), e.g. a request for bytes.
 */
export class SandboxProcess<Out extends { type: string }, In = unknown> {
  private readonly child: ChildProcess;
  private readonly queue: Array<Out | SandboxDied> = [];
  private waiting: ((m: Out | SandboxDied) => void) | null = null;
  private stderr = '';
  private gone = false;
  private started = false;
  /** The pending wait's watchdog, re-armed when the child says it has started. */
  private onStarted: (() => void) | null = null;

  constructor(
    script: SandboxScript,
    private readonly limits: SandboxLimits,
    intercept?: (m: Out) => boolean,
  ) {
    this.child = fork(script.file, [], {
      execArgv: [...script.execArgv, `--max-old-space-size=${limits.heapMb}`],
      // Nothing of the service's configuration (keys, database) reaches the sandbox.
      env: { PATH: process.env.PATH ?? '', NODE_ENV: process.env.NODE_ENV ?? 'production' },
      cwd: repoRoot(),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4000);
    });
    this.child.on('message', (m: Out) => {
      if (m.type === STARTED) return this.start();
      if (!intercept?.(m)) this.push(m);
    });
    this.child.on('error', (err) => this.push({ type: 'died', reason: err.message }));
    this.child.on('exit', (code, signal) => {
      this.gone = true;
      this.push({ type: 'died', reason: this.deathReason(code, signal) });
    });
  }

  /** Whether the child still runs. */
  get alive(): boolean {
    return !this.gone;
  }

  /**
   * The next message; a child silent for longer than its time (counted from its start) is killed
   * and reported so.
   */
  next(timeMs = this.limits.timeMs): Promise<Out | SandboxDied> {
    const ready = this.queue.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const expire = (reason: string) => () => {
        this.waiting = null;
        this.onStarted = null;
        this.kill();
        resolve({ type: 'died', reason });
      };
      const tookTooLong = expire(`reading it took longer than ${timeMs / 1000} s`);
      let timer = this.started
        ? setTimeout(tookTooLong, timeMs)
        : setTimeout(expire(`it did not start within ${START_LIMIT_MS / 1000} s`), START_LIMIT_MS);
      this.onStarted = () => {
        clearTimeout(timer);
        timer = setTimeout(tookTooLong, timeMs);
      };
      this.waiting = (m) => {
        clearTimeout(timer);
        this.onStarted = null;
        resolve(m);
      };
    });
  }

  send(m: In): void {
    if (!this.gone && this.child.connected) this.child.send(m as object, (err) => err && this.kill());
  }

  /** Kills the child; it counts as gone at once (its exit is reported later, to no one). */
  kill(): void {
    if (this.gone) return;
    this.gone = true;
    this.child.kill('SIGKILL');
  }

  private start() {
    this.started = true;
    this.onStarted?.();
    this.onStarted = null;
  }

  private push(m: Out | SandboxDied) {
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) waiting(m);
    else this.queue.push(m);
  }

  private deathReason(code: number | null, signal: NodeJS.Signals | null): string {
    if (/heap out of memory|Allocation failed/i.test(this.stderr))
      return `it needed more than ${this.limits.heapMb} MB of memory`;
    if (/Maximum call stack/i.test(this.stderr)) return 'it is nested too deeply';
    return `the reader stopped (${signal ?? `exit code ${code}`})`;
  }
}

/** A task's input could not be handled within the sandbox's limits (it died, overran, or threw). */
export class SandboxLimitError extends Error {
  override name = 'SandboxLimitError';
}

type PoolRequest = { type: 'run'; task: string; input: unknown };
type PoolAnswer = { type: 'result'; value: unknown } | { type: 'error'; message: string };

/**
 * Runs pure functions (`task` name → input → output) in one long-lived sandbox, one call at a time;
 * for many small calls (a mail body each) a process per call would cost more than the work. A call
 * that kills or stalls the sandbox rejects with a SandboxLimitError and the next call starts a
 * fresh one; a sandbox idle for `idleMs` is stopped, so an idle service holds no second process.
 */
export function createSandboxPool(options: {
  script: () => SandboxScript;
  limits: SandboxLimits;
  idleMs?: number;
}) {
  let child: SandboxProcess<PoolAnswer, PoolRequest> | null = null;
  let idle: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();

  async function call(task: string, input: unknown): Promise<unknown> {
    clearTimeout(idle);
    if (!child?.alive) child = new SandboxProcess(options.script(), options.limits);
    const running = child;
    running.send({ type: 'run', task, input });
    const answer = await running.next();
    idle = setTimeout(() => running.kill(), options.idleMs ?? 30_000);
    idle.unref();
    if (answer.type === 'result') return answer.value;
    if (answer.type === 'error') throw new SandboxLimitError(answer.message);
    running.kill();
    throw new SandboxLimitError(answer.reason);
  }

  return {
    /** The task's answer, computed in the sandbox. */
    run<T>(task: string, input: unknown): Promise<T> {
      const result = chain.then(() => call(task, input));
      chain = result.catch(() => undefined);
      return result as Promise<T>;
    },
    /** Stops the sandbox (the service is closing). */
    close() {
      clearTimeout(idle);
      child?.kill();
    },
  };
}
export type SandboxPool = ReturnType<typeof createSandboxPool>;

/**
 * The child's side of a pool: answers each call with its task's result. A task that throws (or
 * rejects) answers an error (the sandbox lives on); one that kills the process is the pool's to report.
 */
export function serveSandboxTasks(tasks: Record<string, (input: never) => unknown>): void {
  process.on('message', (m: PoolRequest) => {
    if (m.type !== 'run') return;
    void (async (): Promise<PoolAnswer> => {
      try {
        const task = tasks[m.task];
        if (!task) throw new Error(`No task ${m.task}`);
        // A task may answer a promise (a parser that reads a stream): its value is sent when settled.
        return { type: 'result', value: await task(m.input as never) };
      } catch (err) {
        return { type: 'error', message: (err as Error)?.message ?? String(err) };
      }
    })().then((answer) => process.send!(answer));
  });
  process.on('disconnect', () => process.exit(0));
  sandboxStarted();
}
