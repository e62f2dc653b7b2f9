import { serveSandboxTasks } from './sandbox';

/** Tasks for sandbox.test.ts: each misbehaves in its own way, in the sandbox's child process. */
serveSandboxTasks({
  double: (n: number) => n * 2,
  throws: () => {
    throw new Error('no such thing');
  },
  aborts: () => process.abort(),
  spins: () => {
    for (;;);
  },
  hoards: () => {
    const kept: string[] = [];
    for (let i = 0; ; i++) kept.push(`${i}`.repeat(1000));
  },
  recurses: () => {
    const deeper = (n: number): number => deeper(n + 1) + 1;
    return deeper(0);
  },
});
