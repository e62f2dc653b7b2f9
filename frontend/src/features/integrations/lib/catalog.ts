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
 * Microsoft 365 and Outlook.com mail: not a card of its own (the e-mail card shows whichever mail
 * account is connected), offered beside Google in 'Add New' and on Google Mail's page.
 */
export const MICROSOFT_MAIL_ENTRY: CatalogEntry = {
  provider: 'microsoft',
  type: 'email',
  name: 'Microsoft Mail',
  description: 'Outlook.com, Hotmail, or your Microsoft 365 work or school mail.',
};

/** Microsoft 365 and Outlook.com calendar, like its mail, beside Google Calendar. */
export const MICROSOFT_CALENDAR_ENTRY: CatalogEntry = {
  provider: 'microsoft',
  type: 'calendar',
  name: 'Microsoft Calendar',
  description: 'Outlook.com, or your Microsoft 365 work or school calendar.',
};

/** The e-mail service by its servers (IMAP and SMTP), like Microsoft's, beside Google Mail. */
export const MAIL_SERVER_ENTRY: CatalogEntry = {
  provider: 'imap',
  type: 'email',
  name: 'Other Mail (IMAP)',
  description: 'Fastmail, iCloud, Yahoo, or your own or your company’s mail server.',
};

/** The calendar by its CalDAV server: like the mail server, beside Google Calendar. */
export const CALENDAR_SERVER_ENTRY: CatalogEntry = {
  provider: 'caldav',
  type: 'calendar',
  name: 'Other Calendar (CalDAV)',
  description: 'Fastmail, iCloud, Yahoo, or any CalDAV server.',
};

/** The accounts by their servers (an app password, no consent page). */
export const SERVER_ENTRIES: readonly CatalogEntry[] = [MAIL_SERVER_ENTRY, CALENDAR_SERVER_ENTRY];

/** What the e-mail and calendar cards may stand for besides Google, in the order they are offered. */
export const OTHER_ENTRIES: readonly CatalogEntry[] = [
  MICROSOFT_MAIL_ENTRY,
  MAIL_SERVER_ENTRY,
  MICROSOFT_CALENDAR_ENTRY,
  CALENDAR_SERVER_ENTRY,
];

/** The others offered beside a card's own service: for Google's mail and calendar, Microsoft and servers. */
export const othersOf = (entry: CatalogEntry) =>
  entry.provider === 'google' ? OTHER_ENTRIES.filter((other) => other.type === entry.type) : [];

export const catalogEntry = (provider: string, type: string) =>
  [...CATALOG, ...OTHER_ENTRIES].find((c) => c.provider === provider && c.type === type);

/**
 * The account a card stands for: of its provider; for the e-mail and calendar cards, another
 * provider's account of that type when there is no Google one (so the card shows what the user
 * connected, whichever it is).
 */
export function accountOfCard(list: Integration[] | undefined, entry: CatalogEntry) {
  const of = (e: CatalogEntry) => list?.find((i) => i.provider === e.provider && i.type === e.type);
  const own = of(entry);
  const other = othersOf(entry).find((e) => of(e));
  if (own || !other) return { entry, integration: own };
  return { entry: other, integration: of(other) };
}

export const providerName = (provider: string) =>
  provider === 'imap'
    ? 'IMAP'
    : provider === 'caldav'
      ? 'CalDAV'
      : provider.charAt(0).toUpperCase() + provider.slice(1);

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

/** What the server needs to connect a provider (the README's 'Connecting Google, Microsoft, Slack and Notion'). */
export const SETUP_VARIABLES: Record<Provider, string> = {
  google: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET',
  microsoft: 'MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET',
  slack: 'SLACK_CLIENT_ID and SLACK_CLIENT_SECRET',
  notion: 'NOTION_CLIENT_ID and NOTION_CLIENT_SECRET',
  // A mail server is always set up: the person enters its settings.
  imap: 'nothing',
  caldav: 'nothing',
};

/** The README section's anchor (README.md in the project) that explains it to an operator. */
export const SETUP_README = '#connecting-google-microsoft-slack-and-notion';
