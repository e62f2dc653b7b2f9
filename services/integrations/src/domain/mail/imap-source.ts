/**
 * An IMAP mailbox (and its SMTP server for sending) as a MailSource (see source.ts), with imapflow
 * and nodemailer. One connection per source, opened at the first call and closed by `close`; the
 * sync makes a source per run.
 *
 * - A message's id is its folder, the folder's UIDVALIDITY and its UID (`i.<validity>.<uid>` for the
 *   inbox, `s.` for the sent folder, `d.` for drafts): a mailbox rebuilt with new UIDs (a new
 *   UIDVALIDITY) makes new ids, and the full sync that follows replaces the cache without duplicates.
 * - The cursor holds the inbox's UIDVALIDITY, its next UID and the UIDs within the window, and the
 *   sent folder's next UID: what came is above the next UIDs, what left is missing from the UIDs.
 * - Threads come from the headers (see imap-threads.ts); the sent folder and drafts are found by
 *   SPECIAL-USE when the account does not name them.
 */
import type { ImapFlow } from 'imapflow';
import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';
import { addressFor } from './servers/address-guard';
import { headerFields, headerSection, inThread, messageIds, rootOfThread, threadIdOf } from './imap-threads';
import type { ParseRawMail } from './mail-parser';
import type { ParsedMessage } from './message';
import { ANSWERED, THREAD_HEADERS, type ThreadMessage } from './needs-reply';
import {
  imapClient,
  smtpTransport,
  specialFolders,
  type CheckOptions,
  type ServerLogin,
} from './servers/check';
import { CursorExpired, type MailChanges, type MailSource, type MailWindow, type MessageRef } from './source';

/** An IMAP account as stored: where to read, where to send, and who the user is there. */
export interface ImapAccount {
  imap: ServerLogin;
  smtp: ServerLogin;
  /** The account's own address (the sender of its mail). */
  address: string;
  /** The folders named when it was connected; found again by SPECIAL-USE when missing. */
  folders?: { sent: string | null; drafts: string | null };
}

export interface ImapSourceOptions extends Omit<CheckOptions, 'address'> {
  /** Servers on private addresses may be reached (MAIL_SERVERS_ALLOW_PRIVATE); each connection checks. */
  allowPrivate: boolean;
  /** The window `changes` keeps track of (the sync's), in days. */
  windowDays: number;
  /** Past this size a message is read by its header section alone. */
  maxMessageBytes?: number;
}

/** A message bigger than this is read by its headers (25 MB is the usual attachment limit). */
const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
/** UIDs fetched in one command. */
const FETCH_BATCH = 200;

type Box = 'i' | 's' | 'd';
const LABELS: Record<Box, string[]> = { i: ['INBOX'], s: ['SENT'], d: ['DRAFT'] };

const Cursor = z.object({
  v: z.literal(1),
  inbox: z.object({
    validity: z.string(),
    next: z.number().int(),
    uids: z.array(z.number().int()),
    /** The inbox's HIGHESTMODSEQ (CONDSTORE, RFC 7162): flags changed after it are read. */
    modseq: z.string().regex(/^\d+$/).optional(),
  }),
  sent: z.object({ validity: z.string(), next: z.number().int() }).nullable(),
});
type Cursor = z.infer<typeof Cursor>;

const idOf = (box: Box, validity: bigint | string, uid: number) => `${box}.${validity}.${uid}`;

function parseId(id: string): { box: Box; validity: string; uid: number } | null {
  const [box, validity, uid] = id.split('.');
  if (
    (box !== 'i' && box !== 's' && box !== 'd') ||
    !/^\d+$/.test(validity ?? '') ||
    !/^\d+$/.test(uid ?? '')
  )
    return null;
  return { box, validity: validity!, uid: Number(uid) };
}

/** The headers that place a message in its thread, and those the triage reads of a thread. */
const ID_HEADERS = ['Message-ID', 'References', 'In-Reply-To'];
const LISTED_HEADERS = [...new Set([...THREAD_HEADERS, ...ID_HEADERS])];

/** How long after sending a server's own copy is looked for a second time. */
const SENT_COPY_WAIT_MS = 500;

