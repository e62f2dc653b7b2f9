import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@haven/kit/testing';
import type { Integration } from '@haven/contracts/integrations';
import { integrations, oauthStates } from '../src/db/schema';
import { APP_URL, startIntegrations, type Harness } from './harness';

let h: Harness;
let google: Harness['google'];
let svc: Harness['svc'];
let as: Harness['as'];
let consent: Harness['consent'];
let connected: Harness['connected'];

beforeAll(async () => {
  h = await startIntegrations();
  ({ google, svc, as, consent, connected } = h);
});
afterAll(async () => {
  await h?.stop();
});

const rowsOf = (userId: number) =>
  svc.deps.db.select().from(integrations).where(eq(integrations.userId, userId));

describe('connecting Google', () => {
  it('connects through the server callback and lands on /integrations saying so', async () => {
    const me = as();
    const { callback } = await consent(me, 'email');
    const landed = await as(me.userId).get(callback.pathname + callback.search);
    expect(landed.status).toBe(302);
    expect(landed.location).toBe(
      `${APP_URL}/integrations?integration=success&provider=google&type=email&message=Connected`,
    );
    const list = await me.get('/api/integrations');
    expect(list.body).toEqual([
      expect.objectContaining({
        provider: 'google',
        type: 'email',
        connected: true,
        settings: { autoSync: true, notifyOnChanges: true, includeFullContent: false },
      }),
    ]);
    // Tokens are stored encrypted: neither appears in the row.
    const [row] = await rowsOf(me.userId);
    const issued = google.state.tokenRequests.at(-1)!;
    expect(issued.grant_type).toBe('authorization_code');
    expect(row!.accessTokenEnc).toMatch(/^enc1\./);
    expect(row!.refreshTokenEnc).toMatch(/^enc1\./);
    expect(JSON.stringify(row)).not.toMatch(/ya29-|1\/\/refresh/);
  });

  it('says which providers this server can connect, and what a connection was granted', async () => {
    const me = as();
    expect((await me.get('/api/integrations/providers')).body).toEqual({
      providers: [
        { provider: 'google', configured: true },
        { provider: 'microsoft', configured: true },
        { provider: 'slack', configured: true },
        { provider: 'notion', configured: true },
        // Mail and calendar servers need nothing of this server's configuration.
        { provider: 'imap', configured: true },
        { provider: 'caldav', configured: true },
      ],
    });
    const calendar = await connected(me, 'calendar');
    expect(calendar.scopes).toEqual(
      expect.arrayContaining(['https://www.googleapis.com/auth/calendar.events']),
    );
  });

  it('connects through the SPA callback page, and reconnecting updates the same integration', async () => {
    const me = as();
    const first = await connected(me, 'calendar');
    const again = await connected(me, 'calendar');
    expect(again.id).toBe(first.id);
    expect(await rowsOf(me.userId)).toHaveLength(1);
  });

  it('refuses a forged, replayed, expired or another user’s state, storing nothing', async () => {
    const me = as();
    const refuse = async (body: Record<string, unknown>, who = me) =>
      expect(
        await who.post('/api/integrations/google/auth-complete', { type: 'email', ...body }),
      ).toMatchObject({
        status: 400,
        body: { message: 'Invalid state parameter' },
      });
    const forged = await consent(me, 'email');
    await refuse({ code: forged.code, state: `${forged.state.split('.')[0]}.forgedsignature` });
    await refuse({ code: forged.code });
    // Another user cannot complete my consent…
    const mine = await consent(me, 'email');
    await refuse({ code: mine.code, state: mine.state }, as());
    // …and, used once (even by the wrong user), it is gone.
    await refuse({ code: mine.code, state: mine.state });
    const expired = await consent(me, 'email');
    await svc.deps.db.update(oauthStates).set({ expiresAt: new Date(Date.now() - 1000) });
    await refuse({ code: expired.code, state: expired.state });
    // The server callback says so too, on the Integrations page.
    const replay = await as(null).get(
      `/api/auth/google/callback?code=x&state=${encodeURIComponent(mine.state)}`,
    );
    expect(new URL(replay.location!).searchParams.get('message')).toBe('Invalid state parameter');
    expect(await rowsOf(me.userId)).toEqual([]);
  });

  it('returns a direct consent to the SPA callback page when asked, exchanging the code for that address', async () => {
    const me = as();
    const link = await me.get('/api/integrations/google/direct-auth?type=calendar&redirect=local');
    const authUrl = new URL(link.body.authUrl);
    expect(authUrl.searchParams.get('redirect_uri')).toBe(`${APP_URL}/direct-google-callback`);
    const back = new URL((await fetch(authUrl, { redirect: 'manual' })).headers.get('location')!);
    expect(back.origin + back.pathname).toBe(`${APP_URL}/direct-google-callback`);
    const done = await me.post('/api/integrations/google/auth-complete', {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      type: 'calendar',
    });
    expect(done).toMatchObject({ status: 200, body: { type: 'calendar', connected: true } });
    expect(google.state.tokenRequests.at(-1)!.redirect_uri).toBe(`${APP_URL}/direct-google-callback`);
    // The default stays the server callback.
    const server = await me.get('/api/integrations/google/direct-auth?type=email');
    expect(new URL(server.body.authUrl).searchParams.get('redirect_uri')).toBe(
      `${APP_URL}/api/auth/google/callback`,
    );
  });

  it('reports a refused consent and missing parameters on the Integrations page', async () => {
    // The browser-navigation fallback never answers a JSON page: a refusal goes back to the screen.
    const invalid = await as().get('/api/integrations/google/auth?type=messages');
    expect(invalid.status).toBe(302);
    expect(new URL(invalid.location!).searchParams.get('integration')).toBe('error');
    expect(new URL(invalid.location!).searchParams.get('message')).toBe(
      'google does not offer messages integrations',
    );
    const refused = await as(null).get('/api/auth/google/callback?error=access_denied&state=s');
    expect(refused.location).toBe(
      `${APP_URL}/integrations?integration=error&provider=google&message=access_denied`,
    );
    const missing = await as(null).get('/api/auth/google/callback');
    expect(new URL(missing.location!).searchParams.get('message')).toBe('Missing required OAuth parameters');
  });
});

