import { afterAll, describe, expect, it } from 'vitest';
import { SandboxLimitError, createSandboxPool, sandboxScript } from './sandbox';

describe('a sandbox pool', () => {
  const pool = createSandboxPool({
    script: () => sandboxScript(import.meta.url, './sandbox-tasks.test-support.ts', ['none']),
    limits: { heapMb: 32, timeMs: 5000 },
  });
  afterAll(() => pool.close());

  const failure = (task: string) =>
    pool.run(task, null).then(
      () => 'answered',
      (err: Error) => `${err instanceof SandboxLimitError ? 'limit' : 'other'}: ${err.message}`,
    );

  it('answers tasks, and outlives one that throws', async () => {
    expect(await pool.run('double', 21)).toBe(42);
    expect(await failure('throws')).toBe('limit: no such thing');
    expect(await pool.run('double', 4)).toBe(8);
  });

  it('reports a task that kills, stalls, exhausts or overflows its sandbox, and answers the next', async () => {
    expect(await failure('aborts')).toBe('limit: the reader stopped (SIGABRT)');
    expect(await pool.run('double', 1)).toBe(2);
    expect(await failure('hoards')).toBe('limit: it needed more than 32 MB of memory');
    expect(await pool.run('double', 2)).toBe(4);
    expect(await failure('recurses')).toBe('limit: Maximum call stack size exceeded');
    expect(await pool.run('double', 3)).toBe(6);
  }, 30_000);

  it('kills a task that runs past its time', async () => {
    const quick = createSandboxPool({
      script: () => sandboxScript(import.meta.url, './sandbox-tasks.test-support.ts', ['none']),
      limits: { heapMb: 32, timeMs: 1500 },
    });
    try {
      const started = performance.now();
      expect(await quick.run('spins', null).catch((err: Error) => err.message)).toBe(
        'reading it took longer than 1.5 s',
      );
      expect(performance.now() - started).toBeLessThan(5000);
      expect(await quick.run('double', 5)).toBe(10);
    } finally {
      quick.close();
    }
  }, 30_000);

  it('does not charge the loading of its code to the first task', async () => {
    const slow = createSandboxPool({
      script: () => sandboxScript(import.meta.url, './sandbox-slow-start.test-support.ts', ['none']),
      limits: { heapMb: 32, timeMs: 500 },
    });
    try {
      expect(await slow.run('double', 4)).toBe(8);
    } finally {
      slow.close();
    }
  }, 30_000);

  it('runs calls one at a time, in order', async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => pool.run<number>('double', n)));
    expect(answers).toEqual([2, 4, 6, 8, 10]);
  });
});
