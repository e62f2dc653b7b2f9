/**
 * Accounts reached by their servers: mail (provider `imap`: IMAP and SMTP) and calendars (provider
 * `caldav`). Connecting one signs in first; the stored login is read back for its source. The login
 * (servers, user name, app password) is kept encrypted as the account's credential, in the column
 * that holds an OAuth account's access token, under the same context: it is never presented, logged
 * or exported.
 */
import { z } from 'zod';
import type { Integration } from '@haven/contracts/integrations';
import {
  MAIL_PRESETS,
  MailServer,
  type CalendarServerAccountBody,
  type MailServerAccountBody,
  type ServerCheck,
} from '@haven/contracts/mail-servers';
import type { FieldCipher } from '@haven/kit/crypto';
import { serverRefused } from '@haven/kit/errors';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import { connectIntegration, type IntegrationRow } from '../../db/integrations.repository';
import { accountContext, tokenContext } from '../contexts';
import type { CalDavAccount } from '../calendar/caldav-source';
import { checkCalDav } from '../calendar/servers/check';
import type { CalendarSource } from '../calendar/source';
import type { ImapAccount } from './imap-source';
import { AddressRefused, addressFor } from './servers/address-guard';
import {
  checkImap,
  checkSmtp,
  imapClient,
  type CheckOptions,
  type ImapCheck,
  type ServerLogin,
} from './servers/check';

const Login = z.object({ server: MailServer, user: z.string(), password: z.string() });
const StoredLogin = z.object({
  imap: Login,
  smtp: Login,
  address: z.string(),
  folders: z.object({ sent: z.string().nullable(), drafts: z.string().nullable() }).optional(),
});

const StoredCalendarLogin = z.object({
  url: z.string(),
  user: z.string(),
  password: z.string(),
  address: z.string(),
});

const loginOf = (row: IntegrationRow, cipher: FieldCipher): unknown => {
  if (!row.accessTokenEnc) throw new Error(`integration ${row.id} holds no server login`);
  return JSON.parse(cipher.decrypt(row.accessTokenEnc, tokenContext(row.userId)));
};

/** The IMAP account an `imap` row stores (decrypted for the call that needs it). */
export const serverAccountOf = (row: IntegrationRow, cipher: FieldCipher): ImapAccount =>
  StoredLogin.parse(loginOf(row, cipher));

/** The CalDAV account a `caldav` row stores (decrypted for the call that needs it). */
export const calendarServerAccountOf = (row: IntegrationRow, cipher: FieldCipher): CalDavAccount =>
  StoredCalendarLogin.parse(loginOf(row, cipher));

/**
 * A CalDAV source that checks its server's address before each call (see address-guard.ts): a name
 * that has come to lead to a private network is refused, and the account shows a connection issue.
 */
export function reachableOnly(source: CalendarSource, url: string, allowPrivate: boolean): CalendarSource {
  const checked = () => addressFor(new URL(url).hostname, allowPrivate);
  return {
    invitations: async (window) => (await checked(), source.invitations(window)),
    create: async (event) => (await checked(), source.create(event)),
    respond: async (id, response) => (await checked(), source.respond(id, response)),
  };
}

export interface ServerAccountsDeps {
  uow: UnitOfWork;
  cipher: FieldCipher;
  present: (row: IntegrationRow) => Integration;
  /** MAIL_SERVERS_ALLOW_PRIVATE: servers on private addresses may be connected. */
  allowPrivate: boolean;
  /** How long each server may take, and whether to trust unsigned certificates (tests). */
  check?: CheckOptions;
  syncIntervalMs: number;
}

