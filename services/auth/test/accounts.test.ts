import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { deriveKey } from '@haven/kit/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, linkFrom } from '../../../test/doubles/smtp-catcher';
import { outgoingMail, passwordResets, pendingVerifications, users } from '../src/db/schema';
import { until } from '@haven/kit/testing';
import { deliverMail, MAIL_CONTEXT } from '../src/domain/mail';
import { APP_URL, startAuthStack } from './harness';

let stack: Awaited<ReturnType<typeof startAuthStack>>;
let n = 0;
/** A fresh identity per test, so tests never collide. */
const someone = () => {
  n++;
  return {
    username: `user${n}x`,
    name: `Person ${n}`,
    email: `person${n}@example.com`,
    password: 'correct horse',
  };
};

beforeAll(async () => {
  stack = await startAuthStack();
});
afterAll(async () => stack?.stop());

/** Registers and verifies with the mailed code; returns the signed-in client. */
async function registered(who = someone()) {
  const c = stack.client();
  const since = Date.now();
  expect((await c.post('/api/request-verification', { ...who, isEmailVerified: false })).status).toBe(200);
  const mail = await stack.smtp.waitFor(who.email, { since });
  const verified = await c.post('/api/verify-email', { email: who.email, code: codeFrom(mail) });
  expect(verified.status).toBe(200);
  return { who, c };
}

