import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailDigest, EmailItem } from '@haven/contracts/mail';
import { until } from '@haven/kit/testing';
import { calendarEvents, integrations, mailMessages } from '../src/db/schema';
import { startOfYesterday } from '../src/domain/assist';
import { templateReply } from '@haven/contracts/reply';
import { startIntegrations, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startIntegrations();
});
afterAll(async () => {
  await h?.stop();
});

const HOUR = 3_600_000;

/** A realistic inbox: a person waiting, a thread already answered, a newsletter, a notice, promotions. */
function fillInbox(account: ReturnType<Harness['google']['account']>, address: string) {
  const waiting = account.addMessage({
    from: 'Bob Stone <bob@example.com>',
    to: address,
    subject: 'Lunch on Friday?',
    text: 'Are you free for lunch on Friday at noon?',
    date: new Date(Date.now() - 2 * HOUR),
  });
  const answered = account.addMessage({
    from: 'Carol King <carol@example.com>',
    to: address,
    subject: 'Slides',
    text: 'Could you send me the slides?',
    date: new Date(Date.now() - 3 * HOUR),
  });
  account.reply(answered.threadId, 'Here they are.');
  account.addMessage({
    from: 'Weekly Digest <digest@news.example>',
    to: address,
    subject: 'This week in gardening',
    html: '<p>Ten tips</p>',
    headers: { 'List-Unsubscribe': '<mailto:unsubscribe@news.example>', 'List-Id': 'garden.news.example' },
  });
  account.addMessage({
    from: 'Service <no-reply@service.example>',
    to: address,
    subject: 'Your password was changed',
    text: 'If this was not you, contact us.',
  });
  account.addMessage({
    from: 'Shop <deals@shop.example>',
    to: address,
    subject: '50% off',
    text: 'Sale',
    labelIds: ['INBOX', 'CATEGORY_PROMOTIONS'],
  });
  const older = account.addMessage({
    from: 'Dave <dave@example.com>',
    to: address,
    subject: 'Contract review',
    text: 'Can you review the contract by next week?',
    date: new Date(Date.now() - 3 * 24 * HOUR),
  });
  return { waiting, answered, older };
}

const rowOf = async (id: number) =>
  (await h.svc.deps.db.select().from(integrations).where(eq(integrations.id, id)))[0]!;

