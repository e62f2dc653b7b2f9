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

/**
 * The e-mail service by its servers (IMAP and SMTP): not a card of its own (the e-mail card shows
 * whichever mail account is connected), offered beside Google in 'Add New' and on Google Mail's page.
 */
export const MAIL_SERVER_ENTRY: CatalogEntry = {
  provider: 'imap',
  type: 'email',
  name: 'Other Mail (IMAP)',
  description: 'Fastmail, iCloud, Yahoo, or your own or your company’s mail server.',
};

export const catalogEntry = (provider: string, type: string) =>
  [...CATALOG, MAIL_SERVER_ENTRY].find((c) => c.provider === provider && c.type === type);

/**
 * The account a card stands for: of its provider; for the e-mail card, a mail server's account when
 * there is no Google one (so the card shows the mail the user connected, whichever way).
 */
export function accountOfCard(list: Integration[] | undefined, entry: CatalogEntry) {
  const own = list?.find((i) => i.provider === entry.provider && i.type === entry.type);
  if (own || entry.type !== 'email') return { entry, integration: own };
  const server = list?.find((i) => i.provider === MAIL_SERVER_ENTRY.provider && i.type === 'email');
  return server ? { entry: MAIL_SERVER_ENTRY, integration: server } : { entry, integration: undefined };
}

export const providerName = (provider: string) =>
  provider === 'imap' ? 'IMAP' : provider.charAt(0).toUpperCase() + provider.slice(1);

/**
 * Where an account stands: connected; `reconnect` when it was connected and the provider stopped
 * accepting it (the connection issue says why: revoked, a permission left out); `not-set-up` when
 * this server has no client id for the provider, so connecting cannot work; or never connected.
 */
export type ConnectionState = 'connected' | 'reconnect' | 'not-set-up' | 'not-connected';

export const connectionStateOf = (integration: Integration | undefined, setUp = true): ConnectionState =>
  integration?.connected
    ? 'connected'
    : integration?.settings.error
      ? 'reconnect'
      : setUp
        ? 'not-connected'
        : 'not-set-up';

/** The dot beside a service: green connected, red only for a real error, grey otherwise. */
export const DOT_OF: Record<ConnectionState, string> = {
  connected: 'bg-emerald-500',
  reconnect: 'bg-red-500',
  'not-set-up': 'bg-zinc-400',
  'not-connected': 'bg-zinc-400',
};

/** What the server needs to connect a provider (the README's 'Connecting Google, Slack and Notion'). */
export const SETUP_VARIABLES: Record<Provider, string> = {
  google: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET',
  slack: 'SLACK_CLIENT_ID and SLACK_CLIENT_SECRET',
  notion: 'NOTION_CLIENT_ID and NOTION_CLIENT_SECRET',
  // A mail server is always set up: the person enters its settings.
  imap: 'nothing',
};

/** The README section's anchor (README.md in the project) that explains it to an operator. */
export const SETUP_README = '#connecting-google-slack-and-notion';
