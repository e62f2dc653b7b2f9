/**
 * Reading IMAP mail: a message whole (or by its headers when it is too big), a thread from the
 * headers (see imap-threads.ts) across the inbox and the sent folder.
 */
import addressparser from 'nodemailer/lib/addressparser';
import { headersOf, idOf, LABELS, parseId, uidsOf, type Box, type ListedMessage } from './imap-mailbox';
import type { ImapSession } from './imap-session';
import { inThread, rootOfThread } from './imap-threads';
import type { ParseRawMail } from './mail-parser';
import type { ParsedMessage } from './message';
import { ANSWERED, THREAD_HEADERS, type ThreadMessage } from './needs-reply';
import type { MailThread } from './source';

/** A message of a thread as found in a folder. */
type Found = ListedMessage & { id: string; box: Box };

/** A thread's message as the triage reads it. */
function threadMessage(m: Found): ThreadMessage {
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
}

/** Messages and threads read from the folders (`maxBytes`: past it, a message is read by its headers). */
export function imapReading({ pathOf, inFolder }: ImapSession, parse: ParseRawMail, maxBytes: number) {
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

  /** A thread's messages in the inbox and the sent folder, as found (a single message's id is a thread too). */
  async function findThread(threadId: string): Promise<Found[]> {
    const root = rootOfThread(threadId);
    const single = root ? null : parseId(threadId);
    const found: Found[] = [];
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
    return found;
  }

  /** A thread's messages in the inbox and the sent folder, oldest first. */
  async function thread(threadId: string, full: boolean): Promise<MailThread | null> {
    const found = await findThread(threadId);
    if (found.length === 0) return null;
    found.sort((a, b) => a.date - b.date);
    const messages = found.map(threadMessage);
    const parsed: ParsedMessage[] = [];
    if (full)
      for (const m of found) {
        const read = await message(m.id);
        if (read) parsed.push(read);
      }
    return { messages, parsed };
  }

  return { message, thread };
}
