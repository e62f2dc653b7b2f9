import type { Integration, IntegrationType, Provider } from '@haven/contracts/integrations';

const GOOGLE = 'https://www.googleapis.com/auth/';

/** A granted scope in words; scopes that say nothing a person needs to know are left out. */
const WORDS: Record<string, string> = {
  [`${GOOGLE}calendar`]: 'Read your calendar and its events',
  [`${GOOGLE}calendar.readonly`]: 'Read your calendar and its events',
  [`${GOOGLE}calendar.events`]: 'Create events and answer invitations you accept or decline',
  [`${GOOGLE}gmail.readonly`]: 'Read your e-mail for the digest',
  [`${GOOGLE}gmail.compose`]: 'Write drafts and send e-mail you approve',
  [`${GOOGLE}userinfo.email`]: 'See your e-mail address',
  // Microsoft answers its Graph scopes by their short names.
  'Mail.ReadWrite': 'Read your e-mail for the digest, and write drafts',
  'Mail.Send': 'Send e-mail you approve',
  'Calendars.ReadWrite': 'Read your calendar, create events and answer invitations you accept or decline',
  'User.Read': 'See your name and e-mail address',
  'search:read': 'Find messages that mention you',
  'im:history': 'Read your direct messages',
  'im:read': 'Read your direct messages',
  'users:read': 'See who wrote to you',
  'channels:history': 'Read the replies in public channels where you were mentioned',
  'groups:history': 'Read the replies in private channels where you were mentioned',
};

/** What the app asks each kind of account for, when the provider does not say what it granted. */
const ASKED: Partial<Record<`${Provider}:${IntegrationType}`, string[]>> = {
  'google:calendar': [`${GOOGLE}calendar`, `${GOOGLE}calendar.events`, `${GOOGLE}userinfo.email`],
  'google:email': [`${GOOGLE}gmail.readonly`, `${GOOGLE}gmail.compose`, `${GOOGLE}userinfo.email`],
  'microsoft:email': ['Mail.ReadWrite', 'Mail.Send', 'User.Read'],
  'microsoft:calendar': ['Calendars.ReadWrite', 'User.Read'],
  'slack:messages': ['search:read', 'im:history', 'users:read', 'channels:history', 'groups:history'],
};

/** A calendar server's login can do all a calendar app can: what Haven does with it. */
const CALENDAR_SERVER = [
  'Read your calendars’ upcoming events and invitations',
  'Create events and answer invitations you accept or decline',
  'Nothing else: no deleting or moving events',
];

/** A mail server's login can do all a mail app can: what Haven does with it. */
const MAIL_SERVER = [
  'Read your inbox and sent mail for the digest',
  'Write drafts and send e-mail you approve',
  'Nothing else: no deleting, moving or marking',
];

/** Notion grants access per page and says no scopes: what the app does with it. */
const NOTION = ['Read the pages you shared with Haven', 'Create pages where you choose (Save to Notion)'];

/** What a connection may read and do, in words, from the scopes it was granted (or its type). */
export function capabilitiesOf(integration: Pick<Integration, 'provider' | 'type' | 'scopes'>): string[] {
  if (integration.provider === 'notion') return NOTION;
  if (integration.provider === 'imap') return MAIL_SERVER;
  if (integration.provider === 'caldav') return CALENDAR_SERVER;
  const scopes = integration.scopes.length
    ? integration.scopes
    : (ASKED[`${integration.provider}:${integration.type}`] ?? []);
  const words = scopes.map((scope) => WORDS[scope]).filter((w): w is string => w !== undefined);
  const said = [...new Set(words)];
  return integration.provider === 'slack' ? [...said, 'Post nothing: it only reads'] : said;
}
