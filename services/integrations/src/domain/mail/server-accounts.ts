/**
 * Mail accounts reached by their servers (provider `imap`): connecting one after signing in to its
 * IMAP and SMTP servers, and the stored login read back for the IMAP source. The login (servers,
 * user name, app password) is kept encrypted as the account's credential, in the column that holds
 * an OAuth account's access token, under the same context: it is never presented, logged or
 * exported.
 */
import { z } from 'zod';
import type { Integration } from '@haven/contracts/integrations';
import {
  MAIL_PRESETS,
  MailServer,
  type MailServerAccountBody,
  type ServerCheck,
} from '@haven/contracts/mail-servers';
import type { FieldCipher } from '@haven/kit/crypto';
import { serverRefused } from '@haven/kit/errors';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import type { IntegrationRow, IntegrationsRepository } from '../../db/integrations.repository';
import { accountContext, tokenContext } from '../contexts';
import type { ImapAccount } from './imap-source';
import { AddressRefused, addressFor } from './servers/address-guard';
import { checkImap, checkSmtp, type CheckOptions, type ImapCheck, type ServerLogin } from './servers/check';

const Login = z.object({ server: MailServer, user: z.string(), password: z.string() });
const StoredLogin = z.object({
  imap: Login,
  smtp: Login,
  address: z.string(),
  folders: z.object({ sent: z.string().nullable(), drafts: z.string().nullable() }).optional(),
});

/** The IMAP account an `imap` row stores (decrypted for the call that needs it). */
export function serverAccountOf(row: IntegrationRow, cipher: FieldCipher): ImapAccount {
  if (!row.accessTokenEnc) throw new Error(`integration ${row.id} holds no server login`);
  return StoredLogin.parse(JSON.parse(cipher.decrypt(row.accessTokenEnc, tokenContext(row.userId))));
}

export interface ServerAccountsDeps {
  repo: IntegrationsRepository;
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
  repo,
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

  return {
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
      const login = { imap, smtp, address: body.address.toLowerCase(), folders };
      const row = await uow.run(async (tx, emit) => {
        const stored = await repo.connect(tx, {
          userId,
          provider: 'imap',
          type: 'email',
          accessTokenEnc: cipher.encrypt(JSON.stringify(login), tokenContext(userId)),
          refreshTokenEnc: null,
          expiresAt: null,
          scope: null,
          accountEnc: cipher.encrypt(login.address, accountContext(userId)),
          nextSyncAt: new Date(Date.now() + syncIntervalMs),
        });
        await emit('mail.sync', { integrationId: stored.id, request: stored.syncRequest });
        return stored;
      });
      return present(row);
    },
  };
}
export type ServerAccounts = ReturnType<typeof createServerAccounts>;
