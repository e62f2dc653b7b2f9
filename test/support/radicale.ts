/**
 * A real CalDAV server for the tests: Debian's Radicale (`apt-get install radicale`; `.ci/run` installs
 * it), started on a free local port with its collections in a temporary folder and one account per
 * `users` entry with a password, each given a calendar ("Personal") as a provider would have made.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@haven/kit/net';
import { startDaemon } from './daemon';

export const RADICALE = '/usr/bin/radicale';

/** Whether this machine has Radicale (the tests that need it say so when it is missing). */
export const hasRadicale = (): boolean => existsSync(RADICALE);

export interface Radicale {
  /** The server's address, as a person would give it. */
  url: string;
  /** Each user's calendar. */
  calendarOf(user: string): string;
  stop(): Promise<void>;
}

export async function startRadicale(users: Record<string, string>): Promise<Radicale> {
  const dir = mkdtempSync(path.join(tmpdir(), 'haven-radicale-'));
  const port = await freePort();
  writeFileSync(
    path.join(dir, 'users'),
    Object.entries(users)
      .map(([user, password]) => `${user}:${password}\n`)
      .join(''),
  );
  const daemon = await startDaemon(
    'Radicale',
    RADICALE,
    [
      '--server-hosts', `127.0.0.1:${port}`,
      '--storage-filesystem-folder', path.join(dir, 'collections'),
      '--auth-type', 'htpasswd',
      '--auth-htpasswd-filename', path.join(dir, 'users'),
      '--auth-htpasswd-encryption', 'plain',
      '--logging-level', 'warning',
    ],
    port,
  ); // prettier-ignore
  const url = `http://127.0.0.1:${port}/`;
  const calendarOf = (user: string) => `${url}${encodeURIComponent(user)}/personal/`;
  for (const [user, password] of Object.entries(users)) {
    const made = await fetch(calendarOf(user), {
      method: 'MKCALENDAR',
      headers: {
        authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
        'content-type': 'application/xml',
      },
      body:
        '<?xml version="1.0"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">' +
        '<D:set><D:prop><D:displayname>Personal</D:displayname></D:prop></D:set></C:mkcalendar>',
    });
    if (made.status !== 201) throw new Error(`Radicale made no calendar for ${user}: ${made.status}`);
  }
  return {
    url,
    calendarOf,
    async stop() {
      await daemon.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
