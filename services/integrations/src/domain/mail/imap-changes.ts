/**
 * The IMAP source's cursor and changes: the cursor holds the inbox's UIDVALIDITY, its next UID and
 * the UIDs within the window (and its HIGHESTMODSEQ with CONDSTORE), and the sent folder's next
 * UID: what came is above the next UIDs, what left is missing from the UIDs.
 */
import type { ImapFlow } from 'imapflow';
import { z } from 'zod';
import { headersOf, idOf, sinceDays, uidsOf } from './imap-mailbox';
import type { ImapSession } from './imap-session';
import { threadIdOf } from './imap-threads';
import { CursorExpired, type MailChanges } from './source';

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

function readCursor(cursorText: string): Cursor {
  try {
    return Cursor.parse(JSON.parse(cursorText));
  } catch {
    throw new CursorExpired('not a cursor of this source');
  }
}

/** The inbox's HIGHESTMODSEQ when the server keeps one (CONDSTORE), for the cursor. */
const modseqOf = (client: ImapFlow) => {
  const modseq = client.mailbox ? client.mailbox.highestModseq : undefined;
  return modseq ? { modseq: String(modseq) } : {};
};

/** The messages (of those `wanted`) whose flags changed after `modseq`; none without CONDSTORE. */
async function changedFlags(client: ImapFlow, modseq: string | undefined, wanted: (uid: number) => boolean) {
  if (!modseq || !client.mailbox || !client.mailbox.highestModseq) return [];
  if (client.mailbox.highestModseq <= BigInt(modseq)) return [];
  const uids = (await uidsOf(client, { modseq: BigInt(modseq) + 1n })).filter(wanted);
  return headersOf(client, uids);
}

/** The cursor of this moment, and the changes since a cursor (`windowDays`: the sync's window). */
export function imapChanges({ pathOf, inFolder }: ImapSession, windowDays: number) {
  async function inboxChanges(cursor: Cursor['inbox']) {
    return inFolder('INBOX', async (client, validity, next) => {
      if (String(validity) !== cursor.validity) throw new CursorExpired('the inbox has a new UIDVALIDITY');
      const uids = await uidsOf(client, { since: sinceDays(windowDays) });
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

  return {
    /** The cursor of this moment, as text. */
    async cursorNow(): Promise<string> {
      const inbox = await inFolder('INBOX', async (client, validity, next) => ({
        validity: String(validity),
        next,
        uids: await uidsOf(client, { since: sinceDays(windowDays) }),
        ...modseqOf(client),
      }));
      const path = await pathOf('s');
      const sent = path
        ? await inFolder(path, async (_client, validity, next) => ({ validity: String(validity), next }))
        : null;
      return JSON.stringify({ v: 1, inbox, sent } satisfies Cursor);
    },

    async changes(cursorText: string): Promise<MailChanges> {
      const cursor = readCursor(cursorText);
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
      };
    },
  };
}
