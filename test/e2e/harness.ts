/// <reference lib="dom" />
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright';
import { onTestFailed } from 'vitest';
import type { AllInOne } from '../../scripts/all-in-one';
import { startAllInOne } from '../support/bundle';
import { startGoogleDouble } from '../doubles/google-server';
import { startSmtpCatcher } from '../doubles/smtp-catcher';
import { fromDataTemplate, testProductEnv } from '../support/data-template';

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
  who: Who,
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

/** How many of a page's last events a failed test prints. */
const EVENTS_KEPT = 60;
/** An API call slower than this is worth a line in a failed test's account of its page. */
const SLOW_CALL_MS = 2_000;
/** The page's toasts as they change, told to the test as console messages with this prefix. */
const TOAST_PREFIX = '[e2e toast] ';
const TOAST_WATCH = `(${(prefix: string) => {
  let last = '';
  const look = () => {
    const region = document.querySelector('[aria-label="Notifications"]');
    const text = region?.textContent ?? '';
    if (text === last) return;
    last = text;
    console.debug(prefix + (text || '(none)'));
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true });
}})(${JSON.stringify(TOAST_PREFIX)})`;

/**
 * Keeps what happens on `page` that a failed browser step does not say: the toasts shown, the API
 * calls that failed or were slow, console errors and uncaught exceptions, each with the seconds since
 * the page opened. A step that waited 30 s for 'Thought saved' then says whether 'Saved on this
 * device' came instead, or the save answered 503, or nothing was sent at all.
 */
async function recordEvents(page: Page): Promise<() => string> {
  const opened = Date.now();
  const events: string[] = [];
  const note = (line: string) => {
    events.push(`+${((Date.now() - opened) / 1000).toFixed(1)} s  ${line}`);
    if (events.length > EVENTS_KEPT) events.shift();
  };
  const where = (url: string) => {
    const { pathname, search } = new URL(url);
    return pathname + search;
  };
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith(TOAST_PREFIX)) note(`toast: ${text.slice(TOAST_PREFIX.length)}`);
    // A failed load is also an error on the console; the call's own line says which and how.
    else if (message.type() === 'error' && !text.startsWith('Failed to load resource'))
      note(`console error: ${text}`);
  });
  page.on('pageerror', (error) => note(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => {
    note(`${request.method()} ${where(request.url())} failed: ${request.failure()?.errorText}`);
  });
  page.on('requestfinished', async (request) => {
    if (!new URL(request.url()).pathname.startsWith('/api/')) return;
    const status = (await request.response().catch(() => null))?.status();
    // Milliseconds from the request's start (timing() is relative to it).
    const ms = Math.round(request.timing().responseEnd);
    if (status === undefined || status >= 400 || ms > SLOW_CALL_MS)
      note(`${request.method()} ${where(request.url())} answered ${status ?? '?'} in ${ms} ms`);
  });
  await page.addInitScript(TOAST_WATCH);
  return () => [`the page at ${page.url()}, its last events:`, ...events].join('\n');
}

/**
 * Prints the page's events if the test that opened it fails. Pages opened in a `beforeAll` belong to
 * no test, and print nothing.
 */