const sinceDays = (days: number) => new Date(Date.now() - days * 86_400_000);

/** The addresses a message goes to (To, Cc, Bcc), for the SMTP envelope. */
function recipientsOf(message: Buffer): string[] {
  const headers = headerFields(message.subarray(0, Math.min(message.length, 256 * 1024)).toString('utf8'));
  return [headers.to, headers.cc, headers.bcc]
    .flatMap((value) => (value ? addressparser(value, { flatten: true }) : []))
    .map((a) => a.address)
    .filter((a): a is string => Boolean(a));
}

/** The message without its Bcc line, as it is kept in the sent folder and sent. */
function withoutBcc(message: Buffer): Buffer {
  const text = message.toString('latin1');
  const lines = text.split('\r\n');
  const out: string[] = [];
  let inHeader = true;
  let skipping = false;
  for (const line of lines) {
    if (inHeader && line === '') inHeader = false;
    if (inHeader && skipping && (line.startsWith(' ') || line.startsWith('\t'))) continue;
    skipping = inHeader && line.toLowerCase().startsWith('bcc:');
    if (!skipping) out.push(line);
  }
  return Buffer.from(out.join('\r\n'), 'latin1');
}

export type ImapSource = MailSource & { close(): Promise<void> };

export function imapSource(
  account: ImapAccount,
  parse: ParseRawMail,
  options: ImapSourceOptions,
): ImapSource {
  const maxBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;

  type Session = { client: ImapFlow; sent: string | null; drafts: string | null };
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

  /** The UIDs of a search (none when the server answers nothing). */
  const uidsOf = async (client: ImapFlow, query: Parameters<ImapFlow['search']>[0]) =>
    ((await client.search(query, { uid: true })) || []).sort((a, b) => a - b);

  /** The listed headers of these UIDs, newest first. */
  async function headersOf(client: ImapFlow, uids: number[]) {
    const found: { uid: number; date: number; answered: boolean; headers: Record<string, string> }[] = [];
    for (let i = 0; i < uids.length; i += FETCH_BATCH) {
      const range = uids.slice(i, i + FETCH_BATCH).join(',');
      for await (const m of client.fetch(
        range,
        { uid: true, internalDate: true, flags: true, headers: LISTED_HEADERS },
        { uid: true },
      ))
        found.push({
          uid: m.uid,
          date: m.internalDate ? new Date(m.internalDate).getTime() : 0,
          answered: m.flags?.has('\\Answered') ?? false,
          headers: headerFields(m.headers?.toString('utf8') ?? ''),
        });
    }
    return found.sort((a, b) => b.uid - a.uid);
  }

  /** The newest messages of a folder within the window, as references. */
  async function listed(box: Box, window: MailWindow): Promise<MessageRef[]> {
    const path = await pathOf(box);
    if (!path) return [];
    return inFolder(path, async (client, validity) => {
      const uids = (await uidsOf(client, { since: sinceDays(window.days) })).slice(-window.max);
      return (await headersOf(client, uids)).map(({ uid, headers }) => {
        const id = idOf(box, validity, uid);
        return { id, threadId: threadIdOf(headers, id) };
      });
    });
  }

  async function inboxChanges(cursor: Cursor['inbox']) {
    return inFolder('INBOX', async (client, validity, next) => {
      if (String(validity) !== cursor.validity) throw new CursorExpired('the inbox has a new UIDVALIDITY');
      const uids = await uidsOf(client, { since: sinceDays(options.windowDays) });
      const present = new Set(uids);
      const removed = cursor.uids.filter((uid) => !present.has(uid)).map((uid) => idOf('i', validity, uid));
      const fresh = await headersOf(
        client,
        uids.filter((uid) => uid >= cursor.next),
      );
      const added = fresh.map(({ uid, headers }) => {
        const id = idOf('i', validity, uid);
        return { id, threadId: threadIdOf(headers, id) };
      });
      // Flags changed since (answered from another mail app): their threads are read again.
      const flagged = await changedFlags(
        client,
        cursor.modseq,
        (uid) => present.has(uid) && uid < cursor.next,
      );
      const touched = flagged.map(({ uid, headers }) => threadIdOf(headers, idOf('i', validity, uid)));
      return {
        added,
        removed,
        touched,
        state: { validity: String(validity), next, uids, ...modseqOf(client) },
      };
    });
  }

  /** The inbox's HIGHESTMODSEQ when the server keeps one (CONDSTORE), for the cursor. */
  const modseqOf = (client: ImapFlow) => {
    const modseq = client.mailbox ? client.mailbox.highestModseq : undefined;
    return modseq ? { modseq: String(modseq) } : {};
  };

  /** The messages (of those `wanted`) whose flags changed after `modseq`; none without CONDSTORE. */
  async function changedFlags(
    client: ImapFlow,
    modseq: string | undefined,
    wanted: (uid: number) => boolean,
  ) {
    if (!modseq || !client.mailbox || !client.mailbox.highestModseq) return [];
    if (client.mailbox.highestModseq <= BigInt(modseq)) return [];
    const uids = (await uidsOf(client, { modseq: BigInt(modseq) + 1n })).filter(wanted);
    return headersOf(client, uids);
  }

  async function sentChanges(cursor: Cursor['sent']) {
    const path = await pathOf('s');
    if (!path) return { threads: [] as string[], state: null };
    return inFolder(path, async (client, validity, next) => {
      // A rebuilt sent folder: nothing is known to be new in it; the inbox decides whether to resync.
      const from = cursor && cursor.validity === String(validity) ? cursor.next : next;
      const uids = from < next ? await uidsOf(client, { uid: `${from}:*` }) : [];
      const fresh = await headersOf(
        client,
        uids.filter((uid) => uid >= from),
      );
      return {
        threads: fresh.map(({ uid, headers }) => threadIdOf(headers, idOf('s', validity, uid))),
        state: { validity: String(validity), next },
      };
    });
  }

  async function cursorNow(): Promise<Cursor> {
    const inbox = await inFolder('INBOX', async (client, validity, next) => ({
      validity: String(validity),
      next,
      uids: await uidsOf(client, { since: sinceDays(options.windowDays) }),
      ...modseqOf(client),
    }));
    const path = await pathOf('s');
    const sent = path
      ? await inFolder(path, async (_client, validity, next) => ({ validity: String(validity), next }))
      : null;
    return { v: 1, inbox, sent };
  }

  /** One message, read whole (or by its headers when it is too big); null when it is gone. */
  async function message(id: string): Promise<ParsedMessage | null> {
    const at = parseId(id);
    const path = at && (await pathOf(at.box));
    if (!at || !path) return null;
    const fetched = await inFolder(path, async (client, validity) => {
      if (String(validity) !== at.validity) return null;
      const meta = await client.fetchOne(
        String(at.uid),
        { uid: true, size: true, internalDate: true },
        { uid: true },
      );
      if (!meta) return null;
      const whole = (meta.size ?? 0) <= maxBytes;
      const body = await client.fetchOne(String(at.uid), whole ? { source: true } : { headers: true }, {
        uid: true,
      });
      const raw = whole ? body && body.source : body && body.headers;
      if (!raw) return null;
      return { raw: whole ? raw : Buffer.concat([raw, Buffer.from('\r\n')]), date: meta.internalDate };
    });
    if (!fetched) return null;
    return parse(fetched.raw, {
      messageId: id,
      receivedAt: fetched.date ? new Date(fetched.date) : new Date(),
      labelIds: LABELS[at.box],
    });
  }

  /** A thread's messages in the inbox and the sent folder, oldest first. */
  async function thread(threadId: string, full: boolean) {
    const root = rootOfThread(threadId);
    const single = root ? null : parseId(threadId);
    const found: {
      id: string;
      box: Box;
      date: number;
      answered: boolean;
      headers: Record<string, string>;
    }[] = [];
    for (const box of ['i', 's'] as const) {
      const path = await pathOf(box);
      if (!path || (single && single.box !== box)) continue;
      await inFolder(path, async (client, validity) => {
        const uids = root
          ? await uidsOf(client, {
              or: [
                { header: { 'message-id': root } },
                { header: { references: root } },
                { header: { 'in-reply-to': root } },
              ],
            })
          : single && String(validity) === single.validity
            ? [single.uid]
            : [];
        for (const m of await headersOf(client, uids))
          if (!root || inThread(m.headers, root)) found.push({ ...m, id: idOf(box, validity, m.uid), box });
      });
    }
    if (found.length === 0) return null;
    found.sort((a, b) => a.date - b.date);
    const messages: ThreadMessage[] = found.map((m) => {
      const [sender] = m.headers.from ? addressparser(m.headers.from, { flatten: true }) : [];
      return {
        id: m.id,
        internalDate: m.date,
        // \Answered: the user answered it from a mail app that may keep no copy in Sent.
        labelIds: m.answered ? [...LABELS[m.box], ANSWERED] : LABELS[m.box],
        fromAddress: sender?.address?.toLowerCase() ?? '',
        headers: Object.fromEntries(
          THREAD_HEADERS.map((h) => [h.toLowerCase(), m.headers[h.toLowerCase()] ?? '']),
        ),
      };
    });
    const parsed: ParsedMessage[] = [];
    if (full)
      for (const m of found) {
        const read = await message(m.id);
        if (read) parsed.push(read);
      }
    return { messages, parsed };
  }

  /**
   * Whether the sent folder holds this message already (by its Message-ID): looked for once, and
   * once more a moment later for a server that files its copy just after answering.
   */
  async function inSent(content: Buffer): Promise<boolean> {
    const messageId = messageIds(headerFields(headerSection(content))['message-id'])[0];
    const path = await pathOf('s');
    if (!messageId || !path) return false;
    const look = () =>
      inFolder(
        path,
        async (client) => (await uidsOf(client, { header: { 'message-id': messageId } })).length > 0,
      );
    if (await look()) return true;
    await new Promise((resolve) => setTimeout(resolve, SENT_COPY_WAIT_MS));
    return look();
  }

  async function append(box: Box, content: Buffer, flags: string[]) {
    const path = await pathOf(box);
    if (!path) throw new Error(`IMAP: the account has no ${box === 's' ? 'Sent' : 'Drafts'} folder`);
    const { client } = await connect();
    await client.append(path, content, flags, new Date());
  }

  return {
    async profile() {
      return { address: account.address.toLowerCase(), cursor: JSON.stringify(await cursorNow()) };
    },

    inbox: (window) => listed('i', window),

    async sentThreads(window) {
      return new Set((await listed('s', window)).flatMap((m) => m.threadId ?? []));
    },

    async changes(cursorText) {
      let cursor: Cursor;
      try {
        cursor = Cursor.parse(JSON.parse(cursorText));
      } catch {
        throw new CursorExpired('not a cursor of this source');
      }
      const inbox = await inboxChanges(cursor.inbox);
      const sent = await sentChanges(cursor.sent);
      const touchedThreads = new Set([
        ...inbox.added.flatMap((m) => m.threadId ?? []),
        ...inbox.touched,
        ...sent.threads,
      ]);
      return {
        added: inbox.added,
        removed: inbox.removed,
        touchedThreads,
        cursor: JSON.stringify({ v: 1, inbox: inbox.state, sent: sent.state } satisfies Cursor),
      } satisfies MailChanges;
    },

    message,
    thread,

    async send(content) {
      const message = withoutBcc(content);
      const address = await addressFor(account.smtp.server.host, options.allowPrivate);
      const transport = smtpTransport(account.smtp, { ...options, address });
      try {
        await transport.sendMail({
          envelope: { from: account.address, to: recipientsOf(content) },
          raw: message,
        });
      } finally {
        transport.close();
      }
      // SMTP does not keep a copy, as a rule: the sent folder gets it, as mail apps put it there.
      // Some submission servers do (Gmail's, Yahoo's): then it is there already, and one is enough.
      if (!(await inSent(message))) await append('s', message, ['\\Seen']);
    },

    async saveDraft(content) {
      await append('d', content, ['\\Draft', '\\Seen']);
    },

    async close() {
      const open = connected;
      connected = null;
      if (!open) return;
      const { client } = await open.catch(() => ({ client: null }));
      if (!client) return;
      await client.logout().catch(() => client.close());
    },
  };
}
