import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway } from '@haven/gateway/testing';
import type { RunningGateway } from '@haven/gateway/start';
import { until } from '@haven/kit/testing';
import { integrations, mailMessages } from '../src/db/schema';
import { startIntegrations, type Harness } from './harness';

const TOPIC = 'projects/haven-test/topics/gmail';
const TOKEN = 'pubsub-push-secret-0123456789';
const HOUR = 3_600_000;

/**
 * A reverse proxy in front of the gateway, started first: the public address the providers are
 * given (Graph validates it when a subscription is made, so it must answer before the service
 * that names it exists).
 */
async function startFrontProxy() {
  let target = '';
  const server = createServer((req, res) => {
    const to = new URL(req.url ?? '/', target);
    const out = forward(to, { method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    to: (url: string) => void (target = url),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/*
 * Sync by the providers' push, through the real gateway: Gmail's users.watch with Pub/Sub push,
 * Microsoft Graph's change notifications (their validation, client state and lifecycle), each
 * asking for the account's sync at once, with polling kept as the safety net.
 */
describe("the providers' push: Gmail through Pub/Sub, Microsoft Graph's change notifications", () => {
  let h: Harness;
  let gateway: RunningGateway;
  let front: Awaited<ReturnType<typeof startFrontProxy>>;

  beforeAll(async () => {
    front = await startFrontProxy();
    h = await startIntegrations({
      GMAIL_PUSH_TOPIC: TOPIC,
      GMAIL_PUSH_TOKEN: TOKEN,
      MICROSOFT_NOTIFICATION_URL: `${front.url}/api/push/microsoft`,
    });
    gateway = await startTestGateway(h.svc.config, { integrations: h.svc.url }, 'http://127.0.0.1:9');
    front.to(gateway.url);
    h.google.pubsub.endpoints.set(TOPIC, `${front.url}/api/push/google?token=${TOKEN}`);
  });
  afterAll(async () => {
    await gateway?.close();
    await h?.stop();
    await front?.stop();
  });

  const rowOf = async (id: number) =>
    (await h.svc.deps.db.select().from(integrations).where(eq(integrations.id, id)))[0]!;
  const cachedCount = async (id: number) =>
    (await h.svc.deps.db.select().from(mailMessages).where(eq(mailMessages.integrationId, id))).length;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(front.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const pubsubPush = (emailAddress: string, data?: string) => ({
    message: {
      data: data ?? Buffer.from(JSON.stringify({ emailAddress, historyId: 1 })).toString('base64'),
      messageId: '1',
    },
    subscription: 'projects/haven-test/subscriptions/gmail-push',
  });

  it('watches a Gmail mailbox after its first sync, and a new message there syncs it at once', async () => {
    const { me, account, address } = h.newUser();
    const connected = await h.connected(me, 'email');
    // The watch: on the inbox and Sent, to the configured topic, kept with the account.
    expect(h.google.watches.get(address)).toMatchObject({ topicName: TOPIC, labelIds: ['INBOX', 'SENT'] });
    const row = await rowOf(connected.id);
    expect(row.pushKey).toMatch(/^[0-9a-f]{64}$/);
    expect(row.pushKey).not.toContain(address.split('@')[0]);
    expect(row.pushExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * HOUR);
    // Pushed: polled hourly as a safety net, not every five minutes.
    expect(row.nextSyncAt!.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);

    const before = await cachedCount(connected.id);
    account.addMessage({ from: 'Cy <cy@example.test>', subject: 'Lunch?', text: 'Are you free for lunch?' });
    // No round is run: Pub/Sub's push alone brings the message in.
    await until(async () => (await cachedCount(connected.id)) > before, 15_000, 'the pushed message');
    expect(h.google.pubsub.deliveries.find((d) => d.emailAddress === address)?.status).toBe(204);
    const digest = await me.get('/api/assist/emails?timezoneOffset=0');
    expect(JSON.stringify(digest.body)).toContain('Lunch?');

    // Disconnecting stops the watch while the token still works.
    expect((await me.delete(`/api/integrations/${connected.id}`)).status).toBe(200);
    expect(h.google.watches.has(address)).toBe(false);
  });

  it("refuses a push without this server's token, acknowledges a mailbox it does not know, names a bad body", async () => {
    const { me, address } = h.newUser();
    const connected = await h.connected(me, 'email');
    const asked = (await rowOf(connected.id)).syncRequest;

    const wrong = await post(`/api/push/google?token=not-the-token-at-all`, pubsubPush(address));
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ code: 'forbidden' });
    expect((await post('/api/push/google', pubsubPush(address))).status).toBe(403);

    const stranger = await post(`/api/push/google?token=${TOKEN}`, pubsubPush('nobody@example.com'));
    expect(stranger.status).toBe(204);

    const garbled = await post(`/api/push/google?token=${TOKEN}`, pubsubPush(address, 'bm90IGpzb24'));
    expect(garbled.status).toBe(400);
    expect(await garbled.json()).toMatchObject({ message: expect.stringMatching(/message\.data/) });
    const missing = await post(`/api/push/google?token=${TOKEN}`, { subscription: 'x' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ message: expect.stringMatching(/message/) });

    // None of them asked for a sync of the account.
    expect((await rowOf(connected.id)).syncRequest).toBe(asked);
    // The right token, the account's address, any case: one more sync asked.
    const right = await post(`/api/push/google?token=${TOKEN}`, pubsubPush(address.toUpperCase()));
    expect(right.status).toBe(204);
    expect((await rowOf(connected.id)).syncRequest).toBe(asked + 1);
  });

  it('subscribes to Graph (its validation answered through the gateway); a new message syncs at once', async () => {
    const address = 'pushed@outlook.example';
    h.graph.state.consentAs = address;
    const mailbox = h.graph.account(address);
    const me = h.as();
    const account = await h.connectedTo(me, 'microsoft', 'email');
    const [sub] = [...h.graph.subscriptions.values()].filter((s) => s.account === address);
    expect(sub).toMatchObject({
      resource: 'me/messages',
      changeType: 'created',
      notificationUrl: `${front.url}/api/push/microsoft`,
    });
    expect(sub!.clientState).toMatch(/^[\w-]{20,}$/);
    const row = await rowOf(account.id);
    expect(row.pushKey).toBe(sub!.id);
    expect(row.nextSyncAt!.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);

    const before = await cachedCount(account.id);
    const syncedBefore = (await rowOf(account.id)).lastSyncedAt!;
    await mailbox.addMessage({ from: 'Cy <cy@example.test>', subject: 'Train times', text: 'Which train?' });
    await until(async () => (await cachedCount(account.id)) > before, 15_000, 'the notified message');
    // That sync caches the message before it ends; the renewal below must not ride on it (it read
    // the account before the expiry is moved), so it is waited out.
    await until(
      async () => (await rowOf(account.id)).lastSyncedAt!.getTime() > syncedBefore.getTime(),
      15_000,
      'the notified sync to end',
    );
    expect(h.graph.notifications.find((n) => n.subscriptionId === sub!.id)?.status).toBe(202);

    // A notification naming the subscription with another client state is ignored (still 202).
    const asked = (await rowOf(account.id)).syncRequest;
    const forged = await post('/api/push/microsoft', {
      value: [{ subscriptionId: sub!.id, clientState: 'guessed', changeType: 'created' }],
    });
    expect(forged.status).toBe(202);
    expect((await rowOf(account.id)).syncRequest).toBe(asked);

    // Renewed when it is about to end: the same subscription, extended.
    await h.svc.deps.db
      .update(integrations)
      .set({ pushExpiresAt: new Date(Date.now() + HOUR) })
      .where(eq(integrations.id, account.id));
    await h.syncNow(account.id);
    expect(h.graph.state.calls).toContain(`PATCH /subscriptions/${sub!.id}`);
    expect((await rowOf(account.id)).pushExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 2 * 24 * HOUR);

    // Graph removes it (and says so): the sync that notice asks for subscribes anew.
    h.graph.removeSubscriptions(address);
    await until(
      async () => [...h.graph.subscriptions.values()].some((s) => s.account === address && s.id !== sub!.id),
      15_000,
      'a new subscription',
    );
    const renewed = [...h.graph.subscriptions.values()].find((s) => s.account === address)!;
    await until(async () => (await rowOf(account.id)).pushKey === renewed.id, 5_000, 'the new key kept');

    // Disconnecting deletes the subscription at Graph.
    expect((await me.delete(`/api/integrations/${account.id}`)).status).toBe(200);
    expect([...h.graph.subscriptions.values()].some((s) => s.account === address)).toBe(false);
  });

  it('subscribes a Microsoft calendar to its events: a new invitation syncs at once', async () => {
    const address = 'calendar-push@outlook.example';
    h.graph.state.consentAs = address;
    const calendar = h.graph.account(address);
    const me = h.as();
    const account = await h.connectedTo(me, 'microsoft', 'calendar');
    const sub = [...h.graph.subscriptions.values()].find((s) => s.account === address);
    expect(sub).toMatchObject({ resource: 'me/events', changeType: 'created,updated,deleted' });
    const since = (await rowOf(account.id)).lastSyncedAt!;
    const start = new Date(Date.now() + 2 * 24 * HOUR);
    calendar.addEvent({
      subject: 'Planning',
      start: { dateTime: start.toISOString().slice(0, 19), timeZone: 'UTC' },
      end: { dateTime: new Date(start.getTime() + HOUR).toISOString().slice(0, 19), timeZone: 'UTC' },
      organizer: { emailAddress: { name: 'Cy', address: 'cy@example.test' } },
      attendees: [{ type: 'required', status: { response: 'none' }, emailAddress: { name: 'Me', address } }],
      responseStatus: { response: 'notResponded' },
      isOrganizer: false,
    });
    // No round is run: Graph's notification alone has the calendar synced.
    await h.synced(account.id, since);
    const listed = await me.get('/api/assist/calendar');
    expect(JSON.stringify(listed.body.events)).toContain('Planning');
  });

  it("answers Graph's validation of the address with its token, as text, through the gateway", async () => {
    const token = 'Validation: Testing client application reachability for subscription Request-Id: 1';
    const res = await fetch(`${front.url}/api/push/microsoft?validationToken=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(token);
    // A body that is not JSON is still refused there, as everywhere.
    const form = await fetch(`${front.url}/api/push/microsoft`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'value=1',
    });
    expect(form.status).toBe(415);
  });
});
