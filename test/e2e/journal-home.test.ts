/// <reference lib="dom" />
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shotPath, startSignedInProduct } from './harness';

const ymd = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/**
 * The first screen as a journal (issue 32): today's thoughts under the Daily insight, the days with
 * thoughts marked in its date picker, Next that stops at the present, one time format that follows
 * the Display setting, and a lapsed session that lands on the login with a notice.
 */
describe('the journal on the first screen, in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  const who = { username: 'hana', email: 'hana@example.com', password: 'correct horse', name: 'Hana' };

  beforeAll(async () => {
    stack = await startSignedInProduct(who);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const open = (path: string, colorScheme: 'light' | 'dark' = 'light', cookie = stack.cookie) =>
    stack.open(path, colorScheme, { cookie });
  const todaysThoughts = (page: Page) => page.getByRole('region', { name: "Today's Thoughts" });

  /** Writes a thought at `at` (this machine's zone is the browser's). */
  const write = async (content: string, at: Date) => {
    const res = await fetch(`${stack.product.url}/api/thoughts`, {
      method: 'POST',
      headers: { cookie: stack.cookieHeader, 'content-type': 'application/json' },
      body: JSON.stringify({
        content,
        category: 'personal',
        isVoice: false,
        clientDate: at.toISOString(),
        timezoneOffset: at.getTimezoneOffset(),
      }),
    });
    expect(res.status).toBe(201);
  };

  it('shows the first thought saved on /home under the Daily insight, and marks its day in Select Date', async () => {
    const { context, page } = await open('/home');
    try {
      // The account has no thoughts yet: the insight says there are not enough.
      await page.getByText('Not enough thoughts recorded to generate meaningful insights.').waitFor();
      await page.getByRole('button', { name: 'Add thought' }).click();
      const dialog = page.getByRole('dialog', { name: 'New Thought' });
      await dialog.getByRole('button', { name: 'Keyboard' }).click();
      await dialog.getByRole('textbox', { name: 'Your thought' }).fill('First page of the new notebook.');
      await dialog.getByRole('button', { name: 'Save Thought' }).click();
      await dialog.waitFor({ state: 'hidden' });
      // The saved toast is closed as a person would close it: it can lie over the new card (before
      // the insight above has loaded), and a pointer resting on it holds it open.
      const saved = page
        .getByRole('region', { name: 'Notifications' })
        .getByText('Your thought has been encrypted and saved.');
      await saved.waitFor();
      await page
        .getByRole('region', { name: 'Notifications' })
        .getByRole('button', { name: 'Close' })
        .click();
      await saved.waitFor({ state: 'hidden' });

      // Without a reload, the Daily tab lists it as the timeline does; its card opens the editor.
      const card = todaysThoughts(page).getByRole('button', { name: /First page of the new notebook\./ });
      await card.waitFor();
      await card.click();
      const editor = page.getByRole('dialog', { name: 'Edit Thought' });
      await editor.waitFor();
      await page.keyboard.press('Escape');
      await editor.waitFor({ state: 'hidden' });

      // One more, written three days ago.
      const today = new Date();
      const earlier = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 3, 9, 15);
      await write('Three days back: the seed catalogue arrived.', earlier);
      await page.getByRole('button', { name: /: select date$/ }).click();
      const picker = page.getByRole('dialog', { name: 'Select Date' });
      const todayCell = picker.locator(`[data-day="${ymd(today)}"]`);
      await expect.poll(() => todayCell.getAttribute('data-has-thoughts')).toBe('');
      const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
      expect(
        await picker.locator(`[data-day="${ymd(yesterday)}"]`).getAttribute('data-has-thoughts'),
      ).toBeNull();
      // Early in a month, that day is in the month before.
      const earlierCell = picker.locator(`[data-day="${ymd(earlier)}"]`);
      if ((await earlierCell.count()) === 0)
        await picker.getByRole('button', { name: 'Previous month' }).click();
      await expect.poll(() => earlierCell.getAttribute('data-has-thoughts')).toBe('');
      await page.screenshot({ path: shotPath('journal-home-select-date-light') });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: shotPath('journal-home-select-date-dark') });
    } finally {
      await context.close();
    }
  });

  it('stops Next at today, this week and this month, and says why', async () => {
    const { context, page } = await open('/home');
    try {
      const next = page.getByRole('button', { name: 'Next period' });
      const previous = page.getByRole('button', { name: 'Previous period' });
      for (const [tab, reason] of [
        ['Daily', /today/],
        ['Weekly', /current week/],
        ['Monthly', /current month/],
      ] as const) {
        await page.getByRole('tab', { name: tab }).click();
        await expect.poll(() => next.isDisabled()).toBe(true);
        const reasonId = await next.getAttribute('aria-describedby');
        expect(reasonId).toBeTruthy();
        expect(await page.locator(`[id="${reasonId}"]`).textContent()).toMatch(reason);
        await previous.click();
        await expect.poll(() => next.isDisabled()).toBe(false);
        await next.click();
        await expect.poll(() => next.isDisabled()).toBe(true);
      }
    } finally {
      await context.close();
    }
  });

  it('writes a card’s time in the Display setting’s format, kept over a reload', async () => {
    // A time of today in the afternoon when the day has had one, else just after midnight.
    const now = new Date();
    const afternoon = now.getHours() > 18 || (now.getHours() === 18 && now.getMinutes() > 35);
    const at = new Date(now.getFullYear(), now.getMonth(), now.getDate(), afternoon ? 18 : 0, 35);
    const [twelve, twentyFour] = afternoon ? ['6:35 PM', '18:35'] : ['12:35 AM', '00:35'];
    await write('The evening walk by the canal.', at);

    const { context, page } = await open('/settings');
    try {
      const time = () =>
        todaysThoughts(page)
          .getByRole('article')
          .filter({ hasText: 'The evening walk by the canal.' })
          .locator('time')
          .textContent();
      const choose = async (label: string) => {
        await page.goto('/settings');
        await page.getByRole('tab', { name: 'Display' }).click();
        const group = page.getByRole('group', { name: 'Time format' });
        await group.getByRole('button', { name: label }).click();
        await expect
          .poll(() => group.getByRole('button', { name: label }).getAttribute('aria-pressed'))
          .toBe('true');
      };

      await choose('24-hour');
      await page.screenshot({ path: shotPath('journal-home-settings-display-light'), fullPage: true });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: shotPath('journal-home-settings-display-dark'), fullPage: true });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto('/home');
      await expect.poll(time, { timeout: 15_000 }).toBe(twentyFour);
      await page.reload();
      await expect.poll(time, { timeout: 15_000 }).toBe(twentyFour);

      await choose('12-hour');
      await page.goto('/home');
      await expect.poll(time, { timeout: 15_000 }).toBe(twelve);
      await todaysThoughts(page).scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath('journal-home-daily-light') });
    } finally {
      await context.close();
    }
    const dark = await open('/home', 'dark');
    try {
      await todaysThoughts(dark.page)
        .getByRole('button', { name: /The evening walk/ })
        .waitFor();
      await todaysThoughts(dark.page).scrollIntoViewIfNeeded();
      await dark.page.screenshot({ path: shotPath('journal-home-daily-dark') });
    } finally {
      await dark.context.close();
    }
  });

  it('sends a lapsed session to /auth with a notice, and keeps the thought waiting on the device', async () => {
    // A session of its own, so revoking it leaves the other tests' session alone.
    const login = await fetch(`${stack.product.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: who.email, password: who.password }),
    });
    expect(login.status).toBe(200);
    const { name } = stack.cookie;
    const value = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith(`${name}=`))!
      .slice(name.length + 1);
    const { context, page } = await open('/home', 'light', { name, value });
    try {
      // Home has drawn and asked for all it shows (its day's thoughts come last).
      await todaysThoughts(page).waitFor();
      await page.waitForLoadState('networkidle');
      // Revoked from elsewhere (another device logging out, or the session expiring).
      const revoked = await fetch(`${stack.product.url}/api/logout`, {
        method: 'POST',
        headers: { cookie: `${name}=${value}` },
      });
      expect(revoked.status).toBe(200);
      // A thought waits on the device, as one saved offline does.
      const waiting = {
        clientKey: 'kept-through-the-lapse',
        content: 'Written on the train, no signal.',
        category: 'personal',
        isVoice: false,
        clientDate: new Date().toISOString(),
        timezoneOffset: new Date().getTimezoneOffset(),
      };
      const queue = (write?: typeof waiting) =>
        page.evaluate(
          (item) =>
            new Promise<string[]>((resolve, reject) => {
              const request = indexedDB.open('haven-offline');
              request.onupgradeneeded = () => request.result.createObjectStore('pending-thoughts');
              request.onerror = () => reject(request.error);
              request.onsuccess = () => {
                const tx = request.result.transaction('pending-thoughts', 'readwrite');
                const store = tx.objectStore('pending-thoughts');
                if (item) store.put(item, item.clientKey);
                const keys = store.getAllKeys();
                tx.oncomplete = () => {
                  request.result.close();
                  resolve(keys.result as string[]);
                };
              };
            }),
          write,
        );
      expect(await queue(waiting)).toEqual(['kept-through-the-lapse']);

      // Assist asks for its mail, calendar and conversations: each answer is a 401.
      await page.getByRole('link', { name: 'Assist' }).click();
      await page.waitForURL('**/auth', { timeout: 15_000 });
      await page
        .getByRole('status')
        .filter({ hasText: 'Your session has ended. Please log in again.' })
        .waitFor();
      expect(await page.getByText('Failed to fetch conversations').count()).toBe(0);
      await page.screenshot({ path: shotPath('journal-home-session-ended-light') });
      await page.emulateMedia({ colorScheme: 'dark' });
      // Past the colours' transition.
      await page.waitForTimeout(500);
      await page.screenshot({ path: shotPath('journal-home-session-ended-dark') });
      expect(await queue()).toEqual(['kept-through-the-lapse']);
    } finally {
      await context.close();
    }
  });
});
