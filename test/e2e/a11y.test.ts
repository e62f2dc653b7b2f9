/// <reference lib="dom" />
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import type { Locator, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationsEnded, shotPath, startSignedInProduct } from './harness';

type Scheme = 'light' | 'dark';

/** Rules below "serious" that still matter to a person with a screen reader; they must pass too. */
const STRUCTURE_RULES = ['heading-order', 'page-has-heading-one', 'region', 'landmark-one-main'];

/**
 * A thumb needs 44×44 CSS px (WCAG 2.5.5, AAA). axe's `target-size` rule is off by default, checks
 * 24 px and also passes a small target that is 24 px clear of others (AA's spacing exception, its
 * `target-offset` check). Here it is on, its `target-size` check is set to 44 px (axe reads a check's
 * options from the check, not from the rule) and is the only way to pass: AAA has no spacing exception.
 */
const AXE_AT_44 = `${axe.source};axe.configure(${JSON.stringify({
  checks: [{ id: 'target-size', options: { minSize: 44 } }],
  rules: [{ id: 'target-size', enabled: true, any: ['target-size'] }],
})});`;

/** Every violation on the page that is serious or critical, or breaks the page's structure. */
async function violations(page: Page, label: string): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page, axeSource: AXE_AT_44 })
    .options({ rules: { 'target-size': { enabled: true } } })
    .analyze();
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || STRUCTURE_RULES.includes(v.id))
    .map(
      (v) =>
        `${label}: ${v.id} (${v.impact}) at ${v.nodes
          .slice(0, 12)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe('accessibility and first paint in Chromium at 390×844', () => {
  let env: Awaited<ReturnType<typeof startSignedInProduct>>;
  let conversationId: number;

  beforeAll(async () => {
    env = await startSignedInProduct({
      username: 'alma',
      email: 'alma@example.com',
      password: 'correct horse',
      name: 'Alma',
    });
    const post = async (path: string, body: unknown) => {
      const res = await fetch(env.product.url + path, {
        method: 'POST',
        headers: { cookie: env.cookieHeader, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: number };
    };
    const thought = (content: string) => env.writeThought(content, { category: 'professional' });
    await thought('The launch plan is slipping and I feel anxious about the budget review with Anna.');
    await thought('I need to email Sarah the summary of the launch plan tomorrow.');
    await thought('Meet Tom on Tuesday at 3pm to talk about the garden design.');
    // A conversation is listed once it has a message.
    conversationId = (
      await post('/api/conversations', { title: 'Planning the week', content: 'Help me plan the week.' })
    ).id;
  });
  afterAll(async () => {
    await env?.stop();
  });

  /** The main screens, each with what shows once its data has arrived. */
  const signedInScreens: Array<{
    name: string;
    path: () => string;
    ready: (page: Page) => Locator;
    /** What to press once the screen is there (a tab), before the audit. */
    act?: (page: Page) => Promise<void>;
  }> = [
    {
      name: '/home',
      path: () => '/home',
      ready: (p) => p.getByText('Basic insight, made on this server without AI'),
    },
    {
      name: '/insights',
      path: () => '/insights',
      ready: (p) => p.getByText('Basic insight, made on this server without AI'),
    },
    ...(['Weekly', 'Monthly'] as const).map((tab) => ({
      name: `/home (${tab})`,
      path: () => '/home',
      ready: (p: Page) => p.getByRole('tab', { name: 'Daily' }),
      act: async (p: Page) => {
        await p.getByRole('tab', { name: tab }).click();
        await p.getByRole('tab', { name: tab, selected: true }).waitFor();
      },
    })),
    { name: '/assist', path: () => '/assist', ready: (p) => p.getByRole('link', { name: 'Connect Gmail' }) },
    { name: '/timeline', path: () => '/timeline', ready: (p) => p.getByText(/garden design/).first() },
    {
      name: '/conversations',
      path: () => '/conversations',
      ready: (p) => p.getByText('Planning the week').first(),
    },
    {
      name: '/conversations/:id',
      path: () => `/conversations/${conversationId}`,
      ready: (p) => p.getByText('Planning the week').first(),
    },
    {
      name: '/integrations',
      path: () => '/integrations',
      ready: (p) => p.getByText('Google Calendar').first(),
    },
    {
      // Google is not configured here: the page settles on 'Not set up' once it knows. ('Connect'
      // shows only until then, so waiting for it raced the providers' answer and lost at times.)
      name: '/integrations/google/calendar (not set up)',
      path: () => '/integrations/google/calendar',
      ready: (p) => p.getByText('Not set up on this server').first(),
    },
    {
      name: '/integrations/slack/messages (not set up)',
      path: () => '/integrations/slack/messages',
      ready: (p) => p.getByText('Not set up on this server').first(),
    },
    { name: '/settings', path: () => '/settings', ready: (p) => p.getByRole('tab', { name: 'Privacy' }) },
    ...(['Notifications', 'Display'] as const).map((tab) => ({
      name: `/settings (${tab})`,
      path: () => '/settings',
      ready: (p: Page) => p.getByRole('tab', { name: 'Privacy' }),
      act: async (p: Page) => {
        await p.getByRole('tab', { name: tab }).click();
        await p.getByRole('tab', { name: tab, selected: true }).waitFor();
      },
    })),
  ];

  const visitorScreens: Array<{ path: string; ready: (page: Page) => Locator }> = [
    { path: '/welcome', ready: (p) => p.getByRole('heading', { level: 1 }) },
    { path: '/auth', ready: (p) => p.getByRole('tab', { name: 'Log in' }) },
    { path: '/privacy-policy', ready: (p) => p.getByRole('heading', { name: 'Privacy Policy' }) },
    { path: '/verify-code?email=alma%40example.com', ready: (p) => p.getByLabel('Verification Code') },
  ];

  /**
   * Opens a screen, waits for its content and for no spinner, and runs axe on it. A page wider than
   * the phone (it scrolls sideways, under a thumb that meant to scroll down) counts as a violation.
   */
  async function audit(
    page: Page,
    path: string,
    ready: (page: Page) => Locator,
    scheme: Scheme,
    act?: (page: Page) => Promise<void>,
  ) {
    await page.goto(path);
    await ready(page).waitFor({ timeout: 45_000 });
    await act?.(page);
    // A period's insight loads when its tab opens: on a loaded machine its spinner outlived
    // expect.poll's one-second default (the monthly one, once).
    await expect
      .poll(() => page.getByRole('status', { name: 'Loading' }).count(), { timeout: 20_000 })
      .toBe(0);
    await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: 20_000 }).toBe(0);
    const name = `${path}${act ? `-${await page.getByRole('tab', { selected: true }).first().innerText()}` : ''}`;
    await page.screenshot({ path: shotPath(`a11y-${name.replace(/\W+/g, '-')}-${scheme}`), fullPage: true });
    const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const overflow = wider > 0 ? [`${path} (${scheme}): ${wider} px wider than the screen`] : [];
    return [...overflow, ...(await violations(page, `${path} (${scheme})`))];
  }

  // One test per screen and scheme: axe takes seconds per screen on a busy machine. Each scheme and
  // audience has one page that goes from screen to screen (its cache warm, as a person's would be):
  // a fresh browser context per screen cost seconds each for nothing the audit looks at.
  for (const scheme of ['light', 'dark'] as const) {
    describe(`${scheme} scheme`, () => {
      let visitor: Awaited<ReturnType<typeof env.newPage>>;
      let signedIn: Awaited<ReturnType<typeof env.newPage>>;
      beforeAll(async () => {
        visitor = await env.newPage(scheme, { signedIn: false });
        signedIn = await env.newPage(scheme);
        for (const { page } of [visitor, signedIn]) await page.emulateMedia({ reducedMotion: 'reduce' });
      });
      afterAll(async () => {
        await visitor?.context.close();
        await signedIn?.context.close();
      });

      for (const screen of visitorScreens) {
        it(`finds no serious or critical axe violation on ${screen.path} for a visitor (${scheme})`, async () => {
          expect(await audit(visitor.page, screen.path, screen.ready, scheme)).toEqual([]);
        });
      }
      for (const screen of signedInScreens) {
        it(`finds no serious or critical axe violation on a signed-in screen: ${screen.name} (${scheme})`, async () => {
          expect(await audit(signedIn.page, screen.path(), screen.ready, scheme, screen.act)).toEqual([]);
        });
      }
    });
  }

  it('shows a toast in a landmark, clear of the back button', async () => {
    const { context, page } = await env.newPage('light', { signedIn: false });
    await page.goto('/auth');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).last().click();
    const toast = page.getByRole('region', { name: 'Notifications' }).getByRole('alert');
    await toast.getByText('Login failed').waitFor();
    const back = await page.getByRole('link', { name: 'Back' }).boundingBox();
    await expect.poll(async () => overlaps((await toast.boundingBox())!, back!)).toBe(false);
    await page.screenshot({ path: shotPath('a11y-toast-auth') });
    await context.close();
  });

  it('shows a toast on a signed-in screen off the header and above the tab bar', async () => {
    const { context, page } = await env.newPage('dark');
    await page.goto('/home');
    await page.getByRole('button', { name: 'Add thought' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Thought' });
    // Typed: the sheet opens listening, and the refused microphone moves it to the keyboard on its
    // own at a moment of its choosing; choosing the keyboard first leaves nothing to race.
    await dialog.getByRole('button', { name: 'Keyboard', exact: true }).click();
    const box = dialog.getByRole('textbox', { name: 'Your thought' });
    await box.fill('A walk by the river at dusk.');
    await expect.poll(() => box.inputValue()).toBe('A walk by the river at dusk.');
    await dialog.getByRole('button', { name: 'Save Thought' }).click();
    const saved = page.getByRole('region', { name: 'Notifications' }).getByRole('status');
    await saved.getByText('Thought saved').waitFor();
    // Where it rests, not a frame of its slide in from 8 px higher.
    await animationsEnded(saved);
    const toastBox = (await saved.boundingBox())!;
    const header = (await page.locator('header').boundingBox())!;
    const tabBar = (await page.getByRole('navigation', { name: 'Main' }).boundingBox())!;
    expect(overlaps(toastBox, header)).toBe(false);
    expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(tabBar.y);
    await page.screenshot({ path: shotPath('a11y-toast-home-dark') });
    await context.close();
  });

  it('opens /welcome for a visitor without a console error, and answers /robots.txt as text', async () => {
    const { context, page } = await env.newPage('light', { signedIn: false });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const requests: string[] = [];
    page.on('requestfinished', (request) => requests.push(new URL(request.url()).pathname));
    await page.goto('/welcome');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect.poll(() => requests.some((p) => p.startsWith('/api/'))).toBe(true);
    expect(errors).toEqual([]);
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description?.length).toBeGreaterThan(50);
    await context.close();

    const robots = await fetch(`${env.product.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await robots.text()).toMatch(/^User-agent: \*/m);
  });

  it('renders the API reference at /api/docs from the local Swagger UI, with no request leaving the machine', async () => {
    const { context, page } = await env.newPage('light', { signedIn: false });
    const hosts = new Set<string>();
    page.on('request', (request) => hosts.add(new URL(request.url()).host));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/api/docs');
    // Swagger UI lists the contract's routes from /api/openapi.json, one folded group per service.
    await page.getByRole('heading', { name: 'Haven API' }).waitFor();
    await page.screenshot({ path: shotPath('api-docs') });
    await page.locator('.opblock-tag', { hasText: 'assistant' }).first().click();
    await page.locator('.opblock-summary-path').first().waitFor();
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    expect(paths.map((p) => p.replace(/\u200b/g, ''))).toContain('/api/assistant/query');
    await page.screenshot({ path: shotPath('api-docs-assistant') });
    expect(errors).toEqual([]);
    expect([...hosts]).toEqual([new URL(env.product.url).host]);
    await context.close();
  });

  // Lighthouse's best practices count what Chrome's Issues panel lists: zod's probe for eval was a
  // CSP violation on every screen, the Assist chat box a form field without id or name.
  it("leaves Chrome's Issues panel empty on /welcome, /home and /assist", async () => {
    const screens = [
      { path: '/welcome', signedIn: false, ready: (p: Page) => p.getByRole('heading', { level: 1 }) },
      {
        path: '/home',
        signedIn: true,
        ready: (p: Page) => p.getByText('Basic insight, made on this server without AI'),
      },
      {
        path: '/assist',
        signedIn: true,
        ready: (p: Page) => p.getByRole('textbox', { name: 'Message the assistant' }),
      },
    ];
    const issues: string[] = [];
    for (const screen of screens) {
      const { context, page } = await env.open(screen.path, 'light', { signedIn: screen.signedIn });
      await screen.ready(page).waitFor({ timeout: 45_000 });
      // Enabling the Audits domain reports every issue the page has raised so far.
      const cdp = await context.newCDPSession(page);
      cdp.on('Audits.issueAdded', ({ issue }) =>
        issues.push(`${screen.path}: ${issue.code} ${JSON.stringify(issue.details)}`),
      );
      await cdp.send('Audits.enable');
      await context.close();
    }
    expect(issues).toEqual([]);
  });
});
