import { observeClientRequests } from './client-requests';
import type { Metrics } from './metrics';

/** The origins (`https://slack.com`) each provider is reached at, e.g. from the *_URL settings. */
export type ProviderOrigins = Record<string, string[]>;

/**
 * Measures every call to a provider's origins, whichever client library makes it: googleapis and
 * Slack's client go through node:http, Notion's through fetch (undici); both are seen where they
 * leave the process (see `observeClientRequests`), so no call site changes. Other outbound calls
 * (internal ones, the model server) are not providers and are left alone.
 * Returns the function that stops measuring.
 */
export function observeProviderCalls(metrics: Metrics, origins: ProviderOrigins): () => void {
  const providerOf = new Map<string, string>();
  for (const [provider, urls] of Object.entries(origins))
    for (const url of urls) providerOf.set(new URL(url).origin, provider);
  return observeClientRequests(
    {
      start: ({ origin }) => {
        const provider = providerOf.get(origin);
        return provider ? { provider, at: process.hrtime.bigint() } : undefined;
      },
      finish: (call, { status }) => {
        const seconds = Number(process.hrtime.bigint() - call.at) / 1e9;
        metrics.provider.observe(
          { provider: call.provider, status_code: String(status ?? 'error') },
          seconds,
        );
        if (status === 429) metrics.providerRateLimited.inc({ provider: call.provider });
      },
    },
    { fetch: true },
  );
}
