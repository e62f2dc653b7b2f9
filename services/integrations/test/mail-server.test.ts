import { eq } from 'drizzle-orm';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSubmission } from '../../../test/doubles/smtp-catcher';
import { startDovecot, hasDovecot, type Dovecot } from '../../../test/support/dovecot';
import { hasRadicale, startRadicale, type Radicale } from '../../../test/support/radicale';
import { integrations, mailMessages } from '../src/db/schema';
import { startIntegrations, type Harness } from './harness';
import { ACCOUNT, CORPUS, figures, labelledMail, share } from './mail-corpus/corpus';
import { corpusPresent } from '@haven/kit/corpus';

/*
 * A mail account connected by its servers, through the service's routes: Debian's Dovecot for IMAP
 * (the tests start it) and an SMTP server that signs in and keeps what it is given. The same sync,
 * digest, reply triage and sending as over Gmail, on the IMAP adapter.
 */
const PASSWORD = 'app-password-0123';
const OTHER = 'bo@example.test';
const DEE = 'dee@example.test';
const EVE = 'eve@example.test';

/** A mail app's connection to `user`'s mailbox on the test's Dovecot. */
const mailApp = (dovecot: Dovecot, user: string) =>
  new ImapFlow({
    host: '127.0.0.1',
    port: dovecot.port,
    secure: false,
    doSTARTTLS: false,
    auth: { user, pass: PASSWORD },
    logger: false,
  });

