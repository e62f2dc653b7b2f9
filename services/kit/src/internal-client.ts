import { createInternalClient, type ContractClient } from '@haven/contracts/client';
import type { RouteContract } from '@haven/contracts/contract';
import { INTERNAL_TOKEN_HEADER, REQUEST_ID_HEADER, type ServiceName } from '@haven/contracts/routes';
import type { Config } from './config';
import { currentContext } from './context';
import { createInternalTokenSigner } from './internal-auth';

/** Where each service listens, read at call time (the all-in-one launcher fills it as they start). */
export type ServiceUrls = () => Record<ServiceName, string>;

/** Service addresses from the configuration (distributed mode). */
export function serviceUrlsFrom(config: Config): Record<ServiceName, string> {
  return {
    auth: config.AUTH_URL,
    thoughts: config.THOUGHTS_URL,
    insights: config.INSIGHTS_URL,
    assistant: config.ASSISTANT_URL,
    integrations: config.INTEGRATIONS_URL,
    portability: config.PORTABILITY_URL,
  };
}

/**
 * Typed clients for other services' internal routes, signed as `caller` and addressed to the target,
 * for one user at a time: `internal('thoughts', thoughtsInternalContract)(userId).range({ query })`.
 * The current request id travels along, so one request can be followed across services.
 */
export type InternalClients = <C extends Record<string, RouteContract>>(
  target: ServiceName,
  contract: C,
) => (userId: number) => ContractClient<C>;

export function createInternalClients(options: {
  secret: string;
  caller: ServiceName;
  urls: ServiceUrls;
}): InternalClients {
  const sign = createInternalTokenSigner(options.secret, options.caller);
  return (target, contract) => (userId) =>
    createInternalClient(contract, {
      baseUrl: options.urls()[target],
      headers: () => {
        const requestId = currentContext()?.requestId;
        return {
          [INTERNAL_TOKEN_HEADER]: sign(target, userId),
          ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}),
        };
      },
    });
}
