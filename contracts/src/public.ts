import { assistantContract } from './assistant';
import { authContract } from './auth';
import { calendarContract } from './calendar';
import type { RouteContract } from './contract';
import { debugContract } from './debug';
import { insightsContract } from './insights';
import { integrationsContract } from './integrations';
import { mailContract } from './mail';
import { portabilityContract } from './portability';
import { preferencesContract } from './preferences';
import { pushContract } from './push';
import { thoughtsContract } from './thoughts';
import { workspaceContract } from './workspace';

/**
 * Every contract reachable through the gateway's `/api`, by name: what the API reference documents
 * and what the gateway's request metrics are labelled by. Internal contracts are not listed.
 */
export const PUBLIC_CONTRACTS: Record<string, Record<string, RouteContract>> = {
  auth: authContract,
  preferences: preferencesContract,
  thoughts: thoughtsContract,
  insights: insightsContract,
  assistant: assistantContract,
  integrations: integrationsContract,
  mail: mailContract,
  calendar: calendarContract,
  workspace: workspaceContract,
  push: pushContract,
  portability: portabilityContract,
  debug: debugContract,
};

/** Every public route, each once. */
export function publicRoutes(): RouteContract[] {
  return Object.values(PUBLIC_CONTRACTS).flatMap((contract) => Object.values(contract));
}
