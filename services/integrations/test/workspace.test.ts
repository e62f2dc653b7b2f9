import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Integration } from '@haven/contracts/integrations';
import type { MoreAnswer, NotionAnswer, SlackAnswer } from '@haven/contracts/workspace';
import { until } from '@haven/kit/testing';
import { integrations, providerItems } from '../src/db/schema';
import { startIntegrations, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startIntegrations();
});
afterAll(async () => {
  await h?.stop();
});

const rowOf = async (id: number) =>
  (await h.svc.deps.db.select().from(integrations).where(eq(integrations.id, id)))[0]!;

/** A Slack workspace where the user `me` was mentioned twice (answered once) and sent two DMs. */
function slackWorkspace(me: string) {
  const { slack } = h;
  slack.person(me, 'kai');
  slack.person('U0ANA', 'ana');
  slack.person('U0BEN', 'ben');
  slack.channel(`C${me}`, `launch-${me.toLowerCase()}`);
  const answered = slack.post(`C${me}`, 'U0ANA', `<@${me}> can you check the copy?`);
  slack.post(`C${me}`, me, 'Done, looks good.', answered);
  const waiting = slack.post(`C${me}`, 'U0BEN', `<@${me}> are we still on for the demo at 3?`);
  const dmWaiting = slack.im(me, 'U0ANA');
  slack.post(dmWaiting, 'U0ANA', 'Lunch tomorrow?');
  const dmAnswered = slack.im(me, 'U0BEN');
  slack.post(dmAnswered, 'U0BEN', 'Thanks for the notes');
  slack.post(dmAnswered, me, 'Anytime!');
  return { answered, waiting };
}

/** Calls an internal route as the assistant does, for `userId`. */
async function asAssistant<T>(userId: number, path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(h.svc.url + path, { headers: h.svc.headers(userId, 'assistant') });
  return { status: res.status, body: (await res.json()) as T };
}