describe('using the account', () => {
  it('sends and saves drafts through Gmail with a proper MIME message', async () => {
    const me = as();
    expect(
      await me.post('/api/email/send', { to: 'ana@example.com', subject: 'Hi', body: 'Hello' }),
    ).toMatchObject({
      status: 409,
      body: { code: 'not_connected', message: expect.stringMatching(/^No email account is connected/) },
    });
    await connected(me, 'email');
    const email = {
      to: 'Ana Lima <ana@example.com>',
      cc: 'team@example.com',
      subject: 'Réunion de lundi — ordre du jour',
      body: 'Bonjour Ana,\nVoici l’ordre du jour.',
      priority: 'high',
      threadId: 'thread-42',
    };
    expect(await me.post('/api/email/send', email)).toEqual({
      status: 200,
      location: null,
      body: { success: true, message: 'Email sent' },
    });
    const sent = google.state.sent.at(-1)!;
    expect(sent.threadId).toBe('thread-42');
    const mime = Buffer.from(sent.raw, 'base64url').toString('utf8');
    expect(mime).toMatch(/^To: Ana Lima <ana@example.com>$/m);
    expect(mime).toMatch(/^Cc: team@example.com$/m);
    // The non-ASCII subject is encoded (RFC 2047), never raw bytes in a header.
    expect(mime).toMatch(/^Subject: =\?UTF-8\?[QB]\?/m);
    expect(mime).not.toContain('Subject: Réunion');
    expect(mime).toMatch(/^X-Priority: 1/m);
    const draft = await me.post('/api/email/send?draft=true', { ...email, to: '' });
    expect(draft.body).toEqual({ success: true, message: 'Draft saved' });
    expect(google.state.drafts.at(-1)!.threadId).toBe('thread-42');
  });

  it('refreshes an expired access token by itself and stores the new one', async () => {
    const me = as();
    await connected(me, 'email');
    const [before] = await rowsOf(me.userId);
    google.expireAccessTokens();
    await svc.deps.db
      .update(integrations)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(integrations.userId, me.userId));
    const refreshes = google.state.tokenRequests.filter((r) => r.grant_type === 'refresh_token').length;
    expect((await me.post('/api/email/send', { to: 'a@example.com', subject: 'S', body: 'B' })).status).toBe(
      200,
    );
    expect(google.state.tokenRequests.filter((r) => r.grant_type === 'refresh_token').length).toBe(
      refreshes + 1,
    );
    await expect
      .poll(async () => (await rowsOf(me.userId))[0]!.accessTokenEnc)
      .not.toBe(before!.accessTokenEnc);
  });

  it('shows a revoked grant as a connection issue', async () => {
    const me = as();
    await connected(me, 'email');
    google.revokeAll();
    google.expireAccessTokens();
    await svc.deps.db
      .update(integrations)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(integrations.userId, me.userId));
    const refused = await me.post('/api/email/send', { to: 'a@example.com', subject: 'S', body: 'B' });
    expect(refused).toMatchObject({
      status: 409,
      body: { code: 'reconnect_required', message: expect.stringMatching(/reconnect/) },
    });
    // Once marked, the next action says so at once, without calling Google.
    expect(await me.post('/api/email/send', { to: 'a@example.com', subject: 'S', body: 'B' })).toMatchObject({
      status: 409,
      body: { code: 'reconnect_required' },
    });
    const [listed] = (await me.get('/api/integrations?type=email')).body as Integration[];
    expect(listed).toMatchObject({
      connected: false,
      settings: { error: expect.stringMatching(/reconnect/) },
    });
    // Reconnecting clears it.
    expect((await connected(me, 'email')).connected).toBe(true);
  });

  /** A draft is refused as a lost grant (409 with the reason), and the account lists as needing reconnecting. */
  async function expectDraftRefusedAsRevoked(me: ReturnType<typeof as>, accountId: number) {
    const refused = await me.post('/api/email/send?draft=true', {
      to: 'a@example.com',
      subject: 'S',
      body: 'B',
    });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        code: 'reconnect_required',
        message: 'Google no longer accepts this connection. Please reconnect.',
      },
    });
    const [listed] = (await me.get('/api/integrations?type=email')).body as Integration[];
    expect(listed).toMatchObject({
      id: accountId,
      connected: false,
      settings: { error: expect.stringMatching(/reconnect/) },
    });
  }

  it('takes a 401 from the API (revoked at Google, access token not yet expired) for a lost grant', async () => {
    const me = as();
    const account = await connected(me, 'email');
    // The access token is good for an hour as far as the client knows (as after any refresh it
    // stored), so it calls Gmail without refreshing; revoked from the user's Google account page,
    // Gmail answers 401.
    await svc.deps.db
      .update(integrations)
      .set({ expiresAt: new Date(Date.now() + 3_600_000) })
      .where(eq(integrations.id, account.id));
    google.revokeAll();
    await expectDraftRefusedAsRevoked(me, account.id);
    // Its syncs stop: the due round no longer queues it.
    const calls = google.state.calls.length;
    await h.dueNow(account.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(google.state.calls.length).toBe(calls);
  });

  it('takes a 401 that a fresh token does not cure (invalid_token) for a lost grant, not a failed call', async () => {
    const me = as();
    const account = await connected(me, 'email');
    google.state.refuseAccess = true;
    try {
      const refreshes = google.state.tokenRequests.length;
      const drafts = google.state.drafts.length;
      await expectDraftRefusedAsRevoked(me, account.id);
      // The client did try a fresh token first: the refresh worked, the API still said no.
      expect(google.state.tokenRequests.length).toBeGreaterThan(refreshes);
      expect(google.state.drafts).toHaveLength(drafts);
    } finally {
      google.state.refuseAccess = false;
    }
  });

  it('says a permission left out at consent needs reconnecting, from an action and from a sync', async () => {
    const me = as();
    google.state.consentWithout = ['gmail.compose'];
    try {
      const account = await connected(me, 'email');
      const refused = await me.post('/api/email/send', { to: 'a@example.com', subject: 'S', body: 'B' });
      expect(refused).toMatchObject({
        status: 409,
        body: { code: 'reconnect_required', message: expect.stringMatching(/permission was left out/) },
      });
      expect(google.state.sent.filter((m) => m.raw.includes('a@example.com'))).toEqual([]);
      const [listed] = (await me.get('/api/integrations?type=email')).body as Integration[];
      expect(listed).toMatchObject({ id: account.id, connected: false });
      expect(listed!.settings.error).toMatch(/permission was left out/);
    } finally {
      google.state.consentWithout = [];
    }
    // Reading the mailbox without gmail.readonly: the first sync marks the connection the same way.
    const other = as();
    google.state.consentWithout = ['gmail.readonly'];
    try {
      const { code, state } = await h.consent(other, 'email');
      const done = await other.post('/api/integrations/google/auth-complete', { code, state, type: 'email' });
      expect(done.status).toBe(200);
      await until(async () => {
        const [listed] = (await other.get('/api/integrations?type=email')).body as Integration[];
        return /permission was left out/.test(listed?.settings.error ?? '');
      });
    } finally {
      google.state.consentWithout = [];
    }
  });

  it('creates a real event with its reminder', async () => {
    const me = as();
    const event = {
      title: 'Dentist',
      start: { date: '2026-11-27', time: '09:00' },
      end: { date: '2026-11-27', time: '10:00' },
      reminder: 60,
      timeZone: 'Europe/Lisbon',
    };
    expect(await me.post('/api/calendar/events', event)).toMatchObject({
      status: 409,
      body: { code: 'not_connected' },
    });
    await connected(me, 'calendar');
    const created = await me.post('/api/calendar/events', event);
    expect(created).toMatchObject({ status: 201, body: { summary: 'Dentist', id: expect.any(String) } });
    expect(google.state.events.at(-1)).toMatchObject({
      summary: 'Dentist',
      start: { dateTime: '2026-11-27T09:00:00', timeZone: 'Europe/Lisbon' },
      reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 60 }] },
    });
  });

  it('keeps settings and rules (encrypted), and disconnects with revocation; another user’s id is 404', async () => {
    const me = as();
    const integration = await connected(me, 'email');
    const patched = await me.patch(`/api/integrations/${integration.id}/settings`, {
      settings: { includeFullContent: true },
      contextualRules: 'Always be brief.',
    });
    expect(patched.body).toMatchObject({
      settings: { autoSync: true, includeFullContent: true },
      contextualRules: 'Always be brief.',
    });
    expect((await rowsOf(me.userId))[0]!.contextualRulesEnc).toMatch(/^enc1\./);
    const stranger = as();
    expect(
      (await stranger.patch(`/api/integrations/${integration.id}/settings`, { contextualRules: 'x' })).status,
    ).toBe(404);
    expect((await stranger.delete(`/api/integrations/${integration.id}`)).status).toBe(404);
    const revokedBefore = google.state.revoked.length;
    expect((await me.delete(`/api/integrations/${integration.id}`)).status).toBe(200);
    expect(google.state.revoked.length).toBe(revokedBefore + 1);
    expect(await rowsOf(me.userId)).toEqual([]);
  });
});