export function createServerAccounts({
  uow,
  cipher,
  present,
  allowPrivate,
  check = {},
  syncIntervalMs,
}: ServerAccountsDeps) {
  /** Signs in to one server, at its checked address; a private one (not allowed) is refused in words. */
  async function tryServer<T extends ServerCheck>(
    login: ServerLogin,
    signIn: (login: ServerLogin, options: CheckOptions) => Promise<T>,
  ): Promise<T | ServerCheck> {
    try {
      const address = await addressFor(login.server.host, allowPrivate);
      return await signIn(login, { ...check, address });
    } catch (err) {
      if (!(err instanceof AddressRefused)) throw err;
      return { ok: false, problem: 'private-network', message: err.message };
    }
  }

  /** Stores the account and queues its first sync, as one unit of work. */
  const store = (values: {
    userId: number;
    provider: 'imap' | 'caldav';
    type: 'email' | 'calendar';
    login: unknown;
    address: string;
  }) =>
    uow.run(async (tx, emit) => {
      const stored = await connectIntegration(tx, {
        userId: values.userId,
        provider: values.provider,
        type: values.type,
        accessTokenEnc: cipher.encrypt(JSON.stringify(values.login), tokenContext(values.userId)),
        refreshTokenEnc: null,
        expiresAt: null,
        scope: null,
        accountEnc: cipher.encrypt(values.address, accountContext(values.userId)),
        nextSyncAt: new Date(Date.now() + syncIntervalMs),
      });
      await emit('accounts.sync', { integrationId: stored.id, request: stored.syncRequest });
      return stored;
    });

  return {
    /** POST /api/integrations/calendar-server: the server tried (its calendars found), then stored. */
    async connectCalendar(userId: number, body: CalendarServerAccountBody): Promise<Integration> {
      const url = body.url ?? MAIL_PRESETS[body.preset!].caldav;
      const login = { url, user: body.user ?? body.address, password: body.password };
      let found: ServerCheck;
      try {
        await addressFor(new URL(url).hostname, allowPrivate);
        found = await checkCalDav(login, check);
      } catch (err) {
        if (!(err instanceof AddressRefused)) throw err;
        found = { ok: false, problem: 'private-network', message: err.message };
      }
      if (!found.ok)
        throw serverRefused(found.message, [
          { path: ['caldav'], message: found.message, code: found.problem },
        ]);
      const address = body.address.toLowerCase();
      return present(
        await store({ userId, provider: 'caldav', type: 'calendar', login: { ...login, address }, address }),
      );
    },

    /** POST /api/integrations/mail-server: both servers tried, then the account stored and its first sync queued. */
    async connect(userId: number, body: MailServerAccountBody): Promise<Integration> {
      const preset = body.preset ? MAIL_PRESETS[body.preset] : undefined;
      const user = body.user ?? body.address;
      const imap = { server: body.imap ?? preset!.imap, user, password: body.password };
      const smtp = { server: body.smtp ?? preset!.smtp, user, password: body.password };
      const [imapCheck, smtpCheck] = await Promise.all([
        tryServer(imap, checkImap),
        tryServer(smtp, checkSmtp),
      ]);
      if (!imapCheck.ok || !smtpCheck.ok) {
        const failed = [
          ['imap', imapCheck],
          ['smtp', smtpCheck],
        ] as const;
        throw serverRefused(
          (!imapCheck.ok ? imapCheck : smtpCheck).message,
          failed.flatMap(([path, c]) =>
            c.ok ? [] : [{ path: [path], message: c.message, code: c.problem }],
          ),
        );
      }
      const folders = (imapCheck as ImapCheck).folders;
      const address = body.address.toLowerCase();
      const login = { imap, smtp, address, folders };
      return present(await store({ userId, provider: 'imap', type: 'email', login, address }));
    },
  };
}
export type ServerAccounts = ReturnType<typeof createServerAccounts>;

/** A connection to a mail account's IMAP server, its inbox selected, left to wait in IDLE (imap-watch.ts). */
export async function openInbox(row: IntegrationRow, cipher: FieldCipher, allowPrivate: boolean) {
  const { imap } = serverAccountOf(row, cipher);
  const client = imapClient(imap, { address: await addressFor(imap.server.host, allowPrivate), idle: true });
  await client.connect();
  try {
    await client.mailboxOpen('INBOX');
  } catch (err) {
    client.close();
    throw err;
  }
  return client;
}