describe('accounts.sync of a mail account, and the digest', () => {
  it('syncs a realistic inbox right after connecting: isNew and needsReply computed, text encrypted', async () => {
    const { me, account, address } = h.newUser();
    const { waiting, older } = fillInbox(account, address);
    const integration = await h.connected(me, 'email');

    const res = await me.get('/api/assist/emails?timezoneOffset=0');
    expect(res.status).toBe(200);
    const digest = res.body as EmailDigest;
    expect(digest.connected).toBe(true);
    // Six inbox messages (the user's reply is sent mail, not inbox).
    expect(digest.emails).toHaveLength(6);
    const bySubject = Object.fromEntries(digest.emails.map((e) => [e.subject, e]));
    expect(bySubject['Lunch on Friday?']).toMatchObject({
      id: waiting.id,
      threadId: waiting.threadId,
      from: 'Bob Stone',
      fromFull: 'Bob Stone <bob@example.com>',
      isNew: true,
      needsReply: true,
    });
    expect(bySubject['Slides']!.needsReply).toBe(false);
    expect(bySubject['This week in gardening']!.needsReply).toBe(false);
    expect(bySubject['Your password was changed']!.needsReply).toBe(false);
    expect(bySubject['50% off']!.needsReply).toBe(false);
    expect(bySubject['Contract review']).toMatchObject({ id: older.id, isNew: false, needsReply: true });
    expect(digest.stats).toEqual({ newSinceYesterday: 5, needingResponse: 2 });
    // Newest first, and no bodies in the list.
    expect(digest.emails.map((e) => e.date)).toEqual([...digest.emails.map((e) => e.date)].sort().reverse());
    expect(digest.emails.every((e) => e.body === undefined)).toBe(true);

    const stored = await h.svc.deps.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.integrationId, integration.id));
    expect(stored).toHaveLength(6);
    const raw = JSON.stringify(stored);
    for (const secret of ['Lunch', 'bob@example.com', 'Are you free']) expect(raw).not.toContain(secret);
    const row = await rowOf(integration.id);
    expect(row.accountEnc).not.toContain(address);
    expect(row.syncCursor).toBeTruthy();
  });

  it('counts "new since yesterday" in the user’s own time zone', () => {
    const now = new Date('2026-11-22T01:30:00Z');
    // UTC: yesterday began 2026-11-21T00:00Z.
    expect(startOfYesterday(now, 0).toISOString()).toBe('2026-11-21T00:00:00.000Z');
    // Sydney (UTC+11, offset -660): it is already 12:30 on the 22nd; yesterday began 21st 00:00 local.
    expect(startOfYesterday(now, -660).toISOString()).toBe('2026-11-20T13:00:00.000Z');
    // Los Angeles (UTC-8, offset 480): it is still the 21st, 17:30; yesterday began the 20th 00:00 local.
    expect(startOfYesterday(now, 480).toISOString()).toBe('2026-11-20T08:00:00.000Z');
  });

  it('reads every message and every thread once per sync, a thread with more than one to read whole', async () => {
    const { me, account, address } = h.newUser();
    const { waiting } = fillInbox(account, address);
    // Two inbox messages of one thread, and the user's question waiting for an answer.
    const first = account.addMessage({
      from: 'Fay <fay@example.com>',
      to: address,
      subject: 'Trip',
      text: 'Shall we go?',
    });
    account.addMessage({
      from: 'Fay <fay@example.com>',
      to: address,
      subject: 'Re: Trip',
      text: 'Or next month?',
      threadId: first.threadId,
    });
    const asked = account.addMessage({
      from: address,
      to: 'Gus <gus@example.com>',
      subject: 'Budget',
      text: 'Could you send the numbers by Monday?',
      labelIds: ['SENT'],
      date: new Date(Date.now() - 5 * 86_400_000),
    });
    const callsBefore = h.google.state.calls.length;
    const integration = await h.connected(me, 'email');
    const reads = (from: number) =>
      h.google.state.calls.slice(from).filter((c) => /\/users\/me\/(messages|threads)\/[^/]+$/.test(c));
    const once = (calls: string[]) =>
      [...new Set(calls)].filter((c) => calls.indexOf(c) !== calls.lastIndexOf(c));

    const firstSync = reads(callsBefore);
    expect(once(firstSync)).toEqual([]);
    // The two-message thread and the user's threads are read whole; their messages are not read again.
    expect(firstSync).toContain(`GET /gmail/v1/users/me/threads/${first.threadId}`);
    expect(firstSync).toContain(`GET /gmail/v1/users/me/threads/${asked.threadId}`);
    expect(firstSync).not.toContain(`GET /gmail/v1/users/me/messages/${first.id}`);
    const digest = (await me.get('/api/assist/emails')).body as EmailDigest;
    expect(digest.emails.map((e) => e.subject)).toEqual(expect.arrayContaining(['Trip', 'Re: Trip']));
    expect(digest.emails.find((e) => e.id === waiting.id)!.needsReply).toBe(true);

    // A new message and a reply: the history, then each touched thread once, no message alone.
    const callsMid = h.google.state.calls.length;
    const fresh = account.addMessage({
      from: 'Hal <hal@example.com>',
      to: address,
      subject: 'Keys',
      text: 'Where are the keys?',
    });
    account.reply(waiting.threadId, 'Friday works.');
    await h.syncNow(integration.id);
    const next = reads(callsMid);
    expect(next.sort()).toEqual(
      [
        `GET /gmail/v1/users/me/threads/${fresh.threadId}`,
        `GET /gmail/v1/users/me/threads/${waiting.threadId}`,
      ].sort(),
    );
    const after = (await me.get('/api/assist/emails')).body as EmailDigest;
    expect(after.emails.find((e) => e.id === fresh.id)!.needsReply).toBe(true);
    expect(after.emails.find((e) => e.id === waiting.id)!.needsReply).toBe(false);
  });

  it('syncs incrementally from the history: a reply clears needsReply, new mail arrives, archived mail leaves', async () => {
    const { me, account, address } = h.newUser();
    const { waiting } = fillInbox(account, address);
    const integration = await h.connected(me, 'email');
    const callsBefore = h.google.state.calls.length;

    account.reply(waiting.threadId, 'Friday works.');
    const fresh = account.addMessage({
      from: 'Erin <erin@example.com>',
      to: address,
      subject: 'Quick question',
      text: 'Do you have the report?',
    });
    const newsletter = (await me.get('/api/assist/emails')).body.emails.find(
      (e: EmailItem) => e.subject === 'This week in gardening',
    );
    account.archive(newsletter.id);
    await h.syncNow(integration.id);

    const calls = h.google.state.calls.slice(callsBefore);
    expect(calls).toContain('GET /gmail/v1/users/me/history');
    expect(calls).not.toContain('GET /gmail/v1/users/me/messages');
    const digest = (await me.get('/api/assist/emails')).body as EmailDigest;
    const subjects = digest.emails.map((e) => e.subject);
    expect(subjects).toContain('Quick question');
    expect(subjects).not.toContain('This week in gardening');
    expect(digest.emails.find((e) => e.id === waiting.id)!.needsReply).toBe(false);
    expect(digest.emails.find((e) => e.id === fresh.id)!.needsReply).toBe(true);
    expect(digest.stats.needingResponse).toBe(2); // Erin and Dave

    // Gmail forgot the history: the next sync starts over from the inbox.
    account.forgetHistory();
    account.addMessage({ from: 'Fay <fay@example.com>', to: address, subject: 'After the gap', text: 'Hi' });
    await h.syncNow(integration.id);
    const after = (await me.get('/api/assist/emails')).body as EmailDigest;
    expect(after.emails.map((e) => e.subject)).toContain('After the gap');
  });

  it('backs off on a rate limit without failing the account, and syncs again later', async () => {
    const { me, account, address } = h.newUser();
    const integration = await h.connected(me, 'email');
    account.addMessage({ from: 'Gus <gus@example.com>', to: address, subject: 'Hello there', text: 'Hi!' });

    h.google.state.rateLimitNext = 1;
    h.google.state.retryAfterSeconds = 120;
    await h.dueNow(integration.id);
    await until(async () => (await rowOf(integration.id)).syncBackoffs === 1, 10_000, 'backoff');
    const row = await rowOf(integration.id);
    expect(row.nextSyncAt!.getTime()).toBeGreaterThan(Date.now() + 100_000);
    expect(row.settings).not.toHaveProperty('error');
    const listed = (await me.get('/api/integrations?provider=google&type=email')).body;
    expect(listed[0].connected).toBe(true);

    await h.syncNow(integration.id);
    expect((await rowOf(integration.id)).syncBackoffs).toBe(0);
    const digest = (await me.get('/api/assist/emails')).body as EmailDigest;
    expect(digest.emails.map((e) => e.subject)).toContain('Hello there');
  });

  it('retries a sync hit by three 429s within seconds, honouring Retry-After, as Google asks', async () => {
    const { me, account, address } = h.newUser();
    const integration = await h.connected(me, 'email');
    account.addMessage({ from: 'Hal <hal@example.com>', to: address, subject: 'Quick one', text: 'Hi!' });
    h.google.state.rateLimitNext = 3;
    h.google.state.retryAfterSeconds = 1;
    const started = Date.now();
    // No due round in between: the job comes back by itself (about 1, 2 and 4 s, at least 1 s each).
    const before = await h.dueNow(integration.id);
    await until(
      async () => {
        const row = await rowOf(integration.id);
        return Boolean(row.lastSyncedAt && row.lastSyncedAt > before.lastSyncedAt!);
      },
      15_000,
      'the sync after three 429s',
    );
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(3_000);
    expect(took).toBeLessThan(15_000);
    expect(h.google.state.rateLimitNext).toBe(0);
    expect((await rowOf(integration.id)).syncBackoffs).toBe(0);
    const digest = (await me.get('/api/assist/emails')).body as EmailDigest;
    expect(digest.emails.map((e) => e.subject)).toContain('Quick one');
  });

  it('serves a body sanitised, with remote images held back; another user’s e-mail is 404', async () => {
    const { me, account, address } = h.newUser();
    const hostile = account.addMessage({
      from: 'Mallory <mallory@example.com>',
      to: address,
      subject: 'Invoice',
      html:
        '<style>body{position:fixed}</style><p onclick="steal()" style="position:fixed;top:0">Please pay</p>' +
        '<script>alert(1)</script><img src="https://tracker.example/p.gif" width="1" height="1">' +
        '<iframe src="https://evil.example"></iframe><form action="https://evil.example"><input name="pw"></form>' +
        '<a href="javascript:alert(1)">click</a> <a href="https://ok.example/x">ok</a>',
    });
    await h.connected(me, 'email');

    const res = await me.get(`/api/assist/emails/${hostile.id}`);
    expect(res.status).toBe(200);
    const email = res.body as EmailItem;
    expect(email.hasRemoteImages).toBe(true);
    const body = email.body!;
    expect(body).toContain('Please pay');
    for (const banned of [
      '<script',
      'onclick',
      '<iframe',
      '<form',
      '<input',
      '<style',
      'style=',
      'javascript:',
      ' src=',
    ])
      expect(body).not.toContain(banned);
    expect(body).toContain('data-remote-src="https://tracker.example/p.gif"');
    expect(body).toContain('href="https://ok.example/x"');
    expect(body).toContain('rel="noopener noreferrer nofollow"');

    const stranger = h.as();
    expect((await stranger.get(`/api/assist/emails/${hostile.id}`)).status).toBe(404);
    expect(
      (await stranger.post('/api/assist/email-draft', { emailId: hostile.id, threadId: hostile.threadId }))
        .status,
    ).toBe(404);
    expect((await me.get('/api/assist/emails/not a valid id')).status).toBe(400);
  });

  it('drafts a reply from the template without a model, and sends it into the thread', async () => {
    const { me, account, address } = h.newUser();
    const { waiting } = fillInbox(account, address);
    await h.connected(me, 'email');

    const drafted = await me.post('/api/assist/email-draft', {
      emailId: waiting.id,
      threadId: waiting.threadId,
    });
    expect(drafted.status).toBe(200);
    expect(drafted.body).toEqual({
      draft: templateReply('Bob Stone', 'Lunch on Friday?'),
      source: 'template',
    });
    expect(drafted.body.draft).toMatch(/^Hi Bob,/);
    expect(drafted.body.draft).toContain('"Lunch on Friday?"');

    const sent = await me.post('/api/email/send', {
      to: 'bob@example.com',
      subject: 'Re: Lunch on Friday?',
      body: 'Friday works.',
      priority: 'normal',
      threadId: waiting.threadId,
    });
    expect(sent.body).toEqual({ success: true, message: 'Email sent' });
    const last = h.google.state.sent.at(-1)!;
    expect(last.threadId).toBe(waiting.threadId);
    const mime = Buffer.from(last.raw, 'base64url').toString('utf8');
    expect(mime).toMatch(new RegExp(`^In-Reply-To: <${waiting.id}@mail\\.example>`, 'm'));
    expect(mime).toMatch(new RegExp(`^References: <${waiting.id}@mail\\.example>`, 'm'));
  });

  it('refuses a NUL in any field of a draft or a send with 400 naming it, and sends nothing', async () => {
    const { me, account, address } = h.newUser();
    const { waiting } = fillInbox(account, address);
    await h.connected(me, 'email');
    const sentBefore = h.google.state.sent.length;
    const email = { to: 'bob@example.com', subject: 'Re: Lunch', body: 'Friday works.', priority: 'normal' };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/assist/email-draft', { emailId: `${waiting.id}\u0000`, threadId: waiting.threadId }, 'emailId'],
      ['/api/assist/email-draft', { emailId: waiting.id, threadId: `x\u0000` }, 'threadId'],
      ['/api/email/send', { ...email, threadId: `${waiting.threadId}\u0000` }, 'threadId'],
      ['/api/email/send?draft=true', { ...email, threadId: `\u0000` }, 'threadId'],
      ['/api/email/send', { ...email, subject: 'Re\u0000' }, 'subject'],
    ];
    for (const [path, body, field] of cases) {
      const answer = await me.post(path, body);
      expect(answer.status, `${path} ${field}`).toBe(400);
      expect(answer.body.message).toBe(`Invalid body: ${field}: Text must not contain NUL characters`);
    }
    expect(h.google.state.sent.length).toBe(sentBefore);
  });

  it('answers the assistant’s internal digest for the signed user only', async () => {
    const { me, account, address } = h.newUser();
    fillInbox(account, address);
    await h.connected(me, 'email');
    const call = (caller: 'assistant' | 'insights') =>
      fetch(`${h.svc.url}/internal/assist/digest?timezoneOffset=0`, {
        headers: h.svc.headers(me.userId, caller),
      });
    const ok = await call('assistant');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as EmailDigest).stats.needingResponse).toBe(2);
    expect((await call('insights')).status).toBe(403);
    const other = await fetch(`${h.svc.url}/internal/assist/digest`, {
      headers: h.svc.headers(h.as().userId, 'assistant'),
    });
    expect(((await other.json()) as EmailDigest).connected).toBe(false);
  });
});

