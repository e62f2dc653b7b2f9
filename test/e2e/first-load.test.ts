/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shotPath, startSignedInProduct } from './harness';

/** Every script URL a page names: its entry script and its module preloads. */
const namedScripts = (page: string) =>
  [
    ...page.matchAll(
      /<(?:script type="module" crossorigin src|link rel="modulepreload" crossorigin href)="([^"]+)"/g,
    ),
  ].map((m) => m[1]!);

describe('the first load of a signed-in screen, in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  const page = (path: string, cookie?: string) =>
    fetch(stack.product.url + path, { headers: { accept: 'text/html', ...(cookie && { cookie }) } });

  beforeAll(async () => {
    stack = await startSignedInProduct({
      username: 'fran',
      email: 'fran@example.com',
      password: 'correct horse',
      name: 'Fran',
    });
    const saved = await fetch(`${stack.product.url}/api/thoughts`, {
      method: 'POST',
      headers: { cookie: stack.cookieHeader, 'content-type': 'application/json' },
      body: JSON.stringify({
        content: 'The launch plan is slipping and I feel anxious about the budget review with Anna.',
        category: 'professional',
        isVoice: false,
        clientDate: new Date().toISOString(),
        timezoneOffset: new Date().getTimezoneOffset(),
      }),
    });
    expect(saved.status).toBe(201);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("names a screen's code in its page for a valid session only, and says so", async () => {
    const visitor = await page('/home');
    expect(visitor.headers.get('vary')).toMatch(/cookie/i);
    const visitorPage = await visitor.text();
    expect(visitorPage).not.toContain('haven-signed-in');
    const signedIn = await (await page('/home', stack.cookieHeader)).text();
    expect(signedIn).toContain('<meta name="haven-signed-in" content="true">');
    const added = namedScripts(signedIn).filter((s) => !namedScripts(visitorPage).includes(s));
    expect(added.length).toBeGreaterThan(0);
    for (const file of added) {
      const chunk = await fetch(stack.product.url + file);
      expect(chunk.status, file).toBe(200);
      expect(chunk.headers.get('content-type')).toMatch(/javascript/);
    }
    // A forged or revoked cookie is a visitor.
    expect(await (await page('/home', `${stack.cookie.name}=forged`)).text()).toBe(visitorPage);
    // A visitor's screen names its code for visitors.
    expect(namedScripts(await (await page('/auth')).text()).length).toBeGreaterThan(
      namedScripts(visitorPage).length,
    );
  });

  it('fetches no script the page did not name, in a few chunks, and asks for its data beside the session check', async () => {
    const named = namedScripts(await (await page('/home', stack.cookieHeader)).text());
    const { context, page: tab } = await stack.newPage('light');
    try {
      const order: string[] = [];
      tab.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/insights/daily') order.push('insight asked');
      });
      // Counts the Intl date formatters made: building one costs milliseconds on a phone. Notes,
      // in the page, the moment the insight's text is added, and how many formatters were made by
      // then: the scripts fetched until that moment are the screen's (the day's thought cards,
      // another panel or the service worker's helper load after it has shown).
      await context.addInitScript(() => {
        const counted = window as unknown as { formattersMade: number; shown?: { at: number; made: number } };
        counted.formattersMade = 0;
        Intl.DateTimeFormat = new Proxy(Intl.DateTimeFormat, {
          construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
            counted.formattersMade += 1;
            return new target(...args);
          },
        });
        const watch = new MutationObserver((changes) => {
          const added = changes.flatMap((c) => Array.from(c.addedNodes));
          if (!added.some((n) => n.textContent?.includes('The launch plan is slipping'))) return;
          counted.shown = { at: performance.now(), made: counted.formattersMade };
          watch.disconnect();
        });
        watch.observe(document, { childList: true, subtree: true });
      });
      // The session check answers late: the screen's data must not wait for it.
      await tab.route('**/api/session', async (route) => {
        await new Promise((r) => setTimeout(r, 1500));
        order.push('session answered');
        await route.continue();
      });
      const errors: string[] = [];
      tab.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await tab.goto('/home');
      await tab.getByText('The launch plan is slipping').first().waitFor({ timeout: 20_000 });
      const shown = await tab.evaluate(
        () => (window as unknown as { shown: { at: number; made: number } }).shown,
      );
      // The scripts fetched until the screen showed.
      const scripts = await tab.evaluate(
        (at) =>
          performance
            .getEntriesByType('resource')
            .filter((e) => e.startTime <= at)
            .map((e) => new URL(e.name).pathname)
            .filter((p) => p.startsWith('/assets/') && p.endsWith('.js')),
        shown.at,
      );
      await tab.screenshot({ path: shotPath('first-load-home') });

      // The service worker's helper loads on its own, 3 s after the page has (see main.tsx).
      const screenScripts = scripts.filter((s) => !s.includes('/workbox-window'));
      expect(screenScripts.length).toBeGreaterThan(1);
      expect(screenScripts.filter((s) => !named.includes(s))).toEqual([]);
      // The entry and the bundler's runtime, a chunk per route (frame, tab shell, screen), one per
      // audience for what screens share and a few small libraries: 9 (it was 51 when each
      // combination of screens sharing code had a chunk of its own, and the entry six).
      expect(new Set(screenScripts).size).toBeLessThanOrEqual(10);
      expect(order[0]).toBe('insight asked');
      expect(order).toContain('session answered');
      // None is made until the screen shows: the first one a page builds sets up ICU's locale data
      // (some 30 ms on a phone), and the app writes its English dates itself. It made 16 (one per
      // module), then 1 on first use; the browser's 12/24-hour preference is asked later, when the
      // page is idle (time-format.ts).
      expect(shown.made).toBe(0);
      // Once the app's own check has answered, the page's mark no longer counts.
      expect(await tab.evaluate(() => document.querySelector('meta[name="haven-signed-in"]'))).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is dark on a dark device before any script has run, and a visitor at /home gets /welcome', async () => {
    const { context, page: tab } = await stack.newPage('dark', { signedIn: false });
    try {
      await tab.route('**/assets/*.js', (route) => route.abort());
      await tab.goto('/home');
      // The theme's class on <html> comes with the app's code; until then the device's choice holds.
      const background = await tab.evaluate(() => getComputedStyle(document.body).backgroundColor);
      await tab.screenshot({ path: shotPath('first-load-before-scripts-dark') });
      const channels = (background.match(/[\d.]+/g) ?? []).map(Number);
      // oklch(L C H) or rgb(r, g, b): either way, a dark background.
      expect(
        background.startsWith('oklch') ? channels[0]! : Math.max(...channels.slice(0, 3)) / 255,
      ).toBeLessThan(0.3);
      await tab.unroute('**/assets/*.js');
      const errors: string[] = [];
      tab.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await tab.goto('/home');
      await tab.waitForURL('**/welcome');
      await tab.getByRole('main').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
