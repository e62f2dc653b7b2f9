import type { Response } from 'express';

/**
 * Sends a JSON array made of batches as they come (a journal of any size in bounded memory): the
 * first batch is awaited before the status goes out, so an error before any byte is answered as
 * usual; a later one cuts the connection (the client sees an incomplete body, never a short list
 * that parses). Writes wait for the socket to drain, and a client that leaves stops the batches.
 */
export async function sendJsonArray(res: Response, batches: AsyncIterable<unknown[]>): Promise<null> {
  const iterator = batches[Symbol.asyncIterator]();
  let next = await iterator.next();
  res.status(200);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'private, no-store');
  let first = true;
  try {
    res.write('[');
    while (!next.done) {
      for (const item of next.value) {
        const ok = res.write((first ? '' : ',') + JSON.stringify(item));
        first = false;
        if (!ok) await drainedOrClosed(res);
      }
      if (res.destroyed) {
        await iterator.return?.();
        return null;
      }
      next = await iterator.next();
    }
    res.end(']');
  } catch (err) {
    res.destroy();
    throw err;
  }
  return null;
}

/** Waits until the socket takes more or the client leaves, and takes both listeners back either way. */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
