/// <reference lib="dom" />
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { vi } from 'vitest';
import { startAllInOne, type AllInOne } from '../../scripts/all-in-one';
import { startSmtpCatcher } from '../doubles/smtp-catcher';
import { fromDataTemplate, testProductEnv } from '../support/data-template';

// A browser flow is a dozen steps, each waiting on a condition (never a fixed time); on two busy
// cores the whole may take longer than a unit test's bound, without anything being wrong.
// (Only under vitest: `npm run bench` starts the product with this harness too.)
if (process.env.VITEST) vi.setConfig({ testTimeout: 60_000, hookTimeout: 90_000 });

/** The machine's Chromium; Playwright cannot download its own here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The phone the product is designed for. */
export const PHONE = { width: 390, height: 844 };

/**
 * The whole product as `npm start` runs it (embedded PGlite in a temp folder, the machine's Redis
 * under a private key prefix) on a free port.
 */
export async function startProduct(
  env: Record<string, string> = {},
): Promise<AllInOne & { dataDir: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'haven-e2e-'));
  fromDataTemplate(dataDir);
  const app = await startAllInOne({ ...testProductEnv(dataDir), ...env }, { port: 0 });
  return {
    ...app,
    dataDir,
    async stop() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Chromium with a fake microphone that always grants access (for voice capture). */
export const FAKE_MICROPHONE_ARGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * Makes an account through the real registration flow (reading the code from the SMTP catcher) and
 * returns its session cookie, for tests that start signed in.
 */
export async function createAccount(
  baseUrl: string,
  smtp: { waitFor(to: string, options?: { since?: number }): Promise<{ text: string }> },
  who: { username: string; email: string; password: string; name?: string },
): Promise<{ name: string; value: string }> {
  const post = (p: string, body: unknown) =>
    fetch(baseUrl + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const since = Date.now();
  const requested = await post('/api/request-verification', { ...who, isEmailVerified: false });
  if (!requested.ok) throw new Error(`registration failed: ${requested.status} ${await requested.text()}`);
  const code = /verification code is (\d{6})/.exec((await smtp.waitFor(who.email, { since })).text)?.[1];
  const verified = await post('/api/verify-email', { email: who.email, code });
  const cookie = verified.headers.getSetCookie()[0]?.split(';')[0];
  if (!verified.ok || !cookie) throw new Error(`verification failed: ${verified.status}`);
  const [name, value] = cookie.split('=');
  return { name: name!, value: value! };
}

/** A fresh phone-sized page; `colorScheme` lets a test look at dark mode; `cookie` signs it in. */
export async function phonePage(
  browser: Browser,
  baseURL: string,
  colorScheme: 'light' | 'dark' = 'light',
  options: { cookie?: { name: string; value: string }; microphone?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport: PHONE,
    deviceScaleFactor: 1,
    colorScheme,
    permissions: options.microphone ? ['microphone'] : [],
  });
  if (options.cookie) await context.addCookies([{ ...options.cookie, url: baseURL }]);
  return { context, page: await context.newPage() };
}

/** Screenshots land in test-results/ (not committed) for a person to look at. */
/**
 * A screenshot light and one dark (the colours' transitions ended), then back to light. The
 * transitions are finished rather than waited for: one inside a card scrolled out of view
 * (`content-visibility: auto`) is not advanced while it is skipped, so its end never comes.
 */
export async function shootBoth(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  const settled = () =>
    page.evaluate(() => {
      for (const animation of document.getAnimations())
        if (animation instanceof CSSTransition) animation.finish();
    });
  await page.screenshot({ path: shotPath(`${name}-light`), ...options });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('html.dark').waitFor({ state: 'attached' });
  await settled();
  await page.screenshot({ path: shotPath(`${name}-dark`), ...options });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.locator('html.dark').waitFor({ state: 'detached' });
  await settled();
}

export function shotPath(name: string): string {
  return path.join(import.meta.dirname, '..', '..', 'test-results', `${name}.png`);
}

/**
 * The product on embedded defaults with a local SMTP catcher, a Chromium and one signed-in account:
 * what most end-to-end suites start from. `stop()` closes all three.
 */
export async function startSignedInProduct(
  who: { username: string; email: string; password: string; name?: string },
  options: { env?: Record<string, string>; browserArgs?: string[] } = {},
) {
  const smtp = await startSmtpCatcher();
  const product = await startProduct({ SMTP_URL: smtp.url, ...options.env });
  const browser = await launchBrowser(options.browserArgs);
  const cookie = await createAccount(product.url, smtp, who);
  return {
    smtp,
    product,
    browser,
    cookie,
    /** The session cookie as a request header value. */
    cookieHeader: `${cookie.name}=${cookie.value}`,
    async stop() {
      await browser.close();
      await product.stop();
      await smtp.stop();
    },
  };
}
