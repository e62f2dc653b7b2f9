import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as received over SMTP. */
export interface CaughtMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server on a free local port that keeps every message it receives, standing in for the
 * relay the product would use. The product talks to it through SMTP_URL only.
 */
export async function startSmtpCatcher(): Promise<{
  url: string;
  messages: CaughtMail[];
  /** Resolves with the first message to `to` (matching `subject`, if given) arriving after `since`. */
  waitFor(
    to: string,
    options?: { subject?: RegExp; since?: number; timeoutMs?: number },
  ): Promise<CaughtMail>;
  stop(): Promise<void>;
}> {
  const messages: Array<CaughtMail & { at: number }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
          messages.push({
            to,
            from: mail.from?.text ?? '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            at: Date.now(),
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 15_000);
      const since = options.since ?? 0;
      while (Date.now() < deadline) {
        const found = messages.find(
          (m) => m.at >= since && m.to.includes(to) && (!options.subject || options.subject.test(m.subject)),
        );
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(
        `no mail to ${to} arrived (got ${messages.length}: ${messages.map((m) => m.to).join(', ')})`,
      );
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code of a verification mail. */
export function codeFrom(mail: CaughtMail): string {
  const match = /verification code is (\d{6})/.exec(mail.text);
  if (!match) throw new Error(`no code in: ${mail.text}`);
  return match[1]!;
}

/** The first link in a mail's text that contains `fragment`. */
export function linkFrom(mail: CaughtMail, fragment: string): string {
  const link = mail.text.split(/\s+/).find((w) => w.startsWith('http') && w.includes(fragment));
  if (!link) throw new Error(`no link with ${fragment} in: ${mail.text}`);
  return link;
}

/** A message as an SMTP server that requires sign-in received it: its envelope and its bytes. */
export interface Delivery {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server that requires sign-in (any user name, this password), as a mail provider's
 * submission server does, and keeps each message's envelope and bytes: the SMTP side of a mail
 * account connected by its servers.
 */
export async function startSmtpSubmission(
  password: string,
  options: {
    /**
     * Keeps a copy of what it accepts before answering, as Gmail's and Yahoo's submission servers
     * put it in the account's Sent folder themselves.
     */
    keepCopy?: (delivery: Delivery) => Promise<void>;
  } = {},
): Promise<{
  port: number;
  delivered: Delivery[];
  stop(): Promise<void>;
}> {
  const delivered: Delivery[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.password === password
        ? callback(null, { user: auth.username })
        : callback(new Error('535 Authentication failed')),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const delivery = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        delivered.push(delivery);
        if (!options.keepCopy) return callback();
        options.keepCopy(delivery).then(() => callback(), callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as { port: number }).port,
    delivered,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