describe('registration with an e-mailed code', () => {
  it('mails a code, and the code creates the account and signs the user in', async () => {
    const who = someone();
    const c = stack.client();
    const since = Date.now();
    const requested = await c.post('/api/request-verification', { ...who, isEmailVerified: false });
    expect(requested).toMatchObject({
      status: 200,
      body: { message: 'Verification code sent. Please check your email.' },
    });
    // The account does not exist before verification: login fails like a wrong password.
    expect((await c.post('/api/login', { email: who.email, password: who.password })).status).toBe(401);

    const mail = await stack.smtp.waitFor(who.email, { since });
    expect(mail.subject).toMatch(/^Your Haven verification code: \d{6}$/);
    expect(linkFrom(mail, '/api/verify-email?token=')).toMatch(
      new RegExp(`^${APP_URL}/api/verify-email\\?token=`),
    );

    const verified = await c.post('/api/verify-email', { email: who.email, code: codeFrom(mail) });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      user: { username: who.username, email: who.email, isEmailVerified: true },
    });
    expect(verified.setCookie).toMatch(/HttpOnly/i);
    expect(verified.setCookie).toMatch(/SameSite=Lax/i);
    const me = await c.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: expect.any(Number),
      username: who.username,
      name: who.name,
      email: who.email,
      isEmailVerified: true,
    });
    expect(JSON.stringify(me.body)).not.toMatch(/password/i);
  });

  it('stores the password as argon2id and the code only hashed; sent mail is cleared', async () => {
    const who = someone();
    const c = stack.client();
    const since = Date.now();
    await c.post('/api/request-verification', { ...who, isEmailVerified: false });
    const mail = await stack.smtp.waitFor(who.email, { since });
    const [pending] = await stack.auth.deps.db
      .select()
      .from(pendingVerifications)
      .where(eq(pendingVerifications.email, who.email));
    expect(pending!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(pending!.codeHash).not.toContain(codeFrom(mail));
    // Keyed with a key derived for codes alone, not with the cookie-signing secret itself.
    const code = codeFrom(mail);
    const withCookieKey = createHmac('sha256', stack.auth.config.JWT_SECRET!)
      .update(`verification:${who.email}:${code}`)
      .digest('hex');
    expect(pending!.codeHash).not.toBe(withCookieKey);
    expect(pending!.codeHash).toBe(
      createHmac('sha256', deriveKey(stack.auth.config.JWT_SECRET!, 'verification-code'))
        .update(`verification:${who.email}:${code}`)
        .digest('hex'),
    );
    const sent = await stack.auth.deps.db
      .select()
      .from(outgoingMail)
      .where(sql`${outgoingMail.sentAt} is not null`);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((m) => m.messageEnc === null)).toBe(true);
  });

  it('answers a taken e-mail as a new one and tells its owner, at most once an hour', async () => {
    const { who } = await registered();
    const c = stack.client();
    const since = Date.now();
    const attempt = { ...someone(), email: who.email, isEmailVerified: false };
    const answer = await c.post('/api/request-verification', attempt);
    const fresh = await c.post('/api/request-verification', { ...someone(), isEmailVerified: false });
    expect(answer).toMatchObject({ status: 200, body: fresh.body });
    expect(answer.body).toEqual({ message: 'Verification code sent. Please check your email.' });
    const notice = await stack.smtp.waitFor(who.email, {
      since,
      subject: /Someone tried to register with your e-mail/,
    });
    expect(notice.text).toContain(`${APP_URL}/reset-password`);
    // Asked again at once: the same answer, and no second notice.
    const db = stack.auth.deps.db;
    const toOwner = () => stack.smtp.messages.filter((m) => m.to.includes(who.email)).length;
    const mailed = toOwner();
    expect(await c.post('/api/register', attempt)).toMatchObject({ status: 200, body: answer.body });
    await until(
      async () => (await db.select().from(outgoingMail)).every((m) => m.sentAt !== null),
      5000,
      'mail queue drained',
    );
    expect(toOwner()).toBe(mailed);
    // Nothing pending was stored for the taken address.
    expect(
      await db.select().from(pendingVerifications).where(eq(pendingVerifications.email, who.email)),
    ).toEqual([]);
  });

  it('refuses a taken username (any case) with 409 and a clear message', async () => {
    const { who } = await registered();
    const c = stack.client();
    expect(
      await c.post('/api/request-verification', { ...someone(), username: who.username.toUpperCase() }),
    ).toMatchObject({
      status: 409,
      body: { message: 'This username is already taken' },
    });
    // A username held by someone else's pending registration is taken too.
    const pendingOne = someone();
    await c.post('/api/register', { ...pendingOne, isEmailVerified: false });
    expect(
      (await c.post('/api/request-verification', { ...someone(), username: pendingOne.username })).status,
    ).toBe(409);
  });

  it('locks after five wrong codes until a resend, which mails a code that works', async () => {
    const who = someone();
    const c = stack.client();
    const since = Date.now();
    await c.post('/api/request-verification', { ...who, isEmailVerified: false });
    const first = codeFrom(await stack.smtp.waitFor(who.email, { since }));
    const wrong = first === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect(await c.post('/api/verify-email', { email: who.email, code: wrong })).toMatchObject({
        status: 400,
        body: { message: 'Verification failed. Please check your code and try again.' },
      });
    }
    expect(await c.post('/api/verify-email', { email: who.email, code: first })).toMatchObject({
      status: 400,
      body: { message: 'Too many incorrect codes. Please request a new code.' },
    });
    const resentAt = Date.now();
    expect((await c.post('/api/resend-verification', { email: who.email })).status).toBe(200);
    const second = codeFrom(await stack.smtp.waitFor(who.email, { since: resentAt }));
    expect((await c.post('/api/verify-email', { email: who.email, code: second })).status).toBe(200);
  });

  it('says an expired code has expired', async () => {
    const who = someone();
    const c = stack.client();
    const since = Date.now();
    await c.post('/api/request-verification', { ...who, isEmailVerified: false });
    const code = codeFrom(await stack.smtp.waitFor(who.email, { since }));
    await stack.auth.deps.db
      .update(pendingVerifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(pendingVerifications.email, who.email));
    expect(await c.post('/api/verify-email', { email: who.email, code })).toMatchObject({
      status: 400,
      body: { message: 'This verification code has expired. Please request a new one.' },
    });
  });

  it('verifies through the e-mailed link, which redirects to the landing page and works once', async () => {
    const who = someone();
    const c = stack.client();
    const since = Date.now();
    await c.post('/api/request-verification', { ...who, isEmailVerified: false });
    const link = new URL(linkFrom(await stack.smtp.waitFor(who.email, { since }), '/api/verify-email'));
    const first = await c.get(link.pathname + link.search);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(`${APP_URL}/verify-email?success=true`);
    expect((await c.post('/api/login', { email: who.email, password: who.password })).status).toBe(200);
    const again = await c.get(link.pathname + link.search);
    expect(again.headers.get('location')).toBe(`${APP_URL}/verify-email?error=true&reason=invalid_token`);
    expect((await c.get('/api/verify-email')).headers.get('location')).toBe(
      `${APP_URL}/verify-email?error=true&reason=invalid_token`,
    );
  });

  it('limits link tokens per token and per address, so bogus links never block a genuine one', async () => {
    const who = someone();
    const c = stack.client('192.0.2.30');
    const since = Date.now();
    await c.post('/api/request-verification', { ...who, isEmailVerified: false });
    const link = new URL(linkFrom(await stack.smtp.waitFor(who.email, { since }), '/api/verify-email'));
    // Fifteen bogus tokens from fifteen addresses, then one bogus token tried over and over.
    for (let i = 0; i < 15; i++) {
      const res = await stack.client(`198.51.100.${100 + i}`).get(`/api/verify-email?token=bogus${i}`);
      expect(res.headers.get('location')).toBe(`${APP_URL}/verify-email?error=true&reason=invalid_token`);
    }
    const hammer = stack.client('198.51.100.200');
    for (let i = 0; i < 5; i++) await hammer.get('/api/verify-email?token=same-bogus');
    const limited = await hammer.get('/api/verify-email?token=same-bogus');
    // The browser still lands on the SPA's page, with the reason, never on a JSON 429.
    expect(limited.status).toBe(302);
    expect(limited.headers.get('location')).toBe(`${APP_URL}/verify-email?error=true&reason=rate_limited`);
    const posted = await hammer.post('/api/verify-email', { token: 'same-bogus' });
    expect(posted.status).toBe(429);
    // The genuine link still works.
    const genuine = await c.get(link.pathname + link.search);
    expect(genuine.headers.get('location')).toBe(`${APP_URL}/verify-email?success=true`);
  });

  it('answers bad input with 400 naming the field, and writes nothing', async () => {
    const c = stack.client();
    const before = await stack.auth.deps.db.select().from(pendingVerifications);
    const malformed = await c.raw('/api/request-verification', '{"email": ');
    expect(malformed).toMatchObject({ status: 400, body: { message: 'Malformed JSON body' } });
    const invalid = await c.post('/api/request-verification', {
      username: 'ab',
      email: 'not-an-email',
      password: '123',
    });
    expect(invalid.status).toBe(400);
    const problems = (invalid.body.issues as Array<{ path: string[]; message: string }>).map(
      (i) => `${i.path.join('.')}: ${i.message}`,
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'username: Username must be at least 3 characters',
        'email: Please enter a valid email address',
        'password: Password must be at least 6 characters',
      ]),
    );
    expect(invalid.body.message).toBe('Invalid body: username: Username must be at least 3 characters');
    const missing = await c.post('/api/request-verification', { email: 'a@example.com', password: '123456' });
    expect(missing.status).toBe(400);
    expect((missing.body.issues as Array<{ path: string[] }>)[0]?.path).toEqual(['username']);
    const shortCode = await c.post('/api/verify-email', { email: 'a@example.com', code: '12345' });
    expect(shortCode.status).toBe(400);
    expect(await stack.auth.deps.db.select().from(pendingVerifications)).toHaveLength(before.length);
  });
});

