import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRadicale, startRadicale, type Radicale } from '../../../../../../test/support/radicale';
import { checkCalDav } from './check';

const USER = 'ada@example.test';
const PASSWORD = 'cal-app-password';

describe.runIf(hasRadicale())('trying a CalDAV account against Radicale', () => {
  let radicale: Radicale;
  beforeAll(async () => {
    radicale = await startRadicale({ [USER]: PASSWORD });
  });
  afterAll(async () => {
    await radicale?.stop();
  });

  it('finds the calendars from the server’s address alone', async () => {
    const outcome = await checkCalDav({ url: radicale.url, user: USER, password: PASSWORD });
    expect(outcome).toMatchObject({ ok: true, message: `Signed in to ${new URL(radicale.url).host}.` });
    expect(outcome.calendars).toEqual([{ url: radicale.calendarOf(USER), name: 'Personal' }]);
  });

  it('says a wrong password is one', async () => {
    expect(await checkCalDav({ url: radicale.url, user: USER, password: 'not-it' })).toEqual({
      ok: false,
      problem: 'wrong-password',
      message:
        'The server refused the user name or password. iCloud, Fastmail and Yahoo want an app password here, not the account’s own.',
    });
  });

  it('names a host that does not exist, a closed port and a server that never answers', async () => {
    expect(
      await checkCalDav({ url: 'https://no-such-host.invalid/', user: USER, password: PASSWORD }),
    ).toEqual({
      ok: false,
      problem: 'host-not-found',
      message: 'No server answers to the name no-such-host.invalid: check the address.',
    });
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      expect(
        await checkCalDav(
          { url: `http://127.0.0.1:${port}/`, user: USER, password: PASSWORD },
          { timeoutMs: 800 },
        ),
      ).toMatchObject({ ok: false, problem: 'no-answer' });
    } finally {
      silent.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(
      await checkCalDav({ url: `http://127.0.0.1:${port}/`, user: USER, password: PASSWORD }),
    ).toMatchObject({
      ok: false,
      problem: 'refused',
    });
  });

  it('says a web server that is not CalDAV is not', async () => {
    const { createServer: http } = await import('node:http');
    const web = http((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Hello</h1>'),
    );
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const port = (web.address() as { port: number }).port;
    try {
      expect(await checkCalDav({ url: `http://127.0.0.1:${port}/`, user: USER, password: PASSWORD })).toEqual(
        {
          ok: false,
          problem: 'server-error',
          message: `127.0.0.1:${port} is not a CalDAV server, or did not say where the calendars are.`,
        },
      );
    } finally {
      web.close();
    }
  });
});
