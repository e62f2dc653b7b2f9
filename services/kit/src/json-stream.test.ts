import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { sendJsonArray } from './json-stream';

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** Serves `batches` of 1 KB items through sendJsonArray, noting the response's listeners per batch. */
async function serve(batches: number, perBatch: number) {
  const listeners: number[] = [];
  const app = express();
  app.get('/all', (_req, res) => {
    async function* items() {
      for (let b = 0; b < batches; b++) {
        listeners.push(res.listenerCount('close') + res.listenerCount('drain') + res.listenerCount('error'));
        yield Array.from({ length: perBatch }, (_, i) => ({ n: b * perBatch + i, text: 'x'.repeat(1000) }));
      }
    }
    void sendJsonArray(res, items());
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/all`, listeners };
}

describe('sendJsonArray', () => {
  it('sends every batch as one array and leaves no listener behind for each time the socket was full', async () => {
    const { url, listeners } = await serve(300, 100);
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const body = (await (await fetch(url)).json()) as { n: number }[];
      expect(body).toHaveLength(30_000);
      expect(body.at(-1)?.n).toBe(29_999);
    } finally {
      process.off('warning', onWarning);
    }
    // 30 MB through a socket fills it hundreds of times; before, each wait left a close and an error listener.
    expect(Math.max(...listeners) - listeners[0]!).toBeLessThanOrEqual(2);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
