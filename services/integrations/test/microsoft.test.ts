import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@haven/kit/testing';
import { integrations, mailMessages } from '../src/db/schema';
import { APP_URL, startIntegrations, type Harness } from './harness';
import { ACCOUNT, CORPUS, figures, labelledMail, share } from './mail-corpus/corpus';
import { corpusPresent } from '@haven/kit/corpus';

/*
 * Microsoft 365 and Outlook.com through Microsoft Graph, against the Graph stand-in (built from
 * Microsoft's API reference): the consent, the same sync, digest, reply triage, sending and drafts
 * as over Gmail and IMAP, delta links Graph forgot, Retry-After, a withdrawn consent, and the
 * calendar's invitations, events and answers.
 */
describe('Microsoft 365 and Outlook.com, through Microsoft Graph', () => {
  let h: Harness;
  let nextAccount = 0;

  beforeAll(async () => {
    h = await startIntegrations();
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** A fresh user whose Microsoft consents open a fresh mailbox of the stand-in. */
  function newUser() {
    const address = `person${++nextAccount}@outlook.example`;
    h.graph.state.consentAs = address;
    return { me: h.as(), mailbox: h.graph.account(address), address };
  }

  const rowOf = async (id: number) =>
    (await h.svc.deps.db.select().from(integrations).where(eq(integrations.id, id)))[0]!;
  const cachedOf = (id: number) =>
    h.svc.deps.db.select().from(mailMessages).where(eq(mailMessages.integrationId, id));

  it('asks each card only for what it needs: mail to read, draft and send; the calendar to read and write', async () => {
    const { me } = newUser();
    const scopesOf = async (type: string) => {
      const started = await me.post('/api/integrations/microsoft/auth', { type });
      expect(started.status).toBe(200);
      const url = new URL(started.body.authUrl);
      expect(url.origin + url.pathname).toBe(`${h.graph.env.MICROSOFT_AUTH_URL}/authorize`);
      expect(url.searchParams.get('redirect_uri')).toBe(`${APP_URL}/api/auth/microsoft/callback`);
      return url.searchParams.get('scope')!.split(' ');
    };
    const mail = await scopesOf('email');
    expect(mail).toEqual(expect.arrayContaining(['offline_access', 'Mail.ReadWrite', 'Mail.Send']));
    expect(mail).not.toContain('Calendars.ReadWrite');
    const calendar = await scopesOf('calendar');
    expect(calendar).toEqual(expect.arrayContaining(['offline_access', 'Calendars.ReadWrite']));
    expect(calendar.some((s) => s.startsWith('Mail.'))).toBe(false);
    // Slack's card is not Microsoft's to offer.
    expect((await me.post('/api/integrations/microsoft/auth', { type: 'messages' })).status).toBe(400);
  });

  it('syncs the mailbox, answers in the thread (In-Reply-To, kept in Sent Items) and saves drafts', async () => {
    const { me, mailbox, address } = newUser();
    await mailbox.addMessage({
      from: 'Cy <cy@example.test>',
      to: address,
      subject: 'Keys',
      text: 'Could you leave the keys under the mat tonight?',
    });
    await mailbox.addMessage({
      from: 'News <news@shop.example>',
      to: address,
      subject: 'Our winter sale',
      text: 'Everything must go.',
      headers: { 'List-Unsubscribe': '<https://shop.example/u>', Precedence: 'bulk' },
    });
    const account = await h.connectedTo(me, 'microsoft', 'email');
    expect(account).toMatchObject({ provider: 'microsoft', type: 'email', connected: true });
    expect(account.scopes).toEqual(expect.arrayContaining(['Mail.ReadWrite', 'Mail.Send']));
    // Who the account is came with the first sync (Graph's /me), kept encrypted.
    expect((await rowOf(account.id)).accountEnc).not.toBeNull();

    const digest = await me.get('/api/assist/emails?timezoneOffset=0');
    expect(digest.status).toBe(200);
    const subjects = JSON.stringify(digest.body);
    expect(subjects).toContain('Keys');
    expect(subjects).toContain('Our winter sale');
    const cached = await cachedOf(account.id);
    const keys = cached.find((m) => m.needsReply)!;
    expect(cached.filter((m) => m.needsReply)).toHaveLength(1);
    // One e-mail opens by its Graph id (base64url, with `=`), as the digest's dialog reads it.
    const opened = await me.get(`/api/assist/emails/${encodeURIComponent(keys.messageId)}?timezoneOffset=0`);
    expect(opened.status).toBe(200);
    expect(opened.body.subject).toBe('Keys');

    const sent = await me.post('/api/email/send', {
      to: 'cy@example.test',
      subject: 'Re: Keys',
      body: 'Done, they are under the mat.',
      threadId: keys.threadId,
    });
    expect(sent.status).toBe(200);
    const out = await simpleParser(h.graph.state.sent.at(-1)!);
    const original = [...mailbox.messages.values()].find((m) => m.subject === 'Keys')!;
    expect(out.inReplyTo).toBe(original.internetMessageId);
    // Graph kept it in Sent Items, in the conversation; the next sync finds the thread answered.
    const inSent = [...mailbox.messages.values()].find((m) => m.subject === 'Re: Keys')!;
    expect(inSent.conversationId).toBe(keys.threadId);
    await h.syncNow(account.id);
    expect((await cachedOf(account.id)).find((m) => m.messageId === keys.messageId)!.needsReply).toBe(false);

    const draft = await me.post('/api/email/send?draft=true', {
      to: 'cy@example.test',
      subject: 'Re: Keys',
      body: 'Draft only.',
      threadId: keys.threadId,
    });
    expect(draft.body).toEqual({ success: true, message: 'Draft saved' });
    expect((await simpleParser(h.graph.state.drafts.at(-1)!)).text?.trim()).toBe('Draft only.');
  });

  it('reads new mail by delta links, and reads the mailbox anew without duplicates when Graph forgets them', async () => {
    const { me, mailbox, address } = newUser();
    await mailbox.addMessage({
      from: 'Ana <ana@example.test>',
      to: address,
      subject: 'First',
      text: 'Hello.',
    });
    const account = await h.connectedTo(me, 'microsoft', 'email');
    expect(await cachedOf(account.id)).toHaveLength(1);

    h.graph.state.calls.length = 0;
    await mailbox.addMessage({
      from: 'Ana <ana@example.test>',
      to: address,
      subject: 'Second',
      text: 'Can you call me back tomorrow?',
    });
    await h.syncNow(account.id);
    expect((await cachedOf(account.id)).map((m) => m.needsReply).sort()).toEqual([false, true]);
    // Incremental: the delta links and the one new message, no listing of the inbox.
    expect(h.graph.state.calls.some((c) => c.endsWith('/mailFolders/inbox/messages'))).toBe(false);
    expect(h.graph.state.calls.filter((c) => c.includes('/delta')).length).toBeGreaterThan(0);

    const first = [...mailbox.messages.values()].find((m) => m.subject === 'First')!;
    mailbox.remove(first.id);
    await h.syncNow(account.id);
    expect((await cachedOf(account.id)).map((m) => m.messageId)).not.toContain(first.id);

    // Graph dropped the sync state (410): a full read, the same messages once each.
    h.graph.account(address).expireDeltas();
    await mailbox.addMessage({ from: 'Ana <ana@example.test>', to: address, subject: 'Third', text: 'Hi.' });
    await h.syncNow(account.id);
    const after = await cachedOf(account.id);
    expect(after).toHaveLength(2);
    expect(new Set(after.map((m) => m.messageId)).size).toBe(2);
    expect((await rowOf(account.id)).settings.error).toBeUndefined();
  });

  it('runs a sync queued under the queue’s former name (mail.sync) by the release before, during a rolling update', async () => {
    const { me, mailbox, address } = newUser();
    await mailbox.addMessage({ from: 'Ana <ana@example.test>', to: address, subject: 'Old', text: 'Hi.' });
    const account = await h.connectedTo(me, 'microsoft', 'email');
    await mailbox.addMessage({ from: 'Ana <ana@example.test>', to: address, subject: 'New', text: 'Hi.' });
    // What a replica of the release before queues: the same payload on mail.sync.
    const [claimed] = await h.svc.deps.db
      .update(integrations)
      .set({ syncRequest: (await rowOf(account.id)).syncRequest + 1 })
      .where(eq(integrations.id, account.id))
      .returning();
    await h.svc.deps.queues.add('mail.sync', { integrationId: account.id, request: claimed!.syncRequest });
    await until(async () => (await cachedOf(account.id)).length === 2, 15_000, 'the old queue’s sync');
  });

  it('waits as Graph asks on 429: a short Retry-After by the client, a long one by the sync’s schedule', async () => {
    const { me, mailbox, address } = newUser();
    await mailbox.addMessage({ from: 'Ana <ana@example.test>', to: address, subject: 'Hi', text: 'Hello.' });
    const account = await h.connectedTo(me, 'microsoft', 'email');

    h.graph.state.retryAfterSeconds = 1;
    h.graph.state.rateLimitNext = 1;
    const started = Date.now();
    await h.syncNow(account.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(h.graph.state.rateLimitNext).toBe(0);
    expect((await rowOf(account.id)).syncBackoffs).toBe(0);

    h.graph.state.retryAfterSeconds = 600;
    h.graph.state.rateLimitNext = 1;
    await h.dueNow(account.id);
    await until(async () => (await rowOf(account.id)).syncBackoffs === 1, 15_000, 'the sync backing off');
    const row = await rowOf(account.id);
    expect(row.nextSyncAt!.getTime()).toBeGreaterThanOrEqual(Date.now() + 590_000);
    expect(row.settings.error).toBeUndefined();
  });

  it('shows a withdrawn consent as a connection issue, and refreshes tokens as they expire', async () => {
    const { me, mailbox, address } = newUser();
    await mailbox.addMessage({ from: 'Ana <ana@example.test>', to: address, subject: 'Hi', text: 'Hello.' });
    const account = await h.connectedTo(me, 'microsoft', 'email');

    // An expired access token is refreshed (Microsoft sends a new refresh token too) and stored.
    const before = await rowOf(account.id);
    h.graph.expireAccessTokens();
    await h.svc.deps.db
      .update(integrations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(integrations.id, account.id));
    await h.syncNow(account.id);
    const refreshed = await rowOf(account.id);
    expect(refreshed.accessTokenEnc).not.toBe(before.accessTokenEnc);
    expect(refreshed.refreshTokenEnc).not.toBe(before.refreshTokenEnc);
    expect(refreshed.expiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(refreshed.settings.error).toBeUndefined();

    h.graph.revokeAll();
    h.graph.expireAccessTokens();
    await h.svc.deps.db
      .update(integrations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(integrations.id, account.id));
    await h.dueNow(account.id);
    await until(async () => 'error' in (await rowOf(account.id)).settings, 15_000, 'connection issue');
    const [listed] = (await me.get('/api/integrations')).body;
    expect(listed).toMatchObject({
      provider: 'microsoft',
      connected: false,
      settings: { error: 'Microsoft no longer accepts this connection. Please reconnect.' },
    });
    const send = await me.post('/api/email/send', { to: 'cy@example.test', subject: 'x', body: 'x' });
    expect(send.status).toBe(409);
    expect(send.body.code).toBe('reconnect_required');
  });

  it('lists invitations with the user’s answer, stores an answer, and creates an event with its reminder', async () => {
    const { me, mailbox, address } = newUser();
    const at = new Date(Date.now() + 3 * 86_400_000);
    at.setUTCHours(15, 0, 0, 0);
    const wall = (d: Date) => `${d.toISOString().slice(0, 19)}.0000000`;
    const invitation = mailbox.addEvent({
      subject: 'Budget review',
      start: { dateTime: wall(at), timeZone: 'UTC' },
      end: { dateTime: wall(new Date(at.getTime() + 3_600_000)), timeZone: 'UTC' },
      organizer: { emailAddress: { name: 'Sam', address: 'sam@example.com' } },
      attendees: [{ type: 'required', status: { response: 'none' }, emailAddress: { name: 'Me', address } }],
      responseStatus: { response: 'notResponded' },
      isOrganizer: false,
    });
    // The user's own appointment with nobody invited is not an invitation.
    mailbox.addEvent({
      subject: 'Gym',
      start: { dateTime: wall(at), timeZone: 'UTC' },
      end: { dateTime: wall(new Date(at.getTime() + 1_800_000)), timeZone: 'UTC' },
      attendees: [],
      responseStatus: { response: 'organizer' },
      isOrganizer: true,
    });
    const account = await h.connectedTo(me, 'microsoft', 'calendar');
    expect(account).toMatchObject({ provider: 'microsoft', type: 'calendar', connected: true });

    const calendar = await me.get('/api/assist/calendar');
    expect(calendar.body.connected).toBe(true);
    expect(calendar.body.events).toEqual([
      expect.objectContaining({
        id: invitation.id,
        summary: 'Budget review',
        responseStatus: 'needsAction',
        organizer: { displayName: 'Sam', email: 'sam@example.com' },
        start: { dateTime: at.toISOString(), timeZone: 'UTC' },
      }),
    ]);

    const answered = await me.post(`/api/calendar/events/${invitation.id}/rsvp`, { response: 'tentative' });
    expect(answered.status).toBe(200);
    expect(answered.body.responseStatus).toBe('tentative');
    expect(h.graph.state.responses.at(-1)).toMatchObject({
      eventId: invitation.id,
      action: 'tentativelyAccept',
      sendResponse: true,
    });

    const made = await me.post('/api/calendar/events', {
      title: 'Dentist',
      start: { date: '2026-12-10', time: '09:00' },
      end: { date: '2026-12-10', time: '09:30' },
      location: 'Rue de Rivoli 1',
      reminder: 60,
      timeZone: 'Europe/Paris',
    });
    expect(made.status).toBe(201);
    // Answered in UTC: 09:00 in Paris in December is 08:00.
    expect(made.body.start).toEqual({ dateTime: '2026-12-10T08:00:00.000Z', timeZone: 'UTC' });
    const stored = mailbox.events.get(made.body.id)!;
    expect(stored).toMatchObject({
      subject: 'Dentist',
      start: { dateTime: expect.stringMatching(/^2026-12-10T09:00:00/), timeZone: 'Europe/Paris' },
      location: { displayName: 'Rue de Rivoli 1' },
      isReminderOn: true,
      reminderMinutesBeforeStart: 60,
    });
  });

  it.runIf(corpusPresent(CORPUS))(
    'syncs the real corpus over Graph with the Gmail figures: machines’ mail ≤5%, asks ≥95%, asks-nothing ≤20% on the held-out half',
    async () => {
      const mail = labelledMail().filter((m) => !m.file.startsWith('own/'));
      h.graph.state.consentAs = ACCOUNT;
      const mailbox = h.graph.account(ACCOUNT);
      const fileOf = new Map<string, (typeof mail)[number]>();
      for (const [i, m] of mail.entries())
        fileOf.set(
          (await mailbox.addRaw(m.raw, { folder: 'inbox', date: new Date(Date.now() - i * 60_000) })).id,
          m,
        );
      const account = await h.connectedTo(h.as(), 'microsoft', 'email');
      expect((await rowOf(account.id)).settings.error).toBeUndefined();
      const cached = await cachedOf(account.id);
      expect(cached).toHaveLength(mail.length);
      const f = figures(cached.map((c) => ({ mail: fileOf.get(c.messageId)!, needsReply: c.needsReply })));
      const machines = share(f, ['list-newsletter', 'automated'], 'held-out');
      const asks = share(f, ['personal-asks'], 'held-out');
      const nothing = share(f, ['personal-asks-nothing'], 'held-out');
      console.log(
        `Graph, held-out half: machines ${machines.marked}/${machines.total}, asks ${asks.marked}/${asks.total}, asks-nothing ${nothing.marked}/${nothing.total}`,
      );
      expect(machines.ratio).toBeLessThanOrEqual(0.05);
      expect(asks.ratio).toBeGreaterThanOrEqual(0.95);
      expect(nothing.ratio).toBeLessThanOrEqual(0.2);
    },
    120_000,
  );
});
