/**
 * A lapsed session: the server answered 401 to a call made while signed in (the session was revoked
 * or expired). `api` reports each such answer here; the auth feature decides what it means (it
 * ends the session on the device when one was open) without `lib` importing a feature.
 */
let handler: (() => void) | null = null;

/** Sets what a 401 means to the app; returns the function that removes it. */
export function whenUnauthorized(onUnauthorized: () => void): () => void {
  handler = onUnauthorized;
  return () => {
    if (handler === onUnauthorized) handler = null;
  };
}

/** Called by `api` for a 401 it did not turn into `null`. */
export function reportUnauthorized(): void {
  handler?.();
}
