/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shotPath, startProductWithBrowser } from './harness';

describe('the app shell in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startProductWithBrowser>>;

  beforeAll(async () => {
    stack = await startProductWithBrowser();
  });
  afterAll(async () => stack?.stop());

  it('sends / to /welcome', async () => {
    const { context, page } = await stack.newPage();
    await page.goto('/');
    await page.waitForURL('**/welcome');
    // The welcome screen renders once the session check has answered: wait for it, don't peek.
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.getByRole('button', { name: 'Create account' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/welcome');
    expect(await page.getByRole('button', { name: 'Log in' }).isVisible()).toBe(true);
    await page.screenshot({ path: shotPath('welcome-light') });
    await context.close();
  });

  it('shows the 404 screen for an unknown path', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await stack.newPage(scheme);
      const response = await page.goto('/no/such/page');
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { name: '404 Page Not Found' }).textContent()).resolves.toBe(
        '404 Page Not Found',
      );
      await page.getByText("This page doesn't exist or has moved.", { exact: false }).waitFor();
      await page.getByRole('link', { name: 'Go home' }).waitFor();
      await page.screenshot({ path: shotPath(`not-found-${scheme}`) });
      await context.close();
    }
  });

  it('sends a signed-out visitor of a protected path to /welcome', async () => {
    const { context, page } = await stack.newPage();
    for (const path of ['/settings', '/home', '/timeline', '/conversations/3']) {
      await page.goto(path);
      // Said which path stayed, rather than a wait running out.
      await page.waitForURL('**/welcome', { timeout: 10_000 }).catch(() => undefined);
      expect(new URL(page.url()).pathname, `a visitor of ${path}`).toBe('/welcome');
    }
    await context.close();
  });

  it('keeps the column about 28rem wide on a wide screen', async () => {
    const context = await stack.browser.newContext({
      baseURL: stack.origin,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    await page.goto('/no/such/page');
    const width = await page.getByRole('heading', { name: '404 Page Not Found' }).evaluate((el) => {
      let node: HTMLElement | null = el as HTMLElement;
      while (node && node.getBoundingClientRect().width < 300) node = node.parentElement;
      return node?.getBoundingClientRect().width ?? 0;
    });
    expect(width).toBeLessThanOrEqual(448);
    await context.close();
  });
});
