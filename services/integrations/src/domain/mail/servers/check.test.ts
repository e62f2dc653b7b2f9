import { createServer, type Server } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDovecot, hasDovecot, type Dovecot } from '../../../../../../test/support/dovecot';
import { checkImap, checkSmtp, type ServerLogin } from './check';

const USER = 'ada@example.test';
const PASSWORD = 'app-password-0123';

/** A server that takes the connection and never says a word. */
async function silentServer(): Promise<{ port: number; server: Server }> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const { port, server } = await silentServer();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.runIf(hasDovecot())('trying an IMAP account against Dovecot', () => {
  let dovecot: Dovecot;
  beforeAll(async () => {
    dovecot = await startDovecot({ [USER]: PASSWORD }, { tls: true });
  });
  afterAll(async () => {
    await dovecot?.stop();
  });
  const login = (over: Partial<ServerLogin['server']> = {}, password = PASSWORD): ServerLogin => ({
    server: { host: dovecot.host, port: dovecot.port, security: 'none', ...over },
    user: USER,
    password,
  });

  it('signs in and finds the Sent and Drafts folders by SPECIAL-USE', async () => {
    expect(await checkImap(login())).toEqual({
      ok: true,
      message: 'Signed in to 127.0.0.1.',
      folders: { sent: 'Sent', drafts: 'Drafts' },
    });
  });

  it('over TLS, when the certificate is trusted (here: allowed), and says when it is not', async () => {
    const tls = login({ port: dovecot.tlsPort!, security: 'tls' });
    expect(await checkImap(tls, { allowUntrustedCertificate: true })).toMatchObject({ ok: true });
    expect(await checkImap(tls)).toMatchObject({
      ok: false,
      problem: 'certificate',
      message:
        'The certificate 127.0.0.1 presents is not trusted (depth zero self signed cert): check the server’s name.',
    });
  });

  it('says a wrong password is one, with the server’s words, never an error', async () => {
    const outcome = await checkImap(login({}, 'not-it'));
    expect(outcome).toMatchObject({
      ok: false,
      problem: 'wrong-password',
      message:
        'The server refused the user name or password. iCloud, Fastmail, Yahoo and Gmail want an app password here, not the account’s own.',
    });
    expect(outcome.serverSaid).toMatch(/Authentication failed/);
  });

  it('says TLS was refused when TLS is asked of a plain port', async () => {
    expect(await checkImap(login({ security: 'tls' }), { timeoutMs: 3000 })).toMatchObject({
      ok: false,
      problem: 'tls-refused',
    });
  });

  it('names a host that does not exist, a closed port and a server that never answers', async () => {
    expect(await checkImap(login({ host: 'no-such-host.invalid' }))).toMatchObject({
      ok: false,
      problem: 'host-not-found',
      message: 'No server answers to the name no-such-host.invalid: check its spelling.',
    });
    const closed = await closedPort();
    expect(await checkImap(login({ port: closed }))).toEqual({
      ok: false,
      problem: 'refused',
      message: `127.0.0.1 refuses connections on port ${closed}: check the port.`,
    });
    const silent = await silentServer();
    try {
      const started = Date.now();
      expect(await checkImap(login({ port: silent.port }), { timeoutMs: 800 })).toMatchObject({
        ok: false,
        problem: 'no-answer',
      });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      silent.server.close();
    }
  });
});

describe('trying an SMTP account', () => {
  let smtp: SMTPServer;
  let port: number;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, done) {
        if (auth.username === USER && auth.password === PASSWORD) return done(null, { user: USER });
        return done(new Error('5.7.8 Username and Password not accepted'));
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });
  const login = (password = PASSWORD, security: 'none' | 'starttls' | 'tls' = 'none'): ServerLogin => ({
    server: { host: '127.0.0.1', port, security },
    user: USER,
    password,
  });

  it('signs in, or says the password was refused with the server’s words', async () => {
    expect(await checkSmtp(login())).toEqual({ ok: true, message: 'Signed in to 127.0.0.1.' });
    const refused = await checkSmtp(login('not-it'));
    expect(refused).toMatchObject({ ok: false, problem: 'wrong-password' });
    expect(refused.serverSaid).toMatch(/Username and Password not accepted/);
  });

  it('says STARTTLS or TLS was refused by a server without them', async () => {
    expect(await checkSmtp(login(PASSWORD, 'starttls'), { timeoutMs: 3000 })).toMatchObject({
      ok: false,
      problem: 'tls-refused',
    });
    expect(await checkSmtp(login(PASSWORD, 'tls'), { timeoutMs: 3000 })).toMatchObject({
      ok: false,
      problem: 'tls-refused',
    });
  });
});