describe.runIf(hasDovecot())('a mail account by its servers (IMAP and SMTP)', () => {
  let h: Harness;
  let dovecot: Dovecot;
  let smtp: Awaited<ReturnType<typeof startSmtpSubmission>>;

  beforeAll(async () => {
    dovecot = await startDovecot({
      [ACCOUNT]: PASSWORD,
      [OTHER]: PASSWORD,
      [DEE]: PASSWORD,
      [EVE]: PASSWORD,
    });
    smtp = await startSmtpSubmission(PASSWORD);
    h = await startIntegrations({ MAIL_SERVERS_ALLOW_PRIVATE: '1' });
  });
  afterAll(async () => {
    await h?.stop();
    await smtp?.stop();
    await dovecot?.stop();
  });

  const servers = () => ({
    imap: { host: '127.0.0.1', port: dovecot.port, security: 'none' },
    smtp: { host: '127.0.0.1', port: smtp.port, security: 'none' },
  });

  /** Runs `fn` signed in to `user`'s mailbox, as their own mail app would. */
  async function asMailApp<T>(user: string, fn: (client: ImapFlow) => Promise<T>): Promise<T> {
    const client = mailApp(dovecot, user);
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.logout();
    }
  }

  /** Puts messages into a mailbox as delivery would. */
  const deliver = (user: string, box: string, messages: Buffer[]) =>
    asMailApp(user, async (client) => {
      for (const m of messages) await client.append(box, m, box === 'Sent' ? ['\\Seen'] : []);
    });

  /** The subjects of a folder's messages. */
  const subjectsIn = (user: string, box: string) =>
    asMailApp(user, async (client) => {
      const lock = await client.getMailboxLock(box);
      try {
        return (await client.fetchAll('1:*', { envelope: true })).map((m) => m.envelope?.subject);
      } finally {
        lock.release();
      }
    });

  it('says what each server answered to a wrong password, stores nothing, and connects with the right one', async () => {
    const me = h.as();
    const wrong = await me.post('/api/integrations/mail-server', {
      address: OTHER,
      password: 'not-it',
      ...servers(),
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({
      code: 'server_refused',
      message:
        'The server refused the user name or password. iCloud, Fastmail, Yahoo and Gmail want an app password here, not the account’s own.',
    });
    expect(wrong.body.issues.map((i: { path: string[]; code: string }) => [i.path[0], i.code])).toEqual([
      ['imap', 'wrong-password'],
      ['smtp', 'wrong-password'],
    ]);
    expect((await me.get('/api/integrations')).body).toEqual([]);

    const dead = await me.post('/api/integrations/mail-server', {
      address: OTHER,
      password: PASSWORD,
      ...servers(),
      imap: { host: 'no-such-host.invalid', port: 993, security: 'tls' },
    });
    expect(dead.status).toBe(422);
    expect(dead.body.issues).toEqual([
      {
        path: ['imap'],
        message: 'No server answers to the name no-such-host.invalid: check its spelling.',
        code: 'host-not-found',
      },
    ]);

    const missing = await me.post('/api/integrations/mail-server', { address: OTHER, password: PASSWORD });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('Choose your provider, or enter the IMAP and SMTP servers');

    await deliver(OTHER, 'INBOX', [
      Buffer.from(
        'From: Cy <cy@example.test>\r\nTo: bo@example.test\r\nSubject: Keys\r\nMessage-ID: <keys@example.test>\r\n\r\nCould you leave the keys under the mat?\r\n',
      ),
    ]);
    const ok = await me.post('/api/integrations/mail-server', {
      address: OTHER,
      password: PASSWORD,
      ...servers(),
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ provider: 'imap', type: 'email', connected: true, scopes: [] });
    // The password is nowhere in what the API answers.
    expect(JSON.stringify((await me.get('/api/integrations')).body)).not.toContain(PASSWORD);
    await h.synced(ok.body.id);

    const digest = await me.get('/api/assist/emails?timezoneOffset=0');
    expect(digest.status).toBe(200);
    expect(JSON.stringify(digest.body)).toContain('Keys');

    // A reply threads, goes out over SMTP and lands in Sent.
    const [message] = await h.svc.deps.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.integrationId, ok.body.id));
    expect(message!.needsReply).toBe(true);
    const sent = await me.post('/api/email/send', {
      to: 'cy@example.test',
      subject: 'Re: Keys',
      body: 'Done, they are under the mat.',
      threadId: message!.threadId,
    });
    expect(sent.status).toBe(200);
    const out = smtp.delivered.at(-1)!;
    expect(out.to).toEqual(['cy@example.test']);
    expect(out.raw).toContain('In-Reply-To: <keys@example.test>');
    // Kept in Sent, as a mail app keeps it; the next sync finds the thread answered there.
    expect(await subjectsIn(OTHER, 'Sent')).toEqual(['Re: Keys']);
    await h.syncNow(ok.body.id);
    expect(
      (await h.svc.deps.db.select().from(mailMessages).where(eq(mailMessages.integrationId, ok.body.id)))[0]!
        .needsReply,
    ).toBe(false);

    // A draft lands in Drafts.
    const draft = await me.post('/api/email/send?draft=true', {
      to: 'cy@example.test',
      subject: 'Re: Keys',
      body: 'Draft only.',
      threadId: message!.threadId,
    });
    expect(draft.body).toEqual({ success: true, message: 'Draft saved' });
    expect(await subjectsIn(OTHER, 'Drafts')).toEqual(['Re: Keys']);
  });

  it('reads a message answered from another mail app (\\Answered, no copy in Sent) as not waiting', async () => {
    await deliver(DEE, 'INBOX', [
      Buffer.from(
        'From: Cy <cy@example.test>\r\nTo: dee@example.test\r\nSubject: Lunch\r\nMessage-ID: <lunch@example.test>\r\n\r\nCould you book a table for Friday?\r\n',
      ),
    ]);
    const ok = await h
      .as()
      .post('/api/integrations/mail-server', { address: DEE, password: PASSWORD, ...servers() });
    expect(ok.status).toBe(201);
    await h.synced(ok.body.id);
    const needsReply = async () =>
      (await h.svc.deps.db.select().from(mailMessages).where(eq(mailMessages.integrationId, ok.body.id)))[0]!
        .needsReply;
    expect(await needsReply()).toBe(true);
    // The phone's mail app answered it and flagged it, keeping nothing in Sent.
    await asMailApp(DEE, async (client) => {
      const lock = await client.getMailboxLock('INBOX');
      try {
        await client.messageFlagsAdd('1:*', ['\\Answered']);
      } finally {
        lock.release();
      }
    });
    await h.syncNow(ok.body.id);
    expect(await needsReply()).toBe(false);
  });

  it('keeps one copy in Sent when the submission server files its own, as Gmail’s and Yahoo’s do', async () => {
    const filing = await startSmtpSubmission(PASSWORD, {
      keepCopy: (delivery) => deliver(EVE, 'Sent', [Buffer.from(delivery.raw)]),
    });
    try {
      const me = h.as();
      const ok = await me.post('/api/integrations/mail-server', {
        address: EVE,
        password: PASSWORD,
        imap: servers().imap,
        smtp: { host: '127.0.0.1', port: filing.port, security: 'none' },
      });
      expect(ok.status).toBe(201);
      await h.synced(ok.body.id);
      const sent = await me.post('/api/email/send', { to: 'cy@example.test', subject: 'Hello', body: 'Hi.' });
      expect(sent.status).toBe(200);
      expect(filing.delivered).toHaveLength(1);
      expect(await subjectsIn(EVE, 'Sent')).toEqual(['Hello']);
    } finally {
      await filing.stop();
    }
  });

  it('shows a password changed since as a connection issue, never an error', async () => {
    const me = h.as();
    const ok = await me.post('/api/integrations/mail-server', {
      address: OTHER,
      password: PASSWORD,
      ...servers(),
    });
    expect(ok.status).toBe(201);
    await h.synced(ok.body.id);
    // The row's login made to hold another password, as if it were changed at the provider.
    const [row] = await h.svc.deps.db.select().from(integrations).where(eq(integrations.id, ok.body.id));
    const { tokenContext } = await import('../src/domain/contexts');
    const cipher = h.svc.deps.cipher;
    const login = JSON.parse(cipher.decrypt(row!.accessTokenEnc!, tokenContext(row!.userId)));
    login.imap.password = 'changed';
    await h.svc.deps.db
      .update(integrations)
      .set({ accessTokenEnc: cipher.encrypt(JSON.stringify(login), tokenContext(row!.userId)) })
      .where(eq(integrations.id, ok.body.id));
    await h.dueNow(ok.body.id);
    const { until } = await import('@haven/kit/testing');
    await until(
      async () => {
        const [now] = await h.svc.deps.db.select().from(integrations).where(eq(integrations.id, ok.body.id));
        return 'error' in now!.settings;
      },
      15_000,
      'connection issue',
    );
    const [listed] = (await me.get('/api/integrations')).body;
    expect(listed).toMatchObject({
      connected: false,
      settings: {
        error: 'The mail server no longer accepts the app password. Please reconnect with a new one.',
      },
    });
    const send = await me.post('/api/email/send', { to: 'cy@example.test', subject: 'x', body: 'x' });
    expect(send.status).toBe(409);
  });

  it.runIf(corpusPresent(CORPUS))(
    'syncs the real corpus over IMAP with the Gmail figures: machines’ mail ≤5%, asks ≥95%, asks-nothing ≤20% on the held-out half',
    async () => {
      const mail = labelledMail().filter((m) => !m.file.startsWith('own/'));
      await deliver(
        ACCOUNT,
        'INBOX',
        [...mail].reverse().map((m) => m.raw),
      );
      const me = h.as();
      const ok = await me.post('/api/integrations/mail-server', {
        address: ACCOUNT,
        password: PASSWORD,
        ...servers(),
      });
      expect(ok.status).toBe(201);
      await h.synced(ok.body.id);
      const [row] = await h.svc.deps.db.select().from(integrations).where(eq(integrations.id, ok.body.id));
      expect(row!.settings.error).toBeUndefined();
      const cached = await h.svc.deps.db
        .select({ messageId: mailMessages.messageId, needsReply: mailMessages.needsReply })
        .from(mailMessages)
        .where(eq(mailMessages.integrationId, ok.body.id));
      expect(cached).toHaveLength(mail.length);
      // Appended oldest last: UID n holds mail[mail.length - n].
      const byUid = (id: string) => mail[mail.length - Number(id.split('.')[2])]!;
      const f = figures(cached.map((c) => ({ mail: byUid(c.messageId), needsReply: c.needsReply })));
      const machines = share(f, ['list-newsletter', 'automated'], 'held-out');
      const asks = share(f, ['personal-asks'], 'held-out');
      const nothing = share(f, ['personal-asks-nothing'], 'held-out');
      console.log(
        `IMAP, held-out half: machines ${machines.marked}/${machines.total}, asks ${asks.marked}/${asks.total}, asks-nothing ${nothing.marked}/${nothing.total}`,
      );
      expect(machines.ratio).toBeLessThanOrEqual(0.05);
      expect(asks.ratio).toBeGreaterThanOrEqual(0.95);
      expect(nothing.ratio).toBeLessThanOrEqual(0.2);
    },
    120_000,
  );
});

