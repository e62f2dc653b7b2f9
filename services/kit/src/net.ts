import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1 (for a process that must know its port before listening). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A free port held open until `release()`: a process that must name its port (in APP_URL) long
 * before it listens keeps it from being taken meanwhile, and releases it just before listening.
 */
export function reservePort(host = '127.0.0.1'): Promise<{ port: number; release(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      let released: Promise<void> | undefined;
      resolve({
        port,
        release: () => (released ??= new Promise<void>((done) => server.close(() => done()))),
      });
    });
  });
}