describe('login and logout', () => {
  it('signs in with the right password; the same 401 for a wrong one, an unknown e-mail or an unverified one', async () => {
    const { who } = await registered();
    const c = stack.client();
    const ok = await c.post('/api/login', { email: who.email.toUpperCase(), password: who.password });
    expect(ok).toMatchObject({ status: 200, body: { email: who.email } });
    expect((await c.get('/api/user')).status).toBe(200);

    const unverified = someone();
    await c.post('/api/request-verification', { ...unverified, isEmailVerified: false });
    for (const attempt of [
      { email: who.email, password: 'wrong password' },
      { email: 'nobody@example.com', password: who.password },
      { email: unverified.email, password: unverified.password },
    ]) {
      expect(await stack.client().post('/api/login', attempt)).toMatchObject({
        status: 401,
        body: { message: 'Invalid email or password' },
      });
    }
  });

  it('logout revokes the session: the old cookie no longer works', async () => {
    const { c } = await registered();
    const cookie = c.cookie;
    expect((await c.get('/api/user')).status).toBe(200);
    const out = await c.post('/api/logout');
    expect(out.status).toBe(200);
    expect(out.setCookie).toMatch(/haven_session=;/);
    const replay = stack.client();
    replay.cookie = cookie;
    expect((await replay.get('/api/user')).status).toBe(401);
  });

  it('answers /api/session with 200 for everyone: the user, or null for a visitor or a revoked session', async () => {
    expect(await stack.client().get('/api/session')).toMatchObject({ status: 200, body: { user: null } });
    const { who, c } = await registered();
    expect(await c.get('/api/session')).toMatchObject({
      status: 200,
      body: { user: { username: who.username, email: who.email, isEmailVerified: true } },
    });
    const cookie = c.cookie;
    await c.post('/api/logout');
    const replay = stack.client();
    replay.cookie = cookie;
    expect(await replay.get('/api/session')).toMatchObject({ status: 200, body: { user: null } });
  });

  it('stops a wrong-password streak from one address, and lets the owner in from another', async () => {
    const { who } = await registered();
    const guesser = stack.client('198.51.100.7');
    for (let i = 0; i < 5; i++)
      expect((await guesser.post('/api/login', { email: who.email, password: 'nope nope' })).status).toBe(
        401,
      );
    const limited = await guesser.post('/api/login', { email: who.email, password: who.password });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The guesser's address is slowed for this account only, and the owner elsewhere is not at all.
    expect((await stack.client('198.51.100.8').post('/api/login', who)).status).toBe(200);
    const other = await registered();
    expect((await guesser.post('/api/login', other.who)).status).toBe(200);
  });

  it('counts only failures from an address: sign-ins behind one proxy never stop each other, guessing over many accounts does', async () => {
    const first = await registered();
    const second = await registered();
    const proxy = stack.client('198.51.100.40');
    for (let i = 0; i < 32; i++) expect((await proxy.post('/api/login', first.who)).status).toBe(200);
    expect((await proxy.post('/api/login', second.who)).status).toBe(200);
    // Thirty wrong passwords from one address, one per account (under every account's own limits).
    const guesser = stack.client('198.51.100.41');
    for (let i = 0; i < 30; i++)
      expect(
        (await guesser.post('/api/login', { email: `nobody${i}@example.com`, password: 'a guess' })).status,
      ).toBe(401);
    expect((await guesser.post('/api/login', second.who)).status).toBe(429);
    expect((await proxy.post('/api/login', second.who)).status).toBe(200);
    // What the limits count is named by a digest: no e-mail address is a Redis key.
    const keys = await stack.auth.deps.redis.keys(`${stack.auth.config.REDIS_PREFIX}:rl:*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((key) => key.includes('@') || key.includes('198.51.100'))).toEqual([]);
  });

  it('slows a guesser spread over many addresses, but not the owner on a device they signed in from', async () => {
    const { who } = await registered();
    const owner = stack.client('192.0.2.10');
    expect((await owner.post('/api/login', who)).status).toBe(200);
    expect(owner.device).toMatch(/^haven_device=/);
    // Twenty wrong passwords from four addresses, each under its own limit.
    for (let a = 0; a < 4; a++) {
      const guesser = stack.client(`198.51.100.${20 + a}`);
      for (let i = 0; i < 5; i++)
        expect(
          (await guesser.post('/api/login', { email: who.email, password: `guess ${a}.${i}` })).status,
        ).toBe(401);
    }
    // Past the account's ceiling every new address must wait, even with the right password...
    const fresh = await stack.client('198.51.100.99').post('/api/login', who);
    expect(fresh.status).toBe(429);
    expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThan(0);
    // ...while the owner's browser (its device cookie), from wherever it is now, gets in.
    const travelling = stack.client('203.0.113.50');
    travelling.device = owner.device;
    expect((await travelling.post('/api/login', who)).status).toBe(200);
    // A device cookie for another account proves nothing for this one.
    const other = await registered();
    const otherDevice = stack.client('203.0.113.51');
    expect((await otherDevice.post('/api/login', other.who)).status).toBe(200);
    expect(otherDevice.device).toMatch(/^haven_device=/);
    expect((await otherDevice.post('/api/login', who)).status).toBe(429);
  });
});

describe('password reset', () => {
  it('answers neutrally and mails only registered addresses', async () => {
    const { who } = await registered();
    const c = stack.client();
    const since = Date.now();
    const neutral = {
      status: 200,
      body: { message: 'If your email is registered, you will receive a password reset link.' },
    };
    expect(await c.post('/api/forgot-password', { email: 'stranger@example.com' })).toMatchObject(neutral);
    expect(await c.post('/api/forgot-password', { email: who.email })).toMatchObject(neutral);
    // The worker has delivered the later request's mail, so the earlier one would be there too.
    await stack.smtp.waitFor(who.email, { since, subject: /Reset your Haven password/ });
    expect(stack.smtp.messages.filter((m) => m.to.includes('stranger@example.com'))).toHaveLength(0);
  });

  it('resets with the mailed link once, revokes existing sessions, and the new password works', async () => {
    const { who, c: oldSession } = await registered();
    const since = Date.now();
    const c = stack.client();
    expect((await c.post('/api/forgot-password', { email: who.email })).status).toBe(200);
    const mail = await stack.smtp.waitFor(who.email, { since, subject: /Reset your Haven password/ });
    const token = new URL(linkFrom(mail, '/reset-password?token=')).searchParams.get('token')!;

    const done = await c.post('/api/reset-password', { token, password: 'brand new secret' });
    expect(done).toMatchObject({
      status: 200,
      body: { message: 'Your password has been reset. You can now log in with your new password.' },
    });
    expect((await oldSession.get('/api/user')).status).toBe(401);
    expect(await c.post('/api/reset-password', { token, password: 'another one' })).toMatchObject({
      status: 400,
      body: { message: 'This password reset link is invalid or has already been used.' },
    });
    expect((await c.post('/api/login', { email: who.email, password: who.password })).status).toBe(401);
    expect((await c.post('/api/login', { email: who.email, password: 'brand new secret' })).status).toBe(200);
  });

  it('refuses an expired reset link', async () => {
    const { who } = await registered();
    const since = Date.now();
    const c = stack.client();
    await c.post('/api/forgot-password', { email: who.email });
    const mail = await stack.smtp.waitFor(who.email, { since, subject: /Reset/ });
    const token = new URL(linkFrom(mail, '/reset-password?token=')).searchParams.get('token')!;
    const [user] = await stack.auth.deps.db.select().from(users).where(eq(users.email, who.email));
    await stack.auth.deps.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, user!.id));
    expect(await c.post('/api/reset-password', { token, password: 'whatever123' })).toMatchObject({
      status: 400,
      body: { message: 'This password reset link has expired. Please request a new one.' },
    });
  });
});

describe('the mail worker', () => {
  it('sends a stored message once, however often its job runs', async () => {
    const who = someone();
    const sent: string[] = [];
    const { db, cipher, log } = stack.auth.deps;
    const deliver = (mailId: string) =>
      deliverMail({ db, cipher, log }, async (id) => void sent.push(id), mailId);
    const since = Date.now();
    await stack.client().post('/api/request-verification', { ...who, isEmailVerified: false });
    await stack.smtp.waitFor(who.email, { since });
    const [row] = await stack.auth.deps.db
      .select()
      .from(outgoingMail)
      .orderBy(sql`${outgoingMail.createdAt} desc`)
      .limit(1);
    // Delivered once by the service's own worker: running the job again sends nothing.
    await until(
      async () =>
        (await db.select().from(outgoingMail).where(eq(outgoingMail.id, row!.id)))[0]!.sentAt !== null,
    );
    await deliver(row!.id);
    await deliver('no-such-mail');
    expect(sent).toEqual([]);
  });

  it('sends mail whose job was lost (Redis restarted empty) once it is two minutes overdue', async () => {
    const { db, cipher } = stack.auth.deps;
    const message = (to: string) =>
      cipher.encrypt(
        JSON.stringify({ to, subject: 'Lost job', text: 'hello', html: '<p>hello</p>' }),
        MAIL_CONTEXT,
      );
    // Two mails stored without any job: one queued three minutes ago, one just now.
    await db.insert(outgoingMail).values([
      {
        id: 'lost-old',
        kind: 'test',
        messageEnc: message('lost@example.com'),
        createdAt: sql`now() - interval '3 minutes'`,
      },
      { id: 'lost-new', kind: 'test', messageEnc: message('recent@example.com') },
    ]);
    const since = Date.now();
    expect(await stack.auth.reconcilers!.runOnce()).toBe(1);
    await stack.smtp.waitFor('lost@example.com', { since, subject: /Lost job/ });
    await until(
      async () =>
        (await db.select().from(outgoingMail).where(eq(outgoingMail.id, 'lost-old')))[0]!.sentAt !== null,
    );
    // Sent now, so the next round leaves it alone; the recent one is not overdue yet.
    expect(await stack.auth.reconcilers!.runOnce()).toBe(0);
    expect(stack.smtp.messages.filter((m) => m.to.includes('recent@example.com'))).toHaveLength(0);
    await db.delete(outgoingMail).where(eq(outgoingMail.id, 'lost-new'));
  });
});

describe('preferences', () => {
  it('starts all true, changes one flag, and refuses an empty or unknown change', async () => {
    const { c } = await registered();
    expect((await c.get('/api/user-preferences')).body).toMatchObject({
      askBeforeCalendarEvents: true,
      askBeforeEmails: true,
      includeThoughtContent: true,
    });
    const patch = (body: unknown) =>
      fetch(stack.gateway.url + '/api/user-preferences', {
        method: 'PATCH',
        headers: { cookie: c.cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const changed = await patch({ includeThoughtContent: false });
    expect(await changed.json()).toMatchObject({ includeThoughtContent: false, askBeforeEmails: true });
    expect((await patch({})).status).toBe(400);
    expect((await patch({ darkMode: true })).status).toBe(400);
    expect((await c.get('/api/user-preferences')).body).toMatchObject({ includeThoughtContent: false });
  });
});
