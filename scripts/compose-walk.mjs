// Walks new users through a running compose stack at once (WALK_USERS, default 6), as the SPA would,
// through the gateway only: sign-up with the code read from MailDev, a thought, the day's insight
// citing it, exactly one assistant reply, and an export downloaded as a zip. Exits non-zero at the
// first step that fails.
//   node scripts/compose-walk.mjs   (env HAVEN_URL, default http://127.0.0.1:8080; MAILDEV_URL, default http://127.0.0.1:1080)
// Needs Node 20 and nothing else: scripts/ci-compose.sh runs it from .ci/run.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

const base = (process.env.HAVEN_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const maildev = (process.env.MAILDEV_URL ?? 'http://127.0.0.1:1080').replace(/\/$/, '');
const started = Date.now();
/** Each walker's own cookie jar and name, so the users walk at once without sharing a session. */
const walker = new AsyncLocalStorage();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const secs = (since = started) => ((Date.now() - since) / 1000).toFixed(1);
const step = (what) =>
  console.log(
    `[walk ${secs().padStart(5)}s]${walker.getStore() ? ` user ${walker.getStore().n}:` : ''} ${what}`,
  );

class WalkError extends Error {}
function fail(message) {
  throw new WalkError(message);
}

/** One request through the gateway, with the session cookie once there is one. */
async function api(method, path, body) {
  const { cookies } = walker.getStore();
  const headers = { accept: 'application/json' };
  if (cookies.size) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
    redirect: 'manual',
  });
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  const type = res.headers.get('content-type') ?? '';
  const data = type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer());
  return { status: res.status, data, type };
}

/** The call must answer one of `statuses`; the body otherwise goes into the error. */
async function expectStatus(statuses, method, path, body) {
  const res = await api(method, path, body);
  if (!statuses.includes(res.status)) {
    const shown = Buffer.isBuffer(res.data) ? res.data.toString('utf8', 0, 300) : JSON.stringify(res.data);
    fail(`${method} ${path}: expected ${statuses.join(' or ')}, got ${res.status} ${shown}`);
  }
  return res;
}

/** Polls `probe` until it returns a value other than undefined, or fails after `seconds`. */
async function until(what, seconds, probe, everyMs = 1000) {
  const deadline = Date.now() + seconds * 1000;
  let last;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      if (error instanceof WalkError) throw error;
      last = error; // not answering yet: try again
    }
    if (Date.now() > deadline) fail(`${what}: nothing after ${seconds} s${last ? ` (${last.message})` : ''}`);
    await sleep(everyMs);
  }
}

async function main() {
  console.log(`walking ${base} (mail from ${maildev})`);
  const ready = await until('gateway /readyz', 60, async () => {
    const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5000) });
    return res.ok ? res.json() : undefined;
  });
  step(`gateway ready: ${JSON.stringify(ready.checks ?? ready)}`);
  const users = Number(process.env.WALK_USERS ?? 6);
  await Promise.all(
    Array.from({ length: users }, (_, i) => walker.run({ n: i + 1, cookies: new Map() }, walkOne)),
  );
  console.log(`walk passed in ${secs()} s (${users} users at once)`);
}