describe('Slack', () => {
  it('connects through the callback, syncs mentions and DMs with needsReply, and answers the assistant', async () => {
    const me = h.as();
    h.slack.state.consentAs = 'U0KAI';
    const { answered, waiting } = slackWorkspace('U0KAI');
    const integration = await h.connectedTo(me, 'slack');
    expect(integration).toMatchObject({ provider: 'slack', type: 'messages', connected: true });
    const exchange = h.slack.state.exchanges.at(-1)!;
    expect(exchange.redirect_uri).toBe('http://haven.test/api/auth/slack/callback');

    const more = (await me.get('/api/assist/more')).body as MoreAnswer;
    expect(more.slack.connected).toBe(true);
    // Only what waits for the user: the unanswered mention and the DM whose last word is Ana's.
    expect(more.slack.items.map((i) => [i.kind, i.from, i.text])).toEqual(
      expect.arrayContaining([
        ['mention', 'ben', '@kai are we still on for the demo at 3?'],
        ['dm', 'ana', 'Lunch tomorrow?'],
      ]),
    );
    expect(more.slack.items).toHaveLength(2);
    expect(more.slack.items.find((i) => i.kind === 'mention')!.channel).toBe('#launch-u0kai');

    const tool = await asAssistant<SlackAnswer>(me.userId, '/internal/slack/mentions');
    expect(tool.status).toBe(200);
    const byId = Object.fromEntries(tool.body.items.map((i) => [i.id, i]));
    expect(byId[`CU0KAI:${waiting}`]!.needsReply).toBe(true);
    expect(byId[`CU0KAI:${answered}`]!.needsReply).toBe(false);
    // The tool reached Slack with this user's token only.
    expect(new Set(h.slack.state.calls.filter((c) => c.user).map((c) => c.user))).toEqual(new Set(['U0KAI']));
    // Another user gets nothing of it.
    const stranger = await asAssistant<SlackAnswer>(h.as().userId, '/internal/slack/mentions');
    expect(stranger.body).toEqual({ connected: false, items: [] });

    const stored = await h.svc.deps.db
      .select()
      .from(providerItems)
      .where(eq(providerItems.integrationId, integration.id));
    expect(JSON.stringify(stored)).not.toContain('Lunch tomorrow');
    expect(JSON.stringify(await rowOf(integration.id))).not.toContain('xoxp-');
  });

  it('asks for the channel history scopes it reads with, and says a token without them needs reconnecting', async () => {
    // A mention in a private channel: reading its replies needs groups:history.
    const me = h.as();
    h.slack.state.consentAs = 'U0PIA';
    h.slack.person('U0PIA', 'pia');
    h.slack.channel('GPIA', 'secret-pia', { private: true });
    const asked = h.slack.post('GPIA', 'U0ANA', '<@U0PIA> could you review the budget?');
    h.slack.post('GPIA', 'U0PIA', 'On it.', asked);
    const integration = await h.connectedTo(me, 'slack');
    expect(integration.connected).toBe(true);
    const tool = await asAssistant<SlackAnswer>(me.userId, '/internal/slack/mentions');
    expect(tool.body.items.find((i) => i.id === `GPIA:${asked}`)).toMatchObject({ needsReply: false });

    // A token granted before Haven asked for channels:history: the sync cannot read the replies.
    const older = h.as();
    h.slack.state.consentAs = 'U0OLA';
    h.slack.person('U0OLA', 'ola');
    h.slack.channel('COLA', 'general-ola');
    h.slack.post('COLA', 'U0BEN', '<@U0OLA> can you send the slides?');
    h.slack.state.grantOnly = ['search:read', 'im:history', 'im:read', 'users:read'];
    try {
      const started = await older.post('/api/integrations/slack/auth', { type: 'messages' });
      const back = await fetch(started.body.authUrl, { redirect: 'manual' });
      const callback = new URL(back.headers.get('location')!);
      await h.as(null).get(callback.pathname + callback.search);
    } finally {
      h.slack.state.grantOnly = null;
    }
    await until(async () => {
      const [row] = (await older.get('/api/integrations?type=messages')).body as Integration[];
      return /permission was left out/.test(row?.settings.error ?? '');
    });
    const [row] = (await older.get('/api/integrations?type=messages')).body as Integration[];
    expect(row).toMatchObject({
      connected: false,
      settings: { error: expect.stringMatching(/^Slack did not give Haven/) },
    });
  });

  it('honours Retry-After on a rate limit, then shows a revoked token as the connection issue; disconnect revokes', async () => {
    const me = h.as();
    h.slack.state.consentAs = 'U0LEE';
    slackWorkspace('U0LEE');
    const integration = await h.connectedTo(me, 'slack');

    h.slack.state.rateLimitNext = 1;
    h.slack.state.retryAfterSeconds = 90;
    await h.dueNow(integration.id);
    await until(async () => (await rowOf(integration.id)).syncBackoffs === 1, 10_000, 'backoff');
    const row = await rowOf(integration.id);
    expect(row.nextSyncAt!.getTime()).toBeGreaterThan(Date.now() + 80_000);
    expect(row.settings).not.toHaveProperty('error');

    await h.syncNow(integration.id);
    h.slack.revokeAll();
    await h.dueNow(integration.id);
    await until(async () => 'error' in (await rowOf(integration.id)).settings, 10_000, 'connection issue');
    const [listed] = (await me.get('/api/integrations?provider=slack')).body as Integration[];
    expect(listed).toMatchObject({
      connected: false,
      settings: { error: 'Slack no longer accepts this connection. Please reconnect.' },
    });
    expect(((await me.get('/api/assist/more')).body as MoreAnswer).slack.connected).toBe(false);

    const revokedBefore = h.slack.state.revoked.length;
    expect((await me.delete(`/api/integrations/${integration.id}`)).status).toBe(200);
    expect(h.slack.state.calls.at(-1)!.method).toBe('auth.revoke');
    expect(h.slack.state.revoked.length).toBe(revokedBefore); // already revoked: deleted anyway
    expect(
      await h.svc.deps.db.select().from(providerItems).where(eq(providerItems.integrationId, integration.id)),
    ).toEqual([]);
  });

  it('refuses a forged or replayed state at the Slack callback, storing nothing', async () => {
    const me = h.as();
    const started = await me.post('/api/integrations/slack/auth', { type: 'messages' });
    const back = new URL(
      (await fetch(started.body.authUrl, { redirect: 'manual' })).headers.get('location')!,
    );
    const state = back.searchParams.get('state')!;
    const forged = await h
      .as(null)
      .get(`/api/auth/slack/callback?code=${back.searchParams.get('code')}&state=${state.split('.')[0]}.bad`);
    expect(new URL(forged.location!).searchParams.get('message')).toBe('Invalid state parameter');
    // A Google state is not a Slack state.
    const google = await me.post('/api/integrations/google/auth', { type: 'email' });
    const googleState = new URL(google.body.authUrl).searchParams.get('state')!;
    const crossed = await h
      .as(null)
      .get(`/api/auth/slack/callback?code=x&state=${encodeURIComponent(googleState)}`);
    expect(new URL(crossed.location!).searchParams.get('message')).toBe('Invalid state parameter');
    const ok = await h.as(null).get(back.pathname + back.search);
    expect(new URL(ok.location!).searchParams.get('integration')).toBe('success');
    const replayed = await h.as(null).get(back.pathname + back.search);
    expect(new URL(replayed.location!).searchParams.get('message')).toBe('Invalid state parameter');
    expect((await me.get('/api/integrations?provider=slack')).body).toHaveLength(1);
  });
});

