import type { IntegrationType, Provider } from '@haven/contracts/integrations';

/** The services the Integrations screen offers, in its order (spec section 2). */
export interface CatalogEntry {
  provider: Provider;
  type: IntegrationType;
  name: string;
  description: string;
  /** Connecting works on this server (Slack and Notion arrive with their issue). */
  available: boolean;
}

export const CATALOG: readonly CatalogEntry[] = [
  {
    provider: 'google',
    type: 'calendar',
    name: 'Google Calendar',
    description: 'Invitations to answer, and events from suggestions.',
    available: true,
  },
  {
    provider: 'google',
    type: 'email',
    name: 'Google Mail',
    description: 'An e-mail digest, reply drafts and sending.',
    available: true,
  },
  {
    provider: 'slack',
    type: 'messages',
    name: 'Slack Messages',
    description: 'Mentions and direct messages waiting for you.',
    available: false,
  },
  {
    provider: 'notion',
    type: 'documents',
    name: 'Notion Documents',
    description: 'Your recently edited pages.',
    available: false,
  },
];

export const catalogEntry = (provider: string, type: string) =>
  CATALOG.find((c) => c.provider === provider && c.type === type);

export const providerName = (provider: string) => provider.charAt(0).toUpperCase() + provider.slice(1);
