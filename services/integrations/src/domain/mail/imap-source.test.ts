import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSubmission } from '../../../../../test/doubles/smtp-catcher';
import { startDovecot, hasDovecot, type Dovecot } from '../../../../../test/support/dovecot';
import { imapSource, type ImapAccount, type ImapSource } from './imap-source';
import { parseRawInSandbox } from './raw-mail-task';
import { CursorExpired } from './source';
import { AddressRefused } from './servers/address-guard';

const USER = 'ada@example.test';
const PASSWORD = 'app-password-0123';
const WINDOW = { days: 30, max: 500 };

/** A message as a mail server stores it. */
function mail(o: { from: string; to?: string; subject: string; body: string; id: string; refs?: string[] }) {
  return Buffer.from(
    [
      `From: ${o.from}`,
      `To: ${o.to ?? USER}`,
      `Subject: ${o.subject}`,
      `Message-ID: <${o.id}>`,
      ...(o.refs?.length
        ? [`In-Reply-To: <${o.refs.at(-1)}>`, `References: ${o.refs.map((r) => `<${r}>`).join(' ')}`]
        : []),
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      o.body,
      '',
    ].join('\r\n'),
  );
}

/** The parser the product runs in its sandbox, here in the test's process. */
const parse = (raw: Uint8Array, meta: Parameters<typeof parseRawInSandbox>[0]['meta']) =>
  parseRawInSandbox({ raw, meta });

