/**
 * Trying a CalDAV account before it is saved (tsdav): the calendars are found from the address a
 * person gives (the server's, or its `/.well-known/caldav`), and those that hold events are listed.
 * What goes wrong is said as for mail servers (see ../../mail/servers/check.ts).
 */
import { createDAVClient } from 'tsdav';
import type { ServerCheck } from '@haven/contracts/mail-servers';

export interface CalDavLogin {
  /** The server's address, e.g. https://caldav.fastmail.com/ (discovery finds the calendars). */
  url: string;
  user: string;
  password: string;
}

/** A CalDAV account that signed in, with the calendars that hold events. */
export interface CalDavCheck extends ServerCheck {
  calendars?: Array<{ url: string; name: string }>;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** The network error under fetch's "fetch failed", or the error itself. */
const causeOf = (err: unknown): { code?: string; message?: string; name?: string } => {
  const e = err as { cause?: unknown; code?: string; message?: string; name?: string };
  return (e.cause as typeof e | undefined)?.code ? (e.cause as typeof e) : e;
};

function describe(err: unknown, login: CalDavLogin, timeoutMs: number): CalDavCheck {
  const { host } = new URL(login.url);
  const e = causeOf(err);
  const code = e.code ?? '';
  const message = e.message ?? '';
  const fail = (problem: NonNullable<ServerCheck['problem']>, text: string): CalDavCheck => ({
    ok: false,
    problem,
    message: text,
  });
  if (/\b401\b|Unauthorized|Invalid credentials/i.test(message))
    return fail(
      'wrong-password',
      'The server refused the user name or password. iCloud, Fastmail and Yahoo want an app password here, not the account’s own.',
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return fail('host-not-found', `No server answers to the name ${host}: check the address.`);
  if (code === 'ECONNREFUSED') return fail('refused', `${host} refuses connections: check the address.`);
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return fail('certificate', `The certificate ${host} presents is not trusted: check the address.`);
  if (/^ERR_SSL|EPROTO/.test(code))
    return fail('tls-refused', `${host} did not accept HTTPS: check the address.`);
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return fail(
      'no-answer',
      `No answer from ${host} within ${Math.round(timeoutMs / 1000)} s: check the address.`,
    );
  return fail('server-error', `${host} is not a CalDAV server, or did not say where the calendars are.`);
}

export async function checkCalDav(
  login: CalDavLogin,
  options: { timeoutMs?: number } = {},
): Promise<CalDavCheck> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    const client = await createDAVClient({
      serverUrl: login.url,
      credentials: { username: login.user, password: login.password },
      authMethod: 'Basic',
      defaultAccountType: 'caldav',
      fetchOptions: { signal: AbortSignal.timeout(timeoutMs) },
    });
    const calendars = (await client.fetchCalendars()).filter(
      (c) => !c.components || c.components.includes('VEVENT'),
    );
    return {
      ok: true,
      message: `Signed in to ${new URL(login.url).host}.`,
      calendars: calendars.map((c) => ({
        url: c.url,
        name: typeof c.displayName === 'string' && c.displayName ? c.displayName : c.url,
      })),
    };
  } catch (err) {
    return describe(err, login, timeoutMs);
  }
}
