import { SESSION_COOKIE } from '@haven/contracts/routes';
import { startTestService } from '@haven/kit/testing';
import { startTestGateway } from '@haven/gateway/testing';
import { startSmtpCatcher } from '../../../test/doubles/smtp-catcher';
import { authService } from '../src/service';

export const APP_URL = 'http://haven.test';

/** The auth service behind a real gateway, mailing to a local SMTP catcher. */
export async function startAuthStack() {
  const smtp = await startSmtpCatcher();
  const auth = await startTestService(authService, { SMTP_URL: smtp.url, APP_URL });
  const gateway = await startTestGateway(auth.config, { auth: auth.url }, auth.url);

  /** A browser-like client: keeps the session cookie between calls. */
  function client() {
    let cookie = '';
    const call = async (method: string, path: string, body?: unknown, raw?: string) => {
      const res = await fetch(gateway.url + path, {
        method,
        redirect: 'manual',
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(body !== undefined || raw ? { 'content-type': 'application/json' } : {}),
        },
        body: raw ?? (body !== undefined ? JSON.stringify(body) : undefined),
      });
      const set = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
      if (set) cookie = set.split(';')[0]!.endsWith('=') ? '' : set.split(';')[0]!;
      const text = await res.text();
      const json = res.headers.get('content-type')?.includes('application/json') && text;
      return {
        status: res.status,
        headers: res.headers,
        body: json ? (JSON.parse(text) as Record<string, unknown>) : {},
        setCookie: set,
      };
    };
    return {
      get: (path: string) => call('GET', path),
      post: (path: string, body?: unknown) => call('POST', path, body),
      raw: (path: string, raw: string) => call('POST', path, undefined, raw),
      get cookie() {
        return cookie;
      },
      set cookie(value: string) {
        cookie = value;
      },
    };
  }

  return {
    smtp,
    auth,
    gateway,
    client,
    async stop() {
      await gateway.close();
      await auth.stop();
      await smtp.stop();
    },
  };
}
