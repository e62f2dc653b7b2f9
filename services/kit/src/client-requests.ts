import diagnostics from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';

/** An outgoing request as its start is published: where it goes and how. */
export interface StartedRequest {
  /** `https://slack.com`: the protocol and host (with its port) the request is sent to. */
  origin: string;
  method: string;
}

export interface ClientRequestObserver<T> {
  /**
   * A request starts, synchronously in its caller's async context. What it returns is handed to
   * `finish`; undefined: this request is not followed.
   */
  start(request: StartedRequest): T | undefined;
  /** The answer's headers arrived (`status`), or the request failed (`error`). */
  finish(state: T, outcome: { status?: number; error?: Error }): void;
}

interface UndiciRequest {
  origin: string;
  method: string;
}

/**
 * Follows every outgoing HTTP request, whichever client library makes it: node:http (googleapis'
 * older clients, Slack's) and, with `fetch`, undici (fetch, Notion's client) publish each request
 * on Node's diagnostics channels, so call sites need not change. Returns the function that stops.
 */
export function observeClientRequests<T>(
  observer: ClientRequestObserver<T>,
  options: { fetch?: boolean } = {},
): () => void {
  const followed = new WeakMap<object, T>();
  const start = (request: object, started: StartedRequest) => {
    const state = observer.start(started);
    if (state !== undefined) followed.set(request, state);
  };
  const finish = (request: object, outcome: { status?: number; error?: Error }) => {
    const state = followed.get(request);
    if (state === undefined) return;
    followed.delete(request);
    observer.finish(state, outcome);
  };

  const handlers: Array<[string, (message: unknown) => void]> = [
    [
      'http.client.request.start',
      (m) => {
        const request = (m as { request: ClientRequest }).request;
        start(request, {
          origin: `${request.protocol}//${String(request.getHeader('host') ?? request.host)}`,
          method: request.method,
        });
      },
    ],
    [
      'http.client.response.finish',
      (m) => {
        const { request, response } = m as { request: ClientRequest; response: IncomingMessage };
        finish(request, { status: response.statusCode });
      },
    ],
    [
      'http.client.request.error',
      (m) => {
        const { request, error } = m as { request: ClientRequest; error: Error };
        finish(request, { error });
      },
    ],
  ];
  if (options.fetch)
    handlers.push(
      [
        'undici:request:create',
        (m) => {
          const request = (m as { request: UndiciRequest }).request;
          start(request, { origin: request.origin, method: request.method });
        },
      ],
      [
        'undici:request:headers',
        (m) => {
          const { request, response } = m as { request: object; response: { statusCode: number } };
          finish(request, { status: response.statusCode });
        },
      ],
      [
        'undici:request:error',
        (m) => {
          const { request, error } = m as { request: object; error: Error };
          finish(request, { error });
        },
      ],
    );
  for (const [channel, handler] of handlers) diagnostics.subscribe(channel, handler);
  return () => {
    for (const [channel, handler] of handlers) diagnostics.unsubscribe(channel, handler);
  };
}
