/**
 * `npm run screenshots [-- name ...]`: starts the whole product (PGlite, local SMTP catcher), signs a
 * user up through the real flow, and saves every screen at 390×844 in light and dark to
 * test-results/screens/, for a person to look at. Not a test.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { codeFrom, linkFrom, startSmtpCatcher } from '../test/doubles/smtp-catcher';
import { launchBrowser, phonePage, startProduct } from '../test/e2e/harness';

const out = path.join(import.meta.dirname, '..', 'test-results', 'screens');
mkdirSync(out, { recursive: true });

const smtp = await startSmtpCatcher();
const product = await startProduct({ SMTP_URL: smtp.url });
const browser = await launchBrowser();
const who = { username: 'maya', name: 'Maya', email: 'maya@example.com', password: 'secret-pass' };

// One account, made through the API the way the SPA makes it.
const api = (p: string, body: unknown, cookie = '') =>
  fetch(product.url + p, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
await api('/api/request-verification', { ...who, isEmailVerified: false });
const verified = await api('/api/verify-email', {
  email: who.email,
  code: codeFrom(await smtp.waitFor(who.email)),
});
const cookie = verified.headers.getSetCookie()[0]!.split(';')[0]!;
await api('/api/forgot-password', { email: who.email });
const resetLink = linkFrom(await smtp.waitFor(who.email, { subject: /Reset/ }), '/reset-password?token=');

type Shot = { name: string; path: string; signedIn?: boolean; then?: (page: Page) => Promise<void> };
const shots: Shot[] = [
  { name: 'welcome', path: '/welcome' },
  { name: 'auth-login', path: '/auth' },
  {
    name: 'auth-login-errors',
    path: '/auth',
    then: (p) => p.getByRole('button', { name: 'Log in', exact: true }).last().click(),
  },
  {
    name: 'auth-register',
    path: '/auth',
    then: (p) => p.getByRole('tab', { name: 'Create account' }).click(),
  },
  { name: 'verify-code', path: `/verify-code?email=${encodeURIComponent('new@example.com')}` },
  { name: 'verify-code-no-email', path: '/verify-code' },
  { name: 'verify-email-success', path: '/verify-email?success=true' },
  { name: 'verify-email-expired', path: '/verify-email?error=true&reason=expired_token' },
  { name: 'verify-email-no-token', path: '/verify-email' },
  { name: 'reset-request', path: '/reset-password' },
  { name: 'reset-new-password', path: new URL(resetLink).pathname + new URL(resetLink).search },
  { name: 'privacy-policy', path: '/privacy-policy' },
  { name: 'debug-date', path: '/debug/date' },
  { name: 'not-found', path: '/no/such/page' },
  { name: 'home', path: '/home', signedIn: true },
  { name: 'settings-privacy', path: '/settings', signedIn: true },
  {
    name: 'settings-notifications',
    path: '/settings',
    signedIn: true,
    then: (p) => p.getByRole('tab', { name: 'Notifications' }).click(),
  },
  {
    name: 'settings-display',
    path: '/settings',
    signedIn: true,
    then: (p) => p.getByRole('tab', { name: 'Display' }).click(),
  },
];
const only = process.argv.slice(2);

for (const scheme of ['light', 'dark'] as const) {
  for (const shot of shots.filter((s) => only.length === 0 || only.includes(s.name))) {
    const { context, page } = await phonePage(browser, product.url, scheme);
    if (shot.signedIn) {
      const [name, value] = cookie.split('=');
      await context.addCookies([{ name: name!, value: value!, url: product.url }]);
    }
    await page.goto(shot.path);
    await page.waitForLoadState('networkidle');
    try {
      await shot.then?.(page);
    } catch (err) {
      console.warn(`${shot.name}: ${(err as Error).message.split('\n')[0]}`);
    }
    await page.waitForTimeout(300);
    const file = path.join(out, `${shot.name}-${scheme}.png`);
    await page.screenshot({ path: file });
    console.log(file);
    await context.close();
  }
}
// The side panel of the auth screen shows from 768 px.
const wide = await browser.newContext({ baseURL: product.url, viewport: { width: 1024, height: 768 } });
const widePage = await wide.newPage();
await widePage.goto('/auth');
await widePage.waitForLoadState('networkidle');
await widePage.screenshot({ path: path.join(out, 'auth-wide-light.png') });

await browser.close();
await product.stop();
await smtp.stop();