describe('calendar invitations', () => {
  it('lists invitations awaiting an answer, answers one for real, and keeps strangers out', async () => {
    const { me, account } = h.newUser();
    const invite = account.addInvitation({
      summary: 'Design review',
      start: new Date(Date.now() + 26 * HOUR),
      location: 'Room 4',
    });
    const accepted = account.addInvitation({ summary: 'Standup', start: new Date(Date.now() + 2 * HOUR) });
    (accepted.attendees[1] as { responseStatus: string }).responseStatus = 'accepted';
    expect((await me.get('/api/assist/calendar')).body).toEqual({ connected: false, events: [] });
    const integration = await h.connected(me, 'calendar');

    const listed = await me.get('/api/assist/calendar');
    expect(listed.status).toBe(200);
    expect(listed.body.connected).toBe(true);
    expect(listed.body.events).toEqual([
      expect.objectContaining({
        id: invite.id,
        summary: 'Design review',
        location: 'Room 4',
        responseStatus: 'needsAction',
      }),
    ]);

    expect(
      (await h.as().post(`/api/calendar/events/${invite.id}/rsvp`, { response: 'accepted' })).status,
    ).toBe(404);
    expect((await me.post(`/api/calendar/events/${invite.id}/rsvp`, { response: 'maybe' })).status).toBe(400);
    const answered = await me.post(`/api/calendar/events/${invite.id}/rsvp`, { response: 'accepted' });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ id: invite.id, responseStatus: 'accepted' });
    const patch = h.google.state.patches.at(-1)!;
    expect(patch.eventId).toBe(invite.id);
    expect(patch.sendUpdates).toBe('all');
    expect(patch.body.attendees).toEqual(
      expect.arrayContaining([expect.objectContaining({ self: true, responseStatus: 'accepted' })]),
    );
    expect((await me.get('/api/assist/calendar')).body.events).toEqual([]);

    const cached = await h.svc.deps.db
      .select()
      .from(calendarEvents)
      .where(eq(calendarEvents.integrationId, integration.id));
    expect(JSON.stringify(cached)).not.toContain('Design review');

    // Disconnecting deletes the cache with the account.
    expect((await me.delete(`/api/integrations/${integration.id}`)).status).toBe(200);
    expect(
      await h.svc.deps.db
        .select()
        .from(calendarEvents)
        .where(eq(calendarEvents.integrationId, integration.id)),
    ).toEqual([]);
  });
});