async function walkOne() {
  const { cookies } = walker.getStore();
  // ---- sign-up: request a code, read it from MailDev, verify ----
  const tag = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const email = `walk-${tag}@example.test`;
  await expectStatus([200], 'POST', '/api/request-verification', {
    username: `walk_${tag}`,
    name: 'Compose Walk',
    email,
    password: `pw-${randomBytes(8).toString('hex')}`,
  });
  step(`sign-up requested for ${email}`);
  const code = await until('the verification mail in MailDev', 60, async () => {
    // MailDev 3's REST API lists the mail at /api/email (MailDev 2: /email).
    let res = await fetch(`${maildev}/api/email`, { signal: AbortSignal.timeout(5000) });
    if (res.status === 404) res = await fetch(`${maildev}/email`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) return undefined;
    const mails = await res.json();
    const mine = mails.filter((m) => (m.to ?? []).some((t) => t.address?.toLowerCase() === email));
    for (const mail of mine.reverse()) {
      const found = `${mail.subject ?? ''}\n${mail.text ?? ''}`.match(/\b(\d{6})\b/);
      if (found) return found[1];
    }
    return undefined;
  });
  step('code read from MailDev');
  const verified = await expectStatus([200], 'POST', '/api/verify-email', { email, code });
  if (!verified.data?.user?.id) fail(`verify-email answered no user: ${JSON.stringify(verified.data)}`);
  if (cookies.size === 0) fail('verify-email set no session cookie');
  const me = await expectStatus([200], 'GET', '/api/user');
  step(
    `signed in as user ${verified.data.user.id} (GET /api/user: ${me.data?.email ?? me.data?.user?.email ?? 'ok'})`,
  );

  // ---- a thought ----
  const thought = (
    await expectStatus([200, 201], 'POST', '/api/thoughts', {
      content:
        'Walked along the river this morning and felt calm. I should call Anna tomorrow about the trip to Lisbon.',
      clientDate: new Date().toISOString(),
      timezoneOffset: 0,
    })
  ).data;
  if (!thought?.id || !thought.localDate) fail(`POST /api/thoughts answered ${JSON.stringify(thought)}`);
  step(`thought ${thought.id} saved for ${thought.localDate}`);

  // ---- its insight, citing it ----
  const insightPath = `/api/insights/daily?date=${thought.localDate}&range=day`;
  const insight = await until('the day insight', 120, async () => {
    const res = await expectStatus([200, 202], 'GET', insightPath);
    return res.status === 200 ? res.data : undefined;
  });
  const cited = [
    ...(insight.summaryReferences ?? []),
    ...(insight.themes ?? []).flatMap((t) => t.references ?? []),
    ...(insight.suggestions ?? []).flatMap((s) => s.references ?? []),
  ].map(String);
  if (insight.status !== 'ready') fail(`insight is ${insight.status}: ${JSON.stringify(insight)}`);
  if (!cited.includes(String(thought.id)))
    fail(`the insight does not cite thought ${thought.id}: ${JSON.stringify(insight)}`);
  step(`insight ${insight.id} (${insight.engine}) is ready and cites thought ${thought.id}`);

  // ---- the assistant: store the question, ask (twice, as a double click would), one reply ----
  const conversation = (await expectStatus([201], 'POST', '/api/conversations', { title: 'Compose walk' }))
    .data;
  const question = 'What did I write about today?';
  const messagePath = `/api/conversations/${conversation.id}/messages`;
  await expectStatus([201], 'POST', messagePath, { content: question, type: 'user', timezoneOffset: 0 });
  const ask = { query: question, conversationId: conversation.id, timezoneOffset: 0 };
  await Promise.all([
    expectStatus([202], 'POST', '/api/assistant/query', ask),
    expectStatus([202], 'POST', '/api/assistant/query', ask),
  ]);
  step(`question asked in conversation ${conversation.id}`);
  const replies = async () =>
    (await expectStatus([200], 'GET', messagePath)).data.filter((m) => m.type === 'assistant');
  const first = await until('the assistant reply', 120, async () => {
    const found = await replies();
    return found.length > 0 ? found : undefined;
  });
  if (first.length !== 1) fail(`expected one assistant reply, got ${first.length}`);
  await sleep(Number(process.env.WALK_SETTLE_MS ?? 5000));
  const settled = await replies();
  if (settled.length !== 1) fail(`expected still one assistant reply, got ${settled.length}`);
  step(`exactly one assistant reply: "${settled[0].content.slice(0, 80).replace(/\s+/g, ' ')}…"`);

  // ---- an export, downloaded ----
  const { id: exportId } = (await expectStatus([202], 'POST', '/api/account/export')).data;
  const progress = await until('the export', 120, async () => {
    const res = await expectStatus([200], 'GET', `/api/account/export/${exportId}`);
    if (res.data.status === 'failed') fail(`export ${exportId} failed`);
    return res.data.status === 'ready' ? res.data : undefined;
  });
  step(`export ${exportId} ready (expires ${progress.expiresAt})`);
  const zip = await expectStatus([200], 'GET', `/api/account/export/${exportId}/download`);
  if (!Buffer.isBuffer(zip.data) || zip.data.subarray(0, 2).toString('latin1') !== 'PK')
    fail(`download is not a zip (${zip.type}, ${zip.data.length ?? 0} bytes)`);
  step(`export downloaded: ${zip.data.length} bytes of zip`);
}

main().catch((error) => {
  console.error(`walk FAILED after ${secs()} s: ${error instanceof WalkError ? error.message : error.stack}`);
  process.exit(1);
});