describe.runIf(hasDovecot())('an IMAP mailbox as a MailSource, against Dovecot', () => {
  let dovecot: Dovecot;
  let smtp: Awaited<ReturnType<typeof startSmtpSubmission>>;
  let account: ImapAccount;
  let admin: ImapFlow;
  const sources: ImapSource[] = [];
  const source = () => {
    const made = imapSource(account, parse, { windowDays: 30, allowPrivate: true });
    sources.push(made);
    return made;
  };

  beforeAll(async () => {
    dovecot = await startDovecot({ [USER]: PASSWORD });
    smtp = await startSmtpSubmission(PASSWORD);
    const login = (port: number) => ({
      server: { host: '127.0.0.1', port, security: 'none' as const },
      user: USER,
      password: PASSWORD,
    });
    account = { imap: login(dovecot.port), smtp: login(smtp.port), address: USER };
    admin = new ImapFlow({
      host: '127.0.0.1',
      port: dovecot.port,
      secure: false,
      doSTARTTLS: false,
      auth: { user: USER, pass: PASSWORD },
      logger: false,
    });
    await admin.connect();
  });
  afterAll(async () => {
    for (const s of sources) await s.close();
    await admin?.logout().catch(() => undefined);
    await smtp?.stop();
    await dovecot?.stop();
  });

  const deliver = (box: string, raw: Buffer, flags: string[] = []) => admin.append(box, raw, flags);

  it('lists the inbox newest first with threads from the headers, reads a message, and follows changes by UID', async () => {
    await deliver(
      'INBOX',
      mail({
        from: 'Bo <bo@example.test>',
        subject: 'Lunch?',
        body: 'Can you make lunch on Friday?',
        id: 'lunch-1@example.test',
      }),
    );
    await deliver(
      'INBOX',
      mail({
        from: 'News <news@list.example>',
        subject: 'Weekly',
        body: 'This week',
        id: 'news-1@list.example',
      }),
    );
    const s = source();
    const { address, cursor } = await s.profile();
    expect(address).toBe(USER);
    const inbox = await s.inbox(WINDOW);
    expect(inbox).toHaveLength(2);
    const lunch = inbox[1]!;
    expect(inbox[0]!.id).toMatch(/^i\.\d+\.2$/);
    expect(lunch.threadId).toBe(`t${Buffer.from('lunch-1@example.test').toString('base64url')}`);

    const read = await s.message(lunch.id);
    expect(read).toMatchObject({
      messageId: lunch.id,
      threadId: lunch.threadId,
      fromAddress: 'bo@example.test',
      subject: 'Lunch?',
      labelIds: ['INBOX'],
    });
    expect(read!.asks.length).toBeGreaterThan(0);
    expect(await s.message('i.1.999')).toBeNull();

    // Nothing new: nothing changed.
    const none = await s.changes(cursor);
    expect(none.added).toEqual([]);
    expect(none.removed).toEqual([]);

    // A new message, a message gone from the inbox, and the user's reply in Sent.
    await deliver(
      'INBOX',
      mail({
        from: 'Cy <cy@example.test>',
        subject: 'Keys',
        body: 'Where are the keys?',
        id: 'keys-1@example.test',
      }),
    );
    const lock = await admin.getMailboxLock('INBOX');
    try {
      await admin.messageDelete(inbox[0]!.id.split('.')[2]!, { uid: true });
    } finally {
      lock.release();
    }
    await deliver(
      'Sent',
      mail({
        from: USER,
        to: 'bo@example.test',
        subject: 'Re: Lunch?',
        body: 'Yes!',
        id: 'lunch-2@example.test',
        refs: ['lunch-1@example.test'],
      }),
      ['\\Seen'],
    );
    const changed = await s.changes(none.cursor);
    expect(changed.added.map((m) => m.id)).toEqual([expect.stringMatching(/\.3$/)]);
    expect(changed.removed).toEqual([inbox[0]!.id]);
    expect([...changed.touchedThreads].sort()).toEqual([changed.added[0]!.threadId, lunch.threadId].sort());

    // The thread: the question in the inbox, the answer in Sent, oldest first.
    const thread = await s.thread(lunch.threadId!, true);
    expect(thread!.messages.map((m) => [m.labelIds[0], m.fromAddress])).toEqual([
      ['INBOX', 'bo@example.test'],
      ['SENT', USER],
    ]);
    expect(thread!.messages[1]!.headers.references).toBe('<lunch-1@example.test>');
    expect(thread!.parsed.map((m) => m.subject)).toEqual(['Lunch?', 'Re: Lunch?']);
    expect(await s.sentThreads(WINDOW)).toEqual(new Set([lunch.threadId]));
  });

  it('sends over SMTP with the threading headers and no Bcc line, keeps a copy in Sent, and saves drafts to Drafts', async () => {
    const s = source();
    const reply = mail({
      from: USER,
      to: 'bo@example.test',
      subject: 'Re: Lunch?',
      body: 'See you at one.',
      id: 'lunch-3@example.test',
      refs: ['lunch-1@example.test', 'lunch-2@example.test'],
    });
    const withBcc = Buffer.from(
      reply
        .toString('utf8')
        .replace('To: bo@example.test\r\n', 'To: bo@example.test\r\nBcc: me@example.test\r\n'),
    );
    await s.send(withBcc);
    const sent = smtp.delivered.at(-1)!;
    expect(sent.from).toBe(USER);
    expect(sent.to.sort()).toEqual(['bo@example.test', 'me@example.test']);
    expect(sent.raw).toContain('In-Reply-To: <lunch-2@example.test>');
    expect(sent.raw).not.toMatch(/^Bcc:/im);

    const lock = await admin.getMailboxLock('Sent');
    try {
      const copies = await admin.fetchAll('1:*', { envelope: true, flags: true, source: true });
      const copy = copies.find((m) => m.envelope?.messageId === '<lunch-3@example.test>');
      expect(copy?.flags?.has('\\Seen')).toBe(true);
      expect(copy?.source?.toString()).not.toMatch(/^Bcc:/im);
    } finally {
      lock.release();
    }

    await s.saveDraft(
      mail({
        from: USER,
        to: 'cy@example.test',
        subject: 'Re: Keys',
        body: 'Under the mat.',
        id: 'keys-2@example.test',
        refs: ['keys-1@example.test'],
      }),
    );
    const drafts = await admin.getMailboxLock('Drafts');
    try {
      const [draft] = await admin.fetchAll('1:*', { envelope: true, flags: true });
      expect(draft?.envelope?.subject).toBe('Re: Keys');
      expect(draft?.flags?.has('\\Draft')).toBe(true);
    } finally {
      drafts.release();
    }
  });

  it('asks for a full sync when the inbox is rebuilt with new UIDs (a new UIDVALIDITY), and its ids change with it', async () => {
    const s = source();
    const { cursor } = await s.profile();
    const before = await s.inbox(WINDOW);
    // Dovecot's UID list and index gone: it numbers the inbox anew, under a new UIDVALIDITY (the
    // time; a second later than the first).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const maildir = dovecot.maildir(USER);
    for (const file of readdirSync(maildir))
      if (file.startsWith('dovecot')) rmSync(path.join(maildir, file), { recursive: true, force: true });
    await expect(s.changes(cursor)).rejects.toBeInstanceOf(CursorExpired);
    const after = await s.inbox(WINDOW);
    expect(after.map((m) => m.threadId)).toEqual(before.map((m) => m.threadId));
    expect(after.map((m) => m.id).filter((id) => before.some((b) => b.id === id))).toEqual([]);
  });

  it('says a wrong password as the server says it, at the first call', async () => {
    const s = imapSource({ ...account, imap: { ...account.imap, password: 'not-it' } }, parse, {
      windowDays: 30,
      allowPrivate: true,
    });
    sources.push(s);
    await expect(s.profile()).rejects.toMatchObject({ authenticationFailed: true });
  });

  it('does not reach a server on a private address unless the operator allows it', async () => {
    const s = imapSource(account, parse, { windowDays: 30, allowPrivate: false });
    sources.push(s);
    await expect(s.profile()).rejects.toBeInstanceOf(AddressRefused);
    await expect(
      s.send(mail({ from: USER, subject: 'x', body: 'x', id: 'x@example.test' })),
    ).rejects.toBeInstanceOf(AddressRefused);
  });
});
