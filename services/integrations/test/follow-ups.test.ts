import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Integration } from '@haven/contracts/integrations';
import type { WaitingAnswer } from '@haven/contracts/mail';
import { mailContacts, mailFollowUps } from '../src/db/schema';
import { startIntegrations, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startIntegrations();
});
afterAll(async () => {
  await h?.stop();
});

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

/**
 * A mailbox where the user wrote last in four threads: a question 4 days ago (waiting), a question
 * yesterday (not yet), a thank-you 5 days ago (asks nothing), and a question already answered.
 */
function fillSent(account: ReturnType<Harness['google']['account']>, address: string) {
  const sent = (to: string, subject: string, text: string, date: Date, threadId?: string) =>
    account.addMessage({ from: `Me <${address}>`, to, subject, text, date, threadId, labelIds: ['SENT'] });
  const budget = sent(
    'Ana Lima <ana@example.com>',
    'Budget figures',
    'Hi Ana,\n\nCould you send me the budget figures for March?\n\nThanks',
    daysAgo(4),
  );
  const offsite = sent('ben@example.com', 'Offsite', 'Are you coming to the offsite next week?', daysAgo(1));
  sent(
    'cleo@example.com',
    'Dinner',
    'Thank you for the lovely dinner, it was great to see you all.',
    daysAgo(5),
  );
  const asked = account.addMessage({
    from: 'Dan <dan@example.com>',
    to: address,
    subject: 'Venue',
    text: 'Where shall we meet?',
    date: daysAgo(6),
  });
  sent(
    'dan@example.com',
    'Re: Venue',
    'How about the station café, does noon suit you?',
    daysAgo(5),
    asked.threadId,
  );
  account.addMessage({
    from: 'Dan <dan@example.com>',
    to: address,
    subject: 'Re: Venue',
    text: 'Noon at the café works.',
    date: daysAgo(4),
    threadId: asked.threadId,
  });
  return { budget, offsite };
}

const waiting = async (me: ReturnType<Harness['as']>) => {
  const res = await me.get('/api/assist/waiting');
  expect(res.status).toBe(200);
  return res.body as WaitingAnswer;
};

