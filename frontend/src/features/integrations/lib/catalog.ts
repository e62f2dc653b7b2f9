import type { Integration, IntegrationType, Provider } from '@haven/contracts/integrations';

/** The services the Integrations screen offers, in its order (spec section 2). */
export interface CatalogEntry {
  provider: Provider;
  type: IntegrationType;
  name: string;
  description: string;
}

export const CATALOG: readonly CatalogEntry[] = [
  {
    provider: 'google',
    type: 'calendar',
    name: 'Google Calendar',
    description: 'Invitations to answer, and events from suggestions.',
  },
  {
    provider: 'google',
    type: 'email',
    name: 'Google Mail',
    description: 'An e-mail digest, reply drafts and sending.',
  },
  {
    provider: 'slack',
    type: 'messages',
    name: 'Slack Messages',
    description: 'Mentions and direct messages waiting for your reply.',
  },
  {
    provider: 'notion',
    type: 'documents',
    name: 'Notion Documents',
    description: 'Recent pages, search for the assistant, and Save to Notion.',
  },
];

export const catalogEntry = (provider: string, type: string) =>
  CATALOG.find((c) => c.provider === provider && c.type === type);

export const providerName = (provider: string) => provider.charAt(0).toUpperCase() + provider.slice(1);

/**
 * Where an account stands: connected; `reconnect` when it was connected and the provider stopped
 * accepting it (the connection issue says why: revoked, a permission left out); or never connected.
 */
export type ConnectionState = 'connected' | 'reconnect' | 'not-connected';

export const connectionStateOf = (integration: Integration | undefined): ConnectionState =>
  integration?.connected ? 'connected' : integration?.settings.error ? 'reconnect' : 'not-connected';