function reportOnFailure(report: () => string): void {
  try {
    onTestFailed(() => console.log(report()));
  } catch {
    // Opened outside a test.
  }
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
  const page = await context.newPage();
  reportOnFailure(await recordEvents(page));
  return { context, page };
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

/**
 * Waits until the finite animations of the element and everything in it have ended (a dialog fades
 * and zooms in): what is measured then is where a person sees it, not a frame of the way there.
 */
export async function animationsEnded(locator: Locator): Promise<void> {
  await locator.evaluate((element) =>
    Promise.all(
      element
        .getAnimations({ subtree: true })
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

export function shotPath(name: string): string {
  return path.join(import.meta.dirname, '..', '..', 'test-results', `${name}.png`);
}

/** A person the tests register (through the real e-mailed code). */
export interface Who {
  username: string;
  email: string;
  password: string;
  name?: string;
}

export type Scheme = 'light' | 'dark';
export type GoogleDouble = Awaited<ReturnType<typeof startGoogleDouble>>;

export interface ProductOptions {
  /** More of the product's environment (a double's settings, a feature switch). */
  env?: Record<string, string>;
  /** More Chromium switches (`FAKE_MICROPHONE_ARGS`). */
  browserArgs?: string[];
  /**
   * Starts the Google stand-in (test/doubles/google-server) and points the product at it; it is
   * `stack.google`, and stopped with the rest. Implies `oauth`.
   */
  google?: boolean;
  /**
   * The browser uses the address APP_URL names (localhost): OAuth consent returns there, so the
   * session cookie must be that origin's.
   */
  oauth?: boolean;
}

export interface PageOptions {
  /** With the account's session cookie (default: when there is an account). */
  signedIn?: boolean;
  /** Another session cookie (a second account's). */
  cookie?: { name: string; value: string };
  /** Grants the microphone (with `FAKE_MICROPHONE_ARGS`, Chromium's fake device). */
  microphone?: boolean;
  /** Playwright's default timeout for the page's waits and actions, in ms. */
  timeout?: number;
  /** A script run in the page before its own (a stand-in for a browser API). */
  initScript?: string;
}

/**
 * The product on embedded defaults with a local SMTP catcher and a Chromium (and the Google
 * stand-in when asked), without an account: for the suites that register or stay signed out.
 * `stop()` closes them all.
 */
export async function startProductWithBrowser(options: ProductOptions = {}) {
  return startStack(undefined, options);
}

/**
 * The product on embedded defaults with a local SMTP catcher, a Chromium and one signed-in account
 * (and the Google stand-in with `google: true`): what most end-to-end suites start from. `open()`
 * gives a phone-sized page signed in and at a path; `stop()` closes everything.
 */
export async function startSignedInProduct(who: Who, options: ProductOptions = {}) {
  // With an account, its cookie is there (startStack throws otherwise).
  return (await startStack(who, options)) as Awaited<ReturnType<typeof startStack>> & {
    cookie: { name: string; value: string };
    cookieHeader: string;
  };
}

async function startStack(who: Who | undefined, options: ProductOptions) {
  // What has started so far, closed in reverse if a later step fails (afterAll never sees it).
  const started: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    for (const stop of started.splice(0).reverse()) await stop();
  };
  const step = async <T extends { stop?(): Promise<unknown>; close?(): Promise<unknown> }>(
    start: Promise<T>,
  ): Promise<T> => {
    const thing = await start;
    started.push(() => (thing.stop ?? thing.close)!.call(thing));
    return thing;
  };
  let google: GoogleDouble | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let cookie: { name: string; value: string } | undefined;
  try {
    if (options.google) google = await step(startGoogleDouble());
    smtp = await step(startSmtpCatcher());
    product = await step(startProduct({ SMTP_URL: smtp.url, ...google?.env, ...options.env }));
    browser = await step(launchBrowser(options.browserArgs));
    cookie = who ? await createAccount(product.url, smtp, who) : undefined;
  } catch (error) {
    await stopAll().catch(() => undefined);
    throw error;
  }
  /** The session cookie as a request header value. */
  const cookieHeader = cookie && `${cookie.name}=${cookie.value}`;
  /** Where the browser goes: APP_URL's host for OAuth (see `ProductOptions.oauth`). */
  const origin =
    options.google || options.oauth ? product.url.replace('127.0.0.1', 'localhost') : product.url;

  /** A fresh phone-sized page, signed in when there is an account (unless `signedIn: false`). */
  const newPage = async (scheme: Scheme = 'light', page: PageOptions = {}) => {
    const signedIn = page.signedIn ?? cookie !== undefined;
    const opened = await phonePage(browser, origin, scheme, {
      cookie: page.cookie ?? (signedIn ? cookie : undefined),
      microphone: page.microphone,
    });
    if (page.timeout) opened.page.setDefaultTimeout(page.timeout);
    if (page.initScript) await opened.page.addInitScript(page.initScript);
    return opened;
  };

  /** A request to the product's API as the account (a body is sent as JSON; the raw response). */
  const api = (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = cookieHeader ? { cookie: cookieHeader } : {};
    if (body === undefined) return fetch(product.url + path, { method, headers });
    return fetch(product.url + path, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  };

  return {
    smtp,
    product,
    browser,
    cookie,
    cookieHeader,
    origin,
    /** The Google stand-in (only with `google: true`). */
    get google(): GoogleDouble {
      if (!google) throw new Error('the product was started without { google: true }');
      return google;
    },
    newPage,
    /** `newPage`, then to `path`. */
    async open(path: string, scheme: Scheme = 'light', page: PageOptions = {}) {
      const opened = await newPage(scheme, page);
      await opened.page.goto(path);
      return opened;
    },
    /** Connects Google (mail and calendar) from its integration page through the stand-in's consent. */
    async connectGoogle() {
      const { context, page } = await newPage('light', { timeout: 15_000 });
      try {
        await page.goto('/integrations/google/email');
        await page.getByRole('button', { name: 'Connect' }).click();
        await page.getByText('Google integration connected', { exact: true }).first().waitFor();
      } finally {
        await context.close();
      }
    },
    api,
    /** Writes a typed thought as the account, dated now; fails unless it is saved (201). */
    async writeThought(content: string, fields: { category?: string; tags?: string[] } = {}) {
      const saved = await api('POST', '/api/thoughts', {
        content,
        isVoice: false,
        ...fields,
        clientDate: new Date().toISOString(),
        timezoneOffset: new Date().getTimezoneOffset(),
      });
      if (saved.status !== 201) throw new Error(`thought not saved: ${saved.status} ${await saved.text()}`);
      return (await saved.json()) as { id: number };
    },
    /** Closes the browser, the product, the SMTP catcher and the Google stand-in, in that order. */
    stop: stopAll,
  };
}
