import { z } from 'zod';

/**
 * A mail account reached by its servers rather than an API (IMAP for reading, SMTP for sending):
 * Fastmail, iCloud, Yahoo, Outlook.com, a company's or one's own server.
 */

/** How a connection is protected: TLS from the first byte, STARTTLS after the greeting, or nothing. */
export const ServerSecurity = z.enum(['tls', 'starttls', 'none']);
export type ServerSecurity = z.infer<typeof ServerSecurity>;

const portError = { error: 'The port is a whole number from 1 to 65535' };

export const MailServer = z.object({
  host: z
    .string()
    .trim()
    .min(1, { error: 'Enter the server’s name' })
    .max(253)
    .regex(/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, {
      error: 'A server’s name has letters, digits, dots and dashes',
    }),
  port: z.number(portError).int(portError).min(1, portError).max(65535, portError),
  security: ServerSecurity,
});
export type MailServer = z.infer<typeof MailServer>;

/** A provider whose servers are known: a person types their address and an app password. */
export interface MailPreset {
  name: string;
  imap: MailServer;
  smtp: MailServer;
  /** Where its CalDAV calendars are found, when it offers them. */
  caldav?: string;
  /** Where the provider lets a person make an app password. */
  appPasswords: string;
}

/**
 * The providers' published settings (each one's help pages on IMAP, SMTP and CalDAV). Not Outlook.com
 * (nor Hotmail, Live, MSN): since 16 September 2024 Microsoft refuses passwords, app passwords too,
 * to other apps' IMAP and SMTP; those accounts connect with Microsoft's own sign-in.
 */
export const MAIL_PRESETS = {
  fastmail: {
    name: 'Fastmail',
    imap: { host: 'imap.fastmail.com', port: 993, security: 'tls' },
    smtp: { host: 'smtp.fastmail.com', port: 465, security: 'tls' },
    caldav: 'https://caldav.fastmail.com/',
    appPasswords: 'https://app.fastmail.com/settings/security/apps',
  },
  icloud: {
    name: 'iCloud',
    imap: { host: 'imap.mail.me.com', port: 993, security: 'tls' },
    smtp: { host: 'smtp.mail.me.com', port: 587, security: 'starttls' },
    caldav: 'https://caldav.icloud.com/',
    appPasswords: 'https://account.apple.com/account/manage',
  },
  yahoo: {
    name: 'Yahoo',
    imap: { host: 'imap.mail.yahoo.com', port: 993, security: 'tls' },
    smtp: { host: 'smtp.mail.yahoo.com', port: 465, security: 'tls' },
    caldav: 'https://caldav.calendar.yahoo.com/',
    appPasswords: 'https://login.yahoo.com/account/security',
  },
} as const satisfies Record<string, MailPreset>;
export type MailPresetId = keyof typeof MAIL_PRESETS;

/** Why a server could not be used, in words a person can act on (see `ServerCheck.message`). */
export const ServerProblem = z.enum([
  'host-not-found',
  'refused',
  'no-answer',
  'tls-refused',
  'certificate',
  'wrong-password',
  'server-error',
  'private-network',
]);
export type ServerProblem = z.infer<typeof ServerProblem>;

/** What trying a server's settings found: usable, or the problem with what the server said. */
export const ServerCheck = z.object({
  ok: z.boolean(),
  problem: ServerProblem.optional(),
  message: z.string(),
  /** The server's own words, when it said something (trimmed, one line). */
  serverSaid: z.string().optional(),
});
export type ServerCheck = z.infer<typeof ServerCheck>;

/**
 * What connecting any account by its servers takes: the address, the app password, a known
 * provider (else its servers are given), and the user name when it is not the address.
 */
const ServerSignIn = z.object({
  address: z.email({ error: 'Enter your e-mail address' }).max(254),
  password: z.string().min(1, { error: 'Enter the app password' }).max(1024),
  preset: z.enum(Object.keys(MAIL_PRESETS) as [MailPresetId, ...MailPresetId[]]).optional(),
  user: z.string().trim().min(1).max(254).optional(),
});

/**
 * POST /api/integrations/mail-server: a mail account by its servers. With a preset, its servers;
 * else both servers. The user name is the address unless given.
 */
export const MailServerAccountBody = ServerSignIn.extend({
  imap: MailServer.optional(),
  smtp: MailServer.optional(),
}).refine((b) => b.preset !== undefined || (b.imap !== undefined && b.smtp !== undefined), {
  error: 'Choose your provider, or enter the IMAP and SMTP servers',
  path: ['imap'],
});
export type MailServerAccountBody = z.infer<typeof MailServerAccountBody>;

/**
 * POST /api/integrations/calendar-server: a calendar by its CalDAV server. With a preset, its
 * address; else the server's address (discovery finds the calendars). The user name is the e-mail
 * address unless given; invitations name the user by that address.
 */
export const CalendarServerAccountBody = ServerSignIn.extend({
  url: z
    .url({ protocol: /^https?$/, error: 'Enter the calendar server’s address, starting with https://' })
    .max(2048)
    .optional(),
}).refine((b) => b.preset !== undefined || b.url !== undefined, {
  error: 'Choose your provider, or enter the calendar server’s address',
  path: ['url'],
});
export type CalendarServerAccountBody = z.infer<typeof CalendarServerAccountBody>;
