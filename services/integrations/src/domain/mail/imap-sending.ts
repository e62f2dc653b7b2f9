/**
 * Sending from an IMAP account: by its SMTP server, then a copy in the sent folder unless the
 * server filed one; drafts are appended to the drafts folder.
 */
import addressparser from 'nodemailer/lib/addressparser';
import { uidsOf, type Box } from './imap-mailbox';
import type { ImapConnectOptions, ImapSession } from './imap-session';
import { headerFields, headerSection, messageIds } from './imap-threads';
import { smtpTransport, type ServerLogin } from './servers/check';
import { addressFor } from './servers/address-guard';

/** How long after sending a server's own copy is looked for a second time. */
const SENT_COPY_WAIT_MS = 500;

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

/** `send` and `saveDraft` of the IMAP source (`account.address`: the sender of its mail). */
export function imapSending(
  { connect, pathOf, inFolder }: ImapSession,
  account: { smtp: ServerLogin; address: string },
  options: ImapConnectOptions,
) {
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
    async send(content: Buffer): Promise<void> {
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

    async saveDraft(content: Buffer): Promise<void> {
      await append('d', content, ['\\Draft', '\\Seen']);
    },
  };
}