describe('waiting for an answer', () => {
  it('lists a question the user sent N days ago and never got an answer to, with a threaded nudge', async () => {
    const { me, account, address } = h.newUser();
    const { budget } = fillSent(account, address);
    await h.connected(me, 'email');

    const answer = await waiting(me);
    expect(answer.connected).toBe(true);
    expect(answer.days).toBe(3);
    // Not the question of yesterday, not the thank-you, not the question Dan answered.
    expect(answer.threads).toEqual([
      {
        threadId: budget.threadId,
        to: 'Ana Lima',
        subject: 'Budget figures',
        since: new Date(budget.internalDate).toISOString(),
        days: 4,
        nudge: {
          to: 'Ana Lima <ana@example.com>',
          subject: 'Re: Budget figures',
          body: expect.stringMatching(
            /^Hi Ana,\n\nI'm just following up on my message about "Budget figures"\./,
          ),
          threadId: budget.threadId,
        },
      },
    ]);
    // Whom the user wrote to and about what is encrypted at rest.
    const rows = await h.svc.deps.db.select().from(mailFollowUps).where(eq(mailFollowUps.userId, me.userId));
    expect(rows.map((r) => r.threadId)).toContain(budget.threadId);
    for (const row of rows) expect(row.dataEnc).not.toMatch(/ana@|Budget|ben@|Offsite/);

    // Someone else sees nothing of it.
    expect((await waiting(h.as())).connected).toBe(false);
  });

  it('follows the user’s number of days (1 to 30), and refuses other values with a 400 naming it', async () => {
    const { me, account, address } = h.newUser();
    const { budget, offsite } = fillSent(account, address);
    const email = await h.connected(me, 'email');

    const set = await me.patch(`/api/integrations/${email.id}/settings`, { settings: { followUpDays: 1 } });
    expect(set.status).toBe(200);
    expect((set.body as Integration).settings.followUpDays).toBe(1);
    const answer = await waiting(me);
    expect(answer.days).toBe(1);
    // Longest waiting first.
    expect(answer.threads.map((t) => t.threadId)).toEqual([budget.threadId, offsite.threadId]);

    for (const bad of [0, 31, 2.5, '3', null]) {
      const refused = await me.patch(`/api/integrations/${email.id}/settings`, {
        settings: { followUpDays: bad },
      });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toMatch(
        /followUpDays must be a whole number of days from 1 to 30/,
      );
    }
    const [stored] = (await me.get('/api/integrations?type=email')).body as Integration[];
    expect(stored!.settings.followUpDays).toBe(1);

    // Only e-mail waits for answers; another user's integration is not found.
    const calendar = await h.connected(me, 'calendar');
    const notMail = await me.patch(`/api/integrations/${calendar.id}/settings`, {
      settings: { followUpDays: 5 },
    });
    expect(notMail.status).toBe(400);
    expect(notMail.body.message).toBe('followUpDays applies to e-mail integrations only');
    const stranger = await h.as().patch(`/api/integrations/${email.id}/settings`, {
      settings: { followUpDays: 5 },
    });
    expect(stranger.status).toBe(404);
  });

  it('is gone once the other side answers (an out-of-office notice is no answer)', async () => {
    const { me, account, address } = h.newUser();
    const { budget } = fillSent(account, address);
    const email = await h.connected(me, 'email');
    expect((await waiting(me)).threads.map((t) => t.threadId)).toEqual([budget.threadId]);

    account.addMessage({
      from: 'Ana Lima <ana@example.com>',
      to: address,
      subject: 'Automatic reply: Budget figures',
      text: 'I am out of the office until Monday.',
      headers: { 'Auto-Submitted': 'auto-replied' },
      threadId: budget.threadId,
    });
    await h.syncNow(email.id);
    expect((await waiting(me)).threads.map((t) => t.threadId)).toEqual([budget.threadId]);

    account.addMessage({
      from: 'Ana Lima <ana@example.com>',
      to: address,
      subject: 'Re: Budget figures',
      text: 'Here they are.',
      threadId: budget.threadId,
    });
    await h.syncNow(email.id);
    expect((await waiting(me)).threads).toEqual([]);
  });

  it('saves the nudge as a draft threaded under the user’s question; sending it restarts the clock', async () => {
    const { me, account, address } = h.newUser();
    const { budget } = fillSent(account, address);
    const email = await h.connected(me, 'email');
    const [thread] = (await waiting(me)).threads;
    const { threadId, ...nudge } = thread!.nudge;

    const saved = await me.post('/api/email/send?draft=true', { ...nudge, threadId, priority: 'normal' });
    expect(saved.body).toEqual({ success: true, message: 'Draft saved' });
    const draft = h.google.state.drafts.at(-1)!;
    expect(draft.threadId).toBe(budget.threadId);
    const mime = Buffer.from(draft.raw, 'base64url').toString('utf8');
    expect(mime).toMatch(new RegExp(`^In-Reply-To: <${budget.id}@mail\\.example>`, 'm'));
    expect(mime).toMatch(new RegExp(`^References: <${budget.id}@mail\\.example>`, 'm'));
    expect(mime).toMatch(/^Subject: Re: Budget figures/m);
    expect(mime).toMatch(/^To: Ana Lima <ana@example\.com>/m);
    // A draft is not a nudge sent: the thread still waits.
    expect((await waiting(me)).threads).toHaveLength(1);

    const sent = await me.post('/api/email/send', { ...nudge, threadId, priority: 'normal' });
    expect(sent.body).toEqual({ success: true, message: 'Email sent' });
    expect((await waiting(me)).threads).toEqual([]);
    // The next sync sees the nudge as the user's last message: the thread waits from then on.
    await h.syncNow(email.id);
    expect((await waiting(me)).threads).toEqual([]);
    const [row] = await h.svc.deps.db
      .select()
      .from(mailFollowUps)
      .where(eq(mailFollowUps.threadId, budget.threadId));
    const nudged = [...account.messages.values()].filter((m) => m.threadId === budget.threadId).at(-1)!;
    expect(nudged.labelIds).toEqual(['SENT']);
    expect(row?.messageId).toBe(nudged.id);
    expect(Date.now() - row!.sentAt.getTime()).toBeLessThan(DAY);
  });

  it('answers the assistant’s internal list for the signed user only', async () => {
    const { me, account, address } = h.newUser();
    const { budget } = fillSent(account, address);
    await h.connected(me, 'email');
    const call = (userId: number, caller: 'assistant' | 'insights') =>
      fetch(`${h.svc.url}/internal/assist/waiting`, { headers: h.svc.headers(userId, caller) });
    const ok = await call(me.userId, 'assistant');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as WaitingAnswer).threads.map((t) => t.threadId)).toEqual([budget.threadId]);
    expect((await call(me.userId, 'insights')).status).toBe(403);
    expect(((await (await call(h.as().userId, 'assistant')).json()) as WaitingAnswer).connected).toBe(false);
  });
});

describe('people the user wrote to', () => {
  const known = (userId: number, addresses: unknown) =>
    fetch(`${h.svc.url}/internal/mail/contacts/known`, {
      method: 'POST',
      headers: { ...h.svc.headers(userId, 'assistant'), 'content-type': 'application/json' },
      body: JSON.stringify({ addresses }),
    });

  it('knows whom the user wrote to, never a sender alone, keeps only blind indexes, and learns from new mail', async () => {
    const { me, account, address } = h.newUser();
    fillSent(account, address);
    account.addMessage({
      from: 'Eve <eve@attacker.example>',
      to: address,
      subject: 'Hi',
      text: 'Write to me.',
    });
    const email = await h.connected(me, 'email');
    const asked = [
      'eve@attacker.example',
      'Ana@Example.com',
      'dan@example.com',
      'ben@example.com',
      'cleo@example.com',
    ];
    const first = await known(me.userId, asked);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      known: ['ana@example.com', 'dan@example.com', 'ben@example.com', 'cleo@example.com'],
    });
    // Another user knows none of them.
    expect(await (await known(h.as().userId, asked)).json()).toEqual({ known: [] });

    account.addMessage({
      from: address,
      to: 'Fay <fay@example.com>',
      subject: 'Keys',
      text: 'Left them at yours.',
      labelIds: ['SENT'],
    });
    await h.syncNow(email.id);
    expect(await (await known(me.userId, ['fay@example.com', 'eve@attacker.example'])).json()).toEqual({
      known: ['fay@example.com'],
    });

    const rows = await h.svc.deps.db.select().from(mailContacts).where(eq(mailContacts.userId, me.userId));
    expect(rows).toHaveLength(5);
    expect(JSON.stringify(rows)).not.toMatch(/example\.com|ana|fay/i);
  });

  it('refuses a question naming no address, or too many, with a 400 naming the field', async () => {
    const { me } = h.newUser();
    for (const bad of [[], Array.from({ length: 21 }, (_, i) => `p${i}@example.com`), 'ana@example.com']) {
      const res = await known(me.userId, bad);
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain('addresses');
    }
  });
});
