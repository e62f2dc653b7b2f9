import diagnostics from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Metrics } from './metrics';

/** The origins (`https://slack.com`) each provider is reached at, e.g. from the *_URL settings. */
export type ProviderOrigins = Record<string, string[]>;

interface UndiciRequest {
  origin: string;
}

/**
 * Measures every call to a provider's origins, whichever client library makes it: googleapis and
 * Slack's client go through node:http, Notion's through fetch (undici). Both publish each request on
 * Node's diagnostics channels, so one subscriber here sees them all and no call site changes. Other
 * outbound calls (internal ones, the model server) are not providers and are left alone.
 * Returns the function that stops measuring.
 */
export function observeProviderCalls(metrics: Metrics, origins: ProviderOrigins): () => void {
  const providerOf = new Map<string, string>();
  for (const [provider, urls] of Object.entries(origins))
    for (const url of urls) providerOf.set(new URL(url).origin, provider);
  const started = new WeakMap<object, { provider: string; at: bigint }>();

  const start = (request: object, origin: string) => {
    const provider = providerOf.get(origin);
    if (provider) started.set(request, { provider, at: process.hrtime.bigint() });
  };
  const finish = (request: object, status: number | 'error') => {
    const call = started.get(request);
    if (!call) return;
    started.delete(request);
    const seconds = Number(process.hrtime.bigint() - call.at) / 1e9;
    metrics.provider.observe({ provider: call.provider, status_code: String(status) }, seconds);
    if (status === 429) metrics.providerRateLimited.inc({ provider: call.provider });
  };

  const handlers: Array<[string, (message: unknown) => void]> = [
    [
      'http.client.request.start',
      (m) => {
        const request = (m as { request: ClientRequest }).request;
        start(request, `${request.protocol}//${String(request.getHeader('host'))}`);
      },
    ],
    [
      'http.client.response.finish',
      (m) => {
        const { request, response } = m as { request: ClientRequest; response: IncomingMessage };
        finish(request, response.statusCode ?? 'error');
      },
    ],
    ['http.client.request.error', (m) => finish((m as { request: ClientRequest }).request, 'error')],
    [
      'undici:request:create',
      (m) => {
        const request = (m as { request: UndiciRequest }).request;
        start(request, request.origin);
      },
    ],
    [
      'undici:request:headers',
      (m) => {
        const { request, response } = m as { request: object; response: { statusCode: number } };
        finish(request, response.statusCode);
      },
    ],
    ['undici:request:error', (m) => finish((m as { request: object }).request, 'error')],
  ];
  for (const [channel, handler] of handlers) diagnostics.subscribe(channel, handler);
  return () => {
    for (const [channel, handler] of handlers) diagnostics.unsubscribe(channel, handler);
  };
}