describe.runIf(hasDovecot())('push for mail by its servers (IMAP IDLE)', () => {
  const ADA = 'ada@example.test';
  const CY = 'cy@example.test';
  let h: Harness;
  let dovecot: Dovecot;
  let smtp: Awaited<ReturnType<typeof startSmtpSubmission>>;

  beforeAll(async () => {
    dovecot = await startDovecot({ [ADA]: PASSWORD, [CY]: PASSWORD });
    smtp = await startSmtpSubmission(PASSWORD);
    // Polling an hour apart: a sync within seconds can only be the push's. One watched account a process.
    h = await startIntegrations({
      MAIL_SERVERS_ALLOW_PRIVATE: '1',
      SYNC_INTERVAL_MS: '3600000',
      IMAP_IDLE_MAX: '1',
      IMAP_WATCH_ROUND_MS: '300',
    });
  });
  afterAll(async () => {
    await h?.stop();
    await smtp?.stop();
    await dovecot?.stop();
  });

  const connect = async (address: string) => {
    const ok = await h.as().post('/api/integrations/mail-server', {
      address,
      password: PASSWORD,
      imap: { host: '127.0.0.1', port: dovecot.port, security: 'none' },
      smtp: { host: '127.0.0.1', port: smtp.port, security: 'none' },
    });
    expect(ok.status).toBe(201);
    await h.synced(ok.body.id);
    return ok.body.id as number;
  };
  const cached = async (id: number) =>
    (await h.svc.deps.db.select().from(mailMessages).where(eq(mailMessages.integrationId, id))).length;
  const deliver = async (to: string, subject: string) => {
    const client = mailApp(dovecot, to);
    await client.connect();
    await client.append(
      'INBOX',
      Buffer.from(`From: Bo <bo@example.test>\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\nHello.\r\n`),
    );
    await client.logout();
  };
  const watchKey = (id: number) => `${h.svc.deps.config.REDIS_PREFIX}imap-watch:${id}`;

  it('syncs a new message within seconds, and watches no more accounts than its bound', async () => {
    const ada = await connect(ADA);
    const cy = await connect(CY);
    const { until } = await import('@haven/kit/testing');
    // The bound: one of the two is watched (the oldest), the other is polled.
    await until(async () => (await h.svc.deps.redis.exists(watchKey(ada))) === 1, 10_000, 'Ada watched');
    expect(await h.svc.deps.redis.exists(watchKey(cy))).toBe(0);

    // A message may land before the inbox is open in IDLE: the next one then tells.
    let synced = false;
    for (let i = 1; i <= 5 && !synced; i++) {
      await deliver(ADA, `Pushed ${i}`);
      synced = await until(async () => (await cached(ada)) >= 1, 4_000, 'the pushed sync').then(
        () => true,
        () => false,
      );
    }
    expect(synced).toBe(true);
    // Cy's mailbox is polled only: an hour away.
    await deliver(CY, 'Polled');
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await cached(cy)).toBe(0);
  });
});

