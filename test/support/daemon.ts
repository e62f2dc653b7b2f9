import { spawn } from 'node:child_process';
import { connect } from 'node:net';

/** A server the tests run as a child process, in the foreground: it goes when the tests do. */
export interface Daemon {
  stop(): Promise<void>;
}

async function listening(port: number, deadline: number, name: string): Promise<void> {
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${name} is not listening on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts `command` and resolves once it listens on `port` of 127.0.0.1 (within 15 s). */
export async function startDaemon(
  name: string,
  command: string,
  args: string[],
  port: number,
  diagnose: () => string = () => '',
): Promise<Daemon> {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  try {
    await Promise.race([
      listening(port, Date.now() + 15_000, name),
      exited.then(() => Promise.reject(new Error('it exited'))),
    ]);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${name} did not start (${(err as Error).message}): ${stderr}\n${diagnose()}`);
  }
  return {
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
