/**
 * A Microsoft 365 or Outlook.com mailbox through Microsoft Graph, as a MailSource (see source.ts).
 * Threads are Graph's conversations; messages are read whole as their MIME (`$value`) and parsed in
 * the mail sandbox like an IMAP message; the cursor holds one delta link for the inbox and one for
 * the sent items (delta query is per folder); sending and drafts take the MIME Haven composed, so a
 * reply keeps its In-Reply-To and References.
 *
 * Its parts: the cursor and changes (graph-delta.ts), messages and threads (graph-messages.ts),
 * what they share (graph-mail-api.ts).
 */
import type { Message, User } from '@microsoft/microsoft-graph-types';
import pLimit from 'p-limit';
import { graphLink, type GraphClient } from '../microsoft';
import { graphDelta } from './graph-delta';
import { PAGE, REF_FIELDS, type Folder, type GraphMail, type Page } from './graph-mail-api';
import { graphMessages } from './graph-messages';
import type { ParseRawMail } from './mail-parser';
import type { MailSource, MailWindow, MessageRef } from './source';

/** Parallel requests within one account's sync (Graph allows 4 at once per mailbox). */
const PARALLEL = 4;

/** A folder's messages received within the window, newest first, at most `max`. */
async function listed(
  { client, call }: GraphMail,
  folder: Folder,
  window: MailWindow,
): Promise<MessageRef[]> {
  const since = new Date(Date.now() - window.days * 86_400_000).toISOString();
  const found: MessageRef[] = [];
  let page = await call(
    () =>
      client
        .api(`/me/mailFolders/${folder}/messages`)
        .select(REF_FIELDS)
        .filter(`receivedDateTime ge ${since}`)
        .orderby('receivedDateTime desc')
        .top(Math.min(PAGE, window.max))
        .get() as Promise<Page<Message>>,
  );
  for (;;) {
    for (const m of page.value ?? [])
      if (m.id && found.length < window.max)
        found.push({ id: m.id, threadId: m.conversationId ?? undefined });
    const next = page['@odata.nextLink'];
    if (!next || found.length >= window.max) return found;
    page = await call(() => client.api(graphLink(next)).get() as Promise<Page<Message>>);
  }
}

export function graphMailSource(client: GraphClient, parse: ParseRawMail): MailSource {
  const limit = pLimit(PARALLEL);
  const api: GraphMail = { client, call: (request) => limit(request) };
  const delta = graphDelta(api);
  const { message, thread } = graphMessages(api, parse);

  return {
    async profile() {
      const me = (await api.call(() => client.api('/me').select('mail,userPrincipalName').get())) as User;
      const address = (me.mail ?? me.userPrincipalName ?? '').toLowerCase() || null;
      return { address, cursor: await delta.cursorNow() };
    },

    inbox: (window) => listed(api, 'inbox', window),

    async sentThreads(window) {
      return new Set((await listed(api, 'sentitems', window)).flatMap((m) => m.threadId ?? []));
    },

    changes: delta.changes,
    message,
    thread,

    async send(raw) {
      // Graph sends a MIME message given as base64 text, and keeps it in the sent items.
      await client.api('/me/sendMail').header('Content-Type', 'text/plain').post(raw.toString('base64'));
    },

    async saveDraft(raw) {
      await client.api('/me/messages').header('Content-Type', 'text/plain').post(raw.toString('base64'));
    },
  };
}
