/// <reference lib="dom" />
import type { BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shotPath, startSignedInProduct } from './harness';

/**
 * The installable app offline: the service worker keeps the app shell, thoughts saved without a
 * network wait in IndexedDB and are sent once, with their client keys, when it returns.
 */
describe('offline capture in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;

  beforeAll(async () => {
    stack = await startSignedInProduct({
      username: 'robin',
      email: 'robin@example.com',
      password: 'train-pass',
    });
  });
  afterAll(async () => stack?.stop());

  const storedContents = async () => {
    const res = await fetch(`${stack.product.url}/api/thoughts/all`, {
      headers: { cookie: stack.cookieHeader },
    });
    return ((await res.json()) as Array<{ content: string }>).map((t) => t.content);
  };

  async function capture(page: Page, text: string) {
    await page.getByRole('button', { name: 'Add thought' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Thought' });
    await dialog.getByRole('button', { name: 'Keyboard' }).click();
    await dialog.getByLabel('Your thought').fill(text);
    await dialog.getByRole('button', { name: 'Save Thought' }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  it('keeps two thoughts typed offline, opens on a reload offline, and syncs them once when back', async () => {
    let context: BrowserContext | undefined;
    try {
      const opened = await stack.newPage('light');
      context = opened.context;
      const page = opened.page;
      // Speech recognition is absent here, so the capture dialog opens on the keyboard.
      await page.addInitScript('delete window.SpeechRecognition; delete window.webkitSpeechRecognition;');
      await page.goto('/timeline');
      await page.getByRole('heading', { name: /All Thoughts/ }).waitFor();
      // The service worker (registered 3 s after the load event) has installed and controls the page.
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
        timeout: 25_000,
      });

      await context.setOffline(true);
      await capture(page, 'Offline one: the tunnel after Reading');
      await page.getByText('Saved on this device', { exact: true }).first().waitFor();
      await capture(page, 'Offline two: remember the charger');
      await page.getByRole('status').filter({ hasText: '2 waiting to sync' }).waitFor();
      const waiting = page.getByRole('list', { name: 'Waiting to sync' });
      await waiting.getByText('Offline one: the tunnel after Reading').waitFor();
      await waiting.getByText('Offline two: remember the charger').waitFor();
      expect(await storedContents()).not.toContain('Offline one: the tunnel after Reading');

      // A reload without a network still opens the app, with the thoughts still waiting.
      await page.reload();
      await page.getByRole('heading', { name: /All Thoughts/ }).waitFor();
      await page.getByRole('status').filter({ hasText: '2 waiting to sync' }).waitFor();
      await page.screenshot({ path: shotPath('offline-waiting') });

      await context.setOffline(false);
      await page.getByRole('status').filter({ hasText: 'waiting to sync' }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Offline two: remember the charger' }).waitFor();
      await expect
        .poll(storedContents)
        .toEqual(
          expect.arrayContaining([
            'Offline one: the tunnel after Reading',
            'Offline two: remember the charger',
          ]),
        );
      // Once each, however often the device tried.
      const stored = await storedContents();
      expect(stored.filter((c) => c.startsWith('Offline one')).length).toBe(1);
      expect(stored.filter((c) => c.startsWith('Offline two')).length).toBe(1);
    } finally {
      await context?.close();
    }
  });
});
