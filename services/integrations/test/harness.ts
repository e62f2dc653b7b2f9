import { expect } from 'vitest';
import type { Integration } from '@haven/contracts/integrations';
import { eq } from 'drizzle-orm';
import { startTestService, until } from '@haven/kit/testing';
import { integrations } from '../src/db/schema';
import { startGoogleDouble } from '../../../test/doubles/google-server';
import { startGraphDouble } from '../../../test/doubles/microsoft-graph';
import { startNotionDouble } from '../../../test/doubles/notion-server';
import { startSlackDouble } from '../../../test/doubles/slack-server';
import { integrationsService } from '../src/service';

export const APP_URL = 'http://haven.test';

/**
 * The integrations service on its own test database with a Google double, and a client that calls
 * it as the gateway does for one user.
 */
export async function startIntegrations(env: Record<string, string> = {}) {
  const google = await startGoogleDouble();
  const graph = await startGraphDouble();
  const slack = await startSlackDouble();
  const notion = await startNotionDouble();
  const svc = await startTestService(integrationsService, {
    ...google.env,
    ...graph.env,
    ...slack.env,
    ...notion.env,
    APP_URL,
    ...env,
  });
  let nextUser = 500;
  let nextAccount = 0;

  /** Calls the service as the gateway does, for `userId` (null: a visitor on a public route). */
  function as(userId: number | null = nextUser++) {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(svc.url + path, {
        method,
        redirect: 'manual',
        headers: {
          ...svc.headers(userId),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test answers are read loosely
      type Loose = any;
      return {
        status: res.status,
        location: res.headers.get('location'),
        body: (text && res.headers.get('content-type')?.includes('json')
          ? JSON.parse(text)
          : undefined) as Loose,
      };
    };
    return {
      userId: userId!,
      get: (path: string) => call('GET', path),
      post: (path: string, body?: unknown) => call('POST', path, body),
      patch: (path: string, body: unknown) => call('PATCH', path, body),
      delete: (path: string) => call('DELETE', path),
    };
  }
  type Client = ReturnType<typeof as>;

  /** Starts a consent and follows Google's (the double's) redirect: the callback's code and state. */
  async function consent(me: Client, type: 'email' | 'calendar') {
    const started = await me.post('/api/integrations/google/auth', { type });
    expect(started.status).toBe(200);
    const authUrl = new URL(started.body.authUrl);
    expect(authUrl.searchParams.get('access_type')).toBe('offline');
    expect(authUrl.searchParams.get('prompt')).toBe('consent');
    const scopes = authUrl.searchParams.get('scope')!.split(' ');
    if (type === 'email')
      expect(scopes).toEqual(expect.arrayContaining(['https://www.googleapis.com/auth/gmail.compose']));
    else expect(scopes).toEqual(expect.arrayContaining(['https://www.googleapis.com/auth/calendar.events']));
    const back = await fetch(authUrl, { redirect: 'manual' });
    const callback = new URL(back.headers.get('location')!);
    expect(callback.origin + callback.pathname).toBe(`${APP_URL}/api/auth/google/callback`);
    return { code: callback.searchParams.get('code')!, state: callback.searchParams.get('state')!, callback };
  }

  /** Resolves once the account's sync asked for last has run (its `lastSyncedAt` moved). */
  async function synced(integrationId: number, since: Date | null = null): Promise<void> {
    await until(
      async () => {
        const [row] = await svc.deps.db.select().from(integrations).where(eq(integrations.id, integrationId));
        return Boolean(row?.lastSyncedAt && (!since || row.lastSyncedAt > since));
      },
      15_000,
      `sync of integration ${integrationId}`,
    );
  }

  /** Makes the account's sync due and runs the rounds (which queue it); answers the row before. */
  async function dueNow(integrationId: number) {
    const [row] = await svc.deps.db
      .update(integrations)
      .set({ nextSyncAt: new Date(0) })
      .where(eq(integrations.id, integrationId))
      .returning();
    await svc.reconcilers!.runOnce();
    return row!;
  }

  /** Runs one sync of the account now (as the due round would) and waits for it. */
  async function syncNow(integrationId: number): Promise<void> {
    const before = await dueNow(integrationId);
    await synced(integrationId, before.lastSyncedAt);
  }

  /** Connects `type` for `me` through the SPA callback route, and waits for its first sync. */
  async function connected(me: Client, type: 'email' | 'calendar'): Promise<Integration> {
    const { code, state } = await consent(me, type);
    const done = await me.post('/api/integrations/google/auth-complete', { code, state, type });
    expect(done.status).toBe(200);
    await synced(done.body.id);
    return done.body as Integration;
  }

  /**
   * Connects Slack (`messages`), Notion (`documents`) or Microsoft (`email` or `calendar`) through
   * the provider's consent and the server callback, and waits for the first sync.
   */
  async function connectedTo(
    me: Client,
    provider: 'slack' | 'notion' | 'microsoft',
    type = provider === 'slack' ? 'messages' : provider === 'notion' ? 'documents' : 'email',
  ): Promise<Integration> {
    const started = await me.post(`/api/integrations/${provider}/auth`, { type });
    expect(started.status).toBe(200);
    const back = await fetch(started.body.authUrl, { redirect: 'manual' });
    const callback = new URL(back.headers.get('location')!);
    expect(callback.origin + callback.pathname).toBe(`${APP_URL}/api/auth/${provider}/callback`);
    const landed = await as(null).get(callback.pathname + callback.search);
    expect(new URL(landed.location!).searchParams.get('integration')).toBe('success');
    const [row] = (await me.get(`/api/integrations?provider=${provider}&type=${type}`)).body as Integration[];
    await synced(row!.id);
    return row!;
  }

  /** A fresh user whose consents open a fresh Google account of the stand-in. */
  function newUser() {
    const address = `user${++nextAccount}@example.com`;
    google.state.consentAs = address;
    return { me: as(), account: google.account(address), address };
  }

  return {
    google,
    graph,
    slack,
    newUser,
    notion,
    connectedTo,
    svc,
    as,
    consent,
    connected,
    synced,
    dueNow,
    syncNow,
    async stop() {
      await svc.stop();
      await Promise.all([google.stop(), graph.stop(), slack.stop(), notion.stop()]);
    },
  };
}
export type Harness = Awaited<ReturnType<typeof startIntegrations>>;
