import { SESSION_COOKIE } from '@haven/contracts/routes';
import { startTestService } from '@haven/kit/testing';
import { startTestGateway } from '@haven/gateway/testing';
import { startSmtpCatcher } from '../../../test/doubles/smtp-catcher';
import { DEVICE_COOKIE } from '../src/domain/login-throttle';
import { authService } from '../src/service';

export const APP_URL = 'http://haven.test';

/** The auth service behind a real gateway, mailing to a local SMTP catcher. */
export async function startAuthStack() {
  const smtp = await startSmtpCatcher();
  const auth = await startTestService(authService, { SMTP_URL: smtp.url, APP_URL });
  // The test plays the proxy in front of the gateway, so each client can come from its own address.
  const gateway = await startTestGateway(
    { ...auth.config, TRUST_PROXY: 'loopback' },
    { auth: auth.url },
    auth.url,
  );

  /**
   * A browser-like client from `address` (by default a new one per client, as people differ): keeps the session cookie between calls, and the login
   * device cookie for the login route.
   */
  let clients = 0;
  function client(address = `10.0.${Math.floor(clients / 250)}.${(clients++ % 250) + 1}`) {
    let cookie = '';
    let device = '';
    const call = async (method: string, path: string, body?: unknown, raw?: string) => {
      const cookies = [cookie, path === '/api/login' ? device : ''].filter(Boolean).join('; ');
      const res = await fetch(gateway.url + path, {
        method,
        redirect: 'manual',
        headers: {
          'x-forwarded-for': address,
          ...(cookies ? { cookie: cookies } : {}),
          ...(body !== undefined || raw ? { 'content-type': 'application/json' } : {}),
        },
        body: raw ?? (body !== undefined ? JSON.stringify(body) : undefined),
      });
      const set = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
      if (set) cookie = set.split(';')[0]!.endsWith('=') ? '' : set.split(';')[0]!;
      const setDevice = res.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
      if (setDevice) device = setDevice.split(';')[0]!;
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
      /** The device cookie, which a test may copy to another client (the same browser elsewhere). */
      get device() {
        return device;
      },
      set device(value: string) {
        device = value;
      },
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