describe('a mail server on a private address', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startIntegrations();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('is refused in words unless the operator allows it (no probing inside the network)', async () => {
    const me = h.as();
    const answer = await me.post('/api/integrations/mail-server', {
      address: 'ada@example.test',
      password: PASSWORD,
      imap: { host: '169.254.169.254', port: 993, security: 'tls' },
      smtp: { host: 'localhost', port: 25, security: 'none' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.issues).toEqual([
      {
        path: ['imap'],
        code: 'private-network',
        message:
          '169.254.169.254 is on a private network (169.254.169.254): this server connects to mail servers on the internet only.',
      },
      {
        path: ['smtp'],
        code: 'private-network',
        message: expect.stringMatching(/^localhost is on a private network \((127\.0\.0\.1|::1)\)/),
      },
    ]);
    expect((await me.get('/api/integrations')).body).toEqual([]);
  });
});

describe.runIf(hasRadicale())('a calendar by its CalDAV server (Radicale)', () => {
  const USER = 'ada@example.test';
  const CAL_PASSWORD = 'cal-app-password';
  let h: Harness;
  let radicale: Radicale;
  const auth = `Basic ${Buffer.from(`${USER}:${CAL_PASSWORD}`).toString('base64')}`;
  const stamp = (at: Date) =>
    at
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');

  beforeAll(async () => {
    radicale = await startRadicale({ [USER]: CAL_PASSWORD });
    const at = new Date(Date.now() + 3 * 86_400_000);
    at.setUTCHours(15, 0, 0, 0);
    const invitation = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Example//Organiser//EN',
      'BEGIN:VEVENT',
      'UID:budget-review',
      `DTSTAMP:${stamp(new Date())}`,
      `DTSTART:${stamp(at)}`,
      `DTEND:${stamp(new Date(at.getTime() + 3_600_000))}`,
      'SUMMARY:Budget review',
      'ORGANIZER;CN=Sam:mailto:sam@example.com',
      'ATTENDEE;CN=Sam;PARTSTAT=ACCEPTED:mailto:sam@example.com',
      `ATTENDEE;CN=Ada;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${USER}`,
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const put = await fetch(`${radicale.calendarOf(USER)}budget-review.ics`, {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'text/calendar' },
      body: invitation,
    });
    expect(put.status).toBe(201);
    h = await startIntegrations({ MAIL_SERVERS_ALLOW_PRIVATE: '1' });
  });
  afterAll(async () => {
    await h?.stop();
    await radicale?.stop();
  });

  it('says a wrong password, then connects: invitations listed, an answer stored, an event created with its alarm', async () => {
    const me = h.as();
    const wrong = await me.post('/api/integrations/calendar-server', {
      address: USER,
      password: 'not-it',
      url: radicale.url,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.issues).toEqual([
      expect.objectContaining({ path: ['caldav'], code: 'wrong-password' }),
    ]);
    expect((await me.get('/api/integrations')).body).toEqual([]);

    const ok = await me.post('/api/integrations/calendar-server', {
      address: USER,
      password: CAL_PASSWORD,
      url: radicale.url,
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ provider: 'caldav', type: 'calendar', connected: true });
    await h.synced(ok.body.id);

    const calendar = await me.get('/api/assist/calendar');
    expect(calendar.body.connected).toBe(true);
    const [event] = calendar.body.events;
    expect(event).toMatchObject({ summary: 'Budget review', responseStatus: 'needsAction' });

    const answered = await me.post(`/api/calendar/events/${event.id}/rsvp`, { response: 'accepted' });
    expect(answered.status).toBe(200);
    const stored = await (
      await fetch(`${radicale.calendarOf(USER)}budget-review.ics`, { headers: { authorization: auth } })
    ).text();
    expect(stored).toMatch(/PARTSTAT=ACCEPTED[^\r\n]*:mailto:ada@example\.test/i);

    const made = await me.post('/api/calendar/events', {
      title: 'Dentist',
      start: { date: '2026-12-10', time: '09:00' },
      end: { date: '2026-12-10', time: '09:30' },
      reminder: 60,
      timeZone: 'Europe/Paris',
    });
    expect(made.status).toBe(201);
    const listing = await (
      await fetch(radicale.calendarOf(USER), {
        method: 'PROPFIND',
        headers: { authorization: auth, depth: '1' },
      })
    ).text();
    const created = [...listing.matchAll(/<[^>]*href>([^<]+\.ics)</g)]
      .map((m) => m[1]!)
      .filter((href) => !href.includes('budget-review'));
    expect(created).toHaveLength(1);
    const ics = await (
      await fetch(new URL(created[0]!, radicale.url), { headers: { authorization: auth } })
    ).text();
    expect(ics).toContain('SUMMARY:Dentist');
    expect(ics).toMatch(/BEGIN:VALARM[\s\S]*TRIGGER:-PT1H/);
  });

  it('refuses a calendar server on a private address unless the operator allows it', async () => {
    const strict = await startIntegrations();
    try {
      const answer = await strict.as().post('/api/integrations/calendar-server', {
        address: USER,
        password: CAL_PASSWORD,
        url: radicale.url,
      });
      expect(answer.status).toBe(422);
      expect(answer.body.issues).toEqual([
        expect.objectContaining({ path: ['caldav'], code: 'private-network' }),
      ]);
    } finally {
      await strict.stop();
    }
  });
});
