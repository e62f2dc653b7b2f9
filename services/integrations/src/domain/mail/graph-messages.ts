/**
 * Reading Graph mail: a message whole as its MIME (`$value`), parsed in the mail sandbox like an
 * IMAP message; a thread as Graph's conversation, by its messages' fields and internet headers.
 */
import type { MailFolder, Message } from '@microsoft/microsoft-graph-types';
import { ResponseType } from '@microsoft/microsoft-graph-client';
import { graphLink, graphNotFound } from '../microsoft';
import { PAGE, type Folder, type GraphMail, type Page } from './graph-mail-api';
import type { ParseRawMail } from './mail-parser';
import type { ParsedMessage } from './message';
import { THREAD_HEADERS, type ThreadMessage } from './needs-reply';
import type { MailThread } from './source';

/** What a thread reads of each message: where it is, who wrote, and its threading headers. */
const THREAD_FIELDS =
  'id,conversationId,receivedDateTime,parentFolderId,isDraft,from,toRecipients,ccRecipients,subject,internetMessageId,internetMessageHeaders';

const addressLine = (r: Message['from']) => {
  const { name, address } = r?.emailAddress ?? {};
  if (!address) return '';
  return name && name !== address ? `"${name.replace(/["\\]/g, '')}" <${address}>` : address;
};
const addressList = (list: Message['toRecipients']) =>
  (list ?? [])
    .map((r) => addressLine(r))
    .filter(Boolean)
    .join(', ');

/** A message's threading headers: its internet headers when Graph has them (received mail), else its fields. */
function headersOf(m: Message): Record<string, string> {
  const internet = new Map<string, string>();
  for (const h of m.internetMessageHeaders ?? [])
    if (h.name && !internet.has(h.name.toLowerCase())) internet.set(h.name.toLowerCase(), h.value ?? '');
  const fromFields: Record<string, string> = {
    from: addressLine(m.from),
    to: addressList(m.toRecipients),
    cc: addressList(m.ccRecipients),
    subject: m.subject ?? '',
    'message-id': m.internetMessageId ?? '',
  };
  return Object.fromEntries(
    THREAD_HEADERS.map((h) => {
      const name = h.toLowerCase();
      return [name, internet.get(name) ?? fromFields[name] ?? ''];
    }),
  );
}

/** Where a message is, in the labels the sync reads (source.ts), from the well-known folders' ids. */
function folderLabels({ client, call }: GraphMail): (m: Message) => Promise<string[]> {
  const folderIds = new Map<Folder, Promise<string>>();

  /** A well-known folder's id (what a message's parentFolderId names). */
  function folderId(folder: Folder): Promise<string> {
    let id = folderIds.get(folder);
    if (!id) {
      id = call(() => client.api(`/me/mailFolders/${folder}`).select('id').get() as Promise<MailFolder>).then(
        (f) => f.id ?? '',
      );
      folderIds.set(folder, id);
    }
    return id;
  }

  return async (m) => {
    const [inbox, sent, drafts] = await Promise.all([
      folderId('inbox'),
      folderId('sentitems'),
      folderId('drafts'),
    ]);
    const labels: string[] = [];
    if (m.parentFolderId === inbox) labels.push('INBOX');
    if (m.parentFolderId === sent) labels.push('SENT');
    if (m.isDraft || m.parentFolderId === drafts) labels.push('DRAFT');
    return labels;
  };
}

/** A conversation's messages (their thread fields), page after page, as Graph lists them. */
async function conversation({ client, call }: GraphMail, threadId: string): Promise<Message[]> {
  const found: Message[] = [];
  let page = await call(
    () =>
      client
        .api('/me/messages')
        .filter(`conversationId eq '${threadId.replace(/'/g, "''")}'`)
        .select(THREAD_FIELDS)
        .top(PAGE)
        .get() as Promise<Page<Message>>,
  );
  for (;;) {
    found.push(...(page.value ?? []).filter((m) => m.id));
    const next = page['@odata.nextLink'];
    if (!next) return found;
    page = await call(() => client.api(graphLink(next)).get() as Promise<Page<Message>>);
  }
}

/** Messages and threads read from Graph (see the file's comment). */
export function graphMessages(api: GraphMail, parse: ParseRawMail) {
  const { client, call } = api;
  const labelsOf = folderLabels(api);

  /** One message read whole: its place and date from Graph, its content from its MIME. */
  async function message(id: string): Promise<ParsedMessage | null> {
    const path = `/me/messages/${encodeURIComponent(id)}`;
    try {
      const [meta, raw] = await Promise.all([
        call(
          () =>
            client
              .api(path)
              .select('id,conversationId,receivedDateTime,parentFolderId,isDraft')
              .get() as Promise<Message>,
        ),
        call(
          () =>
            client.api(`${path}/$value`).responseType(ResponseType.ARRAYBUFFER).get() as Promise<ArrayBuffer>,
        ),
      ]);
      const parsed = await parse(new Uint8Array(raw), {
        messageId: id,
        receivedAt: meta.receivedDateTime ? new Date(meta.receivedDateTime) : new Date(),
        labelIds: await labelsOf(meta),
      });
      // Graph's conversation is the thread, whatever the headers say.
      return { ...parsed, threadId: meta.conversationId ?? parsed.threadId };
    } catch (err) {
      // Deleted between the listing and the fetch.
      if (graphNotFound(err)) return null;
      throw err;
    }
  }

  async function thread(threadId: string, full: boolean): Promise<MailThread | null> {
    const found = await conversation(api, threadId);
    if (found.length === 0) return null;
    const at = (m: Message) => Date.parse(m.receivedDateTime ?? '') || 0;
    found.sort((a, b) => at(a) - at(b));
    const messages: ThreadMessage[] = await Promise.all(
      found.map(async (m) => ({
        id: m.id!,
        internalDate: at(m),
        labelIds: await labelsOf(m),
        fromAddress: m.from?.emailAddress?.address?.toLowerCase() ?? '',
        headers: headersOf(m),
      })),
    );
    const parsed: ParsedMessage[] = [];
    if (full)
      for (const m of found) {
        const read = await message(m.id!);
        if (read) parsed.push(read);
      }
    return { messages, parsed };
  }

  return { message, thread };
}
