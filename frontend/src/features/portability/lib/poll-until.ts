/** Waits `ms`, or rejects as soon as `signal` aborts. */
function pause(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

/**
 * Reads every `every` ms until `done` says so and resolves with the last answer. A failed read (a 404
 * for a transfer that is gone, a network error) rejects at once, and so does aborting `signal`.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  onEach: (value: T) => void,
  { signal, every = 800 }: { signal?: AbortSignal; every?: number } = {},
): Promise<T> {
  for (;;) {
    signal?.throwIfAborted();
    const value = await read();
    signal?.throwIfAborted();
    onEach(value);
    if (done(value)) return value;
    await pause(every, signal);
  }
}