describe('tokens and lost grants', () => {
  it('refreshes a token about to expire ahead of time', async () => {
    const { me } = h.newUser();
    const integration = await h.connected(me, 'calendar');
    const before = await rowOf(integration.id);
    await h.svc.deps.db
      .update(integrations)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(integrations.id, integration.id));
    await h.svc.reconcilers!.runOnce();
    await until(
      async () => ((await rowOf(integration.id)).expiresAt?.getTime() ?? 0) > Date.now() + 30 * 60_000,
      10_000,
      'refreshed token',
    );
    expect((await rowOf(integration.id)).accessTokenEnc).not.toBe(before.accessTokenEnc);
  });

  it('pauses the sync of a revoked account and shows the connection issue', async () => {
    const { me, account, address } = h.newUser();
    fillInbox(account, address);
    const integration = await h.connected(me, 'email');
    h.google.revokeAll();
    h.google.expireAccessTokens();
    await h.svc.deps.db
      .update(integrations)
      .set({ nextSyncAt: new Date(0), expiresAt: new Date(Date.now() - 1000) })
      .where(eq(integrations.id, integration.id));
    await h.svc.reconcilers!.runOnce();
    await until(async () => 'error' in (await rowOf(integration.id)).settings, 10_000, 'connection issue');
    const listed = (await me.get('/api/integrations?provider=google&type=email')).body;
    expect(listed[0]).toMatchObject({ connected: false, settings: { error: expect.any(String) } });
    expect((await me.get('/api/assist/emails')).body.connected).toBe(false);

    // Later rounds leave it alone until it is reconnected.
    const calls = h.google.state.calls.length;
    await h.dueNow(integration.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(h.google.state.calls.length).toBe(calls);
  });
});
