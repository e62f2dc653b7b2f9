/**
 * The IMAP source's one connection: opened at the first call, opened again when the server dropped
 * it, and closed by `close`.
 */
import type { ImapFlow } from 'imapflow';
import type { Box } from './imap-mailbox';
import { imapClient, specialFolders, type CheckOptions, type ServerLogin } from './servers/check';
import { addressFor } from './servers/address-guard';

/** The sent and drafts folders (null when the account has none). */
export interface ImapFolders {
  sent: string | null;
  drafts: string | null;
}

export interface ImapConnectOptions extends Omit<CheckOptions, 'address'> {
  /** Servers on private addresses may be reached (MAIL_SERVERS_ALLOW_PRIVATE); each connection checks. */
  allowPrivate: boolean;
}

type Session = ImapFolders & { client: ImapFlow };

/** The connection of an IMAP source (see the file's comment). */
export function imapSession(
  account: { imap: ServerLogin; folders?: ImapFolders },
  options: ImapConnectOptions,
) {
  let connected: Promise<Session> | null = null;

  /** The open session; a new one when there is none yet or the server dropped the last one. */
  async function connect(): Promise<Session> {
    const open = connected && (await connected.catch(() => null));
    if (open?.client.usable) return open;
    connected = (async () => {
      const address = await addressFor(account.imap.server.host, options.allowPrivate);
      const client = imapClient(account.imap, { ...options, address });
      await client.connect();
      const folders =
        account.folders?.sent && account.folders.drafts ? account.folders : await specialFolders(client);
      return { client, ...folders };
    })();
    return connected;
  }

  /** A folder's path; null when the account has no such folder. */
  const pathOf = async (box: Box) => {
    const { sent, drafts } = await connect();
    return box === 'i' ? 'INBOX' : box === 's' ? sent : drafts;
  };

  /**
   * Runs `fn` with `path` selected (read-only), one folder at a time on the connection. A connection
   * the server dropped meanwhile (a restart, a rebuilt index) is opened again once.
   */
  async function inFolder<T>(
    path: string,
    fn: (client: ImapFlow, validity: bigint, next: number) => Promise<T>,
    again = true,
  ): Promise<T> {
    const { client } = await connect();
    try {
      const lock = await client.getMailboxLock(path, { readOnly: true });
      try {
        const box = client.mailbox;
        if (!box) throw new Error(`IMAP: ${path} could not be opened`);
        return await fn(client, box.uidValidity, Number(box.uidNext));
      } finally {
        lock.release();
      }
    } catch (err) {
      if (!again || (err as { code?: string }).code !== 'NoConnection') throw err;
      return inFolder(path, fn, false);
    }
  }

  /** Logs out (or closes) the connection if one was opened; the next call opens a new one. */
  async function close(): Promise<void> {
    const open = connected;
    connected = null;
    if (!open) return;
    const { client } = await open.catch(() => ({ client: null }));
    if (!client) return;
    await client.logout().catch(() => client.close());
  }

  return { connect, pathOf, inFolder, close };
}
export type ImapSession = ReturnType<typeof imapSession>;