describe('Notion', () => {
  it('connects with Basic auth, syncs recent pages, searches for the assistant, saves a page, disconnects', async () => {
    const me = h.as();
    h.notion.state.consentAs = 'ws-kai';
    const journal = h.notion.addPage('ws-kai', 'Journal', ['Where my notes go.']);
    h.notion.addPage('ws-kai', 'Launch plan', [
      'Ship the onboarding review before Thursday.',
      'Ask Lee about the copy.',
    ]);
    h.notion.addPage('ws-other', 'Someone else’s secrets', ['Not yours.']);
    const integration = await h.connectedTo(me, 'notion');
    expect(h.notion.state.exchanges.at(-1)!.authorization).toBe(
      `Basic ${Buffer.from('notion-test-client:notion-test-secret').toString('base64')}`,
    );

    const more = (await me.get('/api/assist/more')).body as MoreAnswer;
    expect(more.notion.connected).toBe(true);
    expect(more.notion.pages.map((p) => p.title).sort()).toEqual(['Journal', 'Launch plan']);

    const found = await asAssistant<NotionAnswer>(me.userId, '/internal/notion/search?q=launch');
    expect(found.body.pages).toEqual([
      expect.objectContaining({
        title: 'Launch plan',
        excerpt: 'Ship the onboarding review before Thursday.',
      }),
    ]);
    await me.patch(`/api/integrations/${integration.id}/settings`, {
      settings: { includeFullContent: true },
    });
    const full = await asAssistant<NotionAnswer>(me.userId, '/internal/notion/search?q=launch');
    expect(full.body.pages[0]!.excerpt).toBe(
      'Ship the onboarding review before Thursday.\nAsk Lee about the copy.',
    );
    expect(
      (await asAssistant<NotionAnswer>(h.as().userId, '/internal/notion/search?q=secrets')).body,
    ).toEqual({
      connected: false,
      pages: [],
    });

    // Saving needs the page chosen once.
    const draft = { title: 'Insight for today', content: 'You planted tomatoes.\n\nYou slept badly.' };
    expect((await me.post('/api/notion/pages', draft)).status).toBe(409);
    const choices = (await me.get('/api/notion/pages?q=journal')).body as NotionAnswer;
    expect(choices.pages.map((p) => p.title)).toEqual(['Journal']);
    await me.patch(`/api/integrations/${integration.id}/settings`, {
      settings: { parentPageId: journal.id, parentPageTitle: 'Journal' },
    });
    const saved = await me.post('/api/notion/pages', draft);
    expect(saved.status).toBe(201);
    expect(saved.body.url).toMatch(/^https:\/\/www\.notion\.so\//);
    expect(h.notion.state.created.at(-1)).toMatchObject({
      workspace: 'ws-kai',
      parent: { page_id: journal.id },
      properties: { title: { title: [{ text: { content: 'Insight for today' } }] } },
      children: [
        { type: 'paragraph', paragraph: { rich_text: [{ text: { content: 'You planted tomatoes.' } }] } },
        { type: 'paragraph', paragraph: { rich_text: [{ text: { content: 'You slept badly.' } }] } },
      ],
    });
    expect((await h.as().post('/api/notion/pages', draft)).status).toBe(409);

    expect((await me.delete(`/api/integrations/${integration.id}`)).status).toBe(200);
    expect(h.notion.state.revoked).toHaveLength(1);
    expect(((await me.get('/api/assist/more')).body as MoreAnswer).notion.connected).toBe(false);
  });

  it('backs off on a Notion rate limit by its Retry-After, keeping the account healthy', async () => {
    const me = h.as();
    h.notion.state.consentAs = 'ws-busy';
    h.notion.addPage('ws-busy', 'Busy page', ['x']);
    const integration = await h.connectedTo(me, 'notion');
    h.notion.state.rateLimitNext = 1;
    h.notion.state.retryAfterSeconds = 75;
    await h.dueNow(integration.id);
    await until(async () => (await rowOf(integration.id)).syncBackoffs === 1, 10_000, 'backoff');
    const row = await rowOf(integration.id);
    expect(row.nextSyncAt!.getTime()).toBeGreaterThan(Date.now() + 70_000);
    expect(row.settings).not.toHaveProperty('error');
    await h.syncNow(integration.id);
    expect((await rowOf(integration.id)).syncBackoffs).toBe(0);
  });

  it('shows a revoked Notion token as the connection issue', async () => {
    const me = h.as();
    h.notion.state.consentAs = 'ws-revoked';
    h.notion.addPage('ws-revoked', 'Notes', ['x']);
    const integration = await h.connectedTo(me, 'notion');
    h.notion.revokeAll();
    expect((await me.get('/api/notion/pages')).status).toBe(409);
    const [listed] = (await me.get('/api/integrations?provider=notion')).body as Integration[];
    expect(listed).toMatchObject({
      id: integration.id,
      connected: false,
      settings: { error: expect.stringContaining('Notion') },
    });
  });
});
