/// <reference lib="dom" />
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_MICROPHONE_ARGS, shotPath, startSignedInProduct } from './harness';

const SCHEMES = ['light', 'dark'] as const;

/**
 * The shell's dead ends and rough edges (issue 20): the audio diagnostic and the not-found screen,
 * reset-password errors, the footer year, integration dates and tabs, the mood chart's days, the
 * password field.
 */
describe('shell fixes in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  const who = { username: 'noor', email: 'noor@example.com', password: 'noor-secret', name: 'Noor' };

  beforeAll(async () => {
    stack = await startSignedInProduct(who, { google: true, browserArgs: FAKE_MICROPHONE_ARGS });
  });
  afterAll(async () => stack?.stop());

  const signedIn = (scheme: 'light' | 'dark' = 'light', microphone = false) =>
    stack.newPage(scheme, { microphone });

  it('opens the audio diagnostic from Settings, records with the microphone, plays it back and goes back', async () => {
    for (const scheme of SCHEMES) {
      const { context, page } = await signedIn(scheme, true);
      page.setDefaultTimeout(15_000);
      try {
        await page.goto('/settings');
        await page.getByRole('tab', { name: 'Display' }).click();
        await page.getByRole('link', { name: 'Audio Recording Diagnostic' }).click();
        await page.waitForURL(/\/debug\/audio$/);
        await page.getByRole('heading', { level: 1, name: 'Audio Recording Diagnostic' }).waitFor();
        expect(await page.getByText('Did you forget to add the page to the router?').count()).toBe(0);

        const support = page.getByRole('definition');
        const row = (label: string) =>
          page.locator('dl div', { has: page.getByText(label, { exact: true }) });
        await row('Microphone permission').getByText('Allowed').waitFor();
        await row('Audio recording (MediaRecorder)').getByText('Supported').waitFor();
        await row('audio/webm').getByText('Supported', { exact: true }).waitFor();
        expect(await support.count()).toBeGreaterThan(5);
        await page.screenshot({ path: shotPath(`debug-audio-${scheme}`), fullPage: true });

        await page.getByRole('button', { name: 'Start test recording' }).click();
        const meter = page.getByRole('meter', { name: 'Microphone level' });
        // Chromium's fake microphone beeps: the live meter moves.
        await expect
          .poll(async () => Number(await meter.getAttribute('aria-valuenow')), { timeout: 10_000 })
          .toBeGreaterThan(0);
        await page.getByText(/Recording… \d s left/).waitFor();
        await page.screenshot({ path: shotPath(`debug-audio-recording-${scheme}`) });
        await page.getByRole('button', { name: 'Stop' }).click();

        await page.getByText(/^Recorded [\d.]+ s, \d+ KB as audio\/webm/).waitFor();
        await page.getByText('Sound reached the microphone.', { exact: false }).waitFor();
        const audio = page.getByLabel('Test recording');
        expect(await audio.getAttribute('src')).toMatch(/^blob:/);
        // The recording is real audio the browser can decode.
        await expect
          .poll(() => audio.evaluate((el) => (el as HTMLAudioElement).readyState), { timeout: 10_000 })
          .toBeGreaterThan(0);
        await page.getByRole('button', { name: 'Record again' }).waitFor();
        await page.screenshot({ path: shotPath(`debug-audio-recorded-${scheme}`), fullPage: true });

        await page.getByRole('link', { name: 'Back' }).click();
        await page.waitForURL(/\/settings$/);
      } finally {
        await context.close();
      }
    }
  });

  it('says plainly that a page is missing and leads home, for visitors and users', async () => {
    for (const scheme of SCHEMES) {
      const visitor = await stack.newPage(scheme, { signedIn: false });
      await visitor.page.goto('/no/such/page');
      await visitor.page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
      await visitor.page.getByText("This page doesn't exist or has moved.", { exact: false }).waitFor();
      expect(await visitor.page.getByText(/router/i).count()).toBe(0);
      await visitor.page.screenshot({ path: shotPath(`not-found-plain-${scheme}`) });
      await visitor.page.getByRole('link', { name: 'Go home' }).click();
      await visitor.page.waitForURL(/\/welcome$/);
      await visitor.context.close();
    }

    const { context, page } = await signedIn();
    await page.goto('/settings/nothing-here');
    // Opened directly: there is no page of ours behind it, so only 'Go home' is offered.
    expect(await page.getByRole('button', { name: 'Go back' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Go home' }).click();
    await page.waitForURL(/\/home$/);
    await context.close();
  });

  it('shows a failed password reset once, in the form', async () => {
    const { context, page } = await stack.newPage('light', { signedIn: false });
    await page.goto('/reset-password?token=not-a-real-token');
    await page.getByLabel('New Password').fill('another-secret');
    await page.getByLabel('Confirm Password').fill('another-secret');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('link', { name: 'Request a new link' }).waitFor();
    // The mutation's onError (a toast before) runs before the form shows its error: both are in by now.
    expect(await page.getByText('Password Reset Failed', { exact: true }).count()).toBe(1);
    await page.screenshot({ path: shotPath('reset-password-failed') });

    // A field error shows under its field only.
    await page.getByLabel('Confirm Password').fill('something-else');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText("Passwords don't match").waitFor();
    expect(await page.getByText("Passwords don't match").count()).toBe(1);
    await context.close();
  });

  it('has one password field everywhere: show and hide, and the right autocomplete', async () => {
    const { context, page } = await stack.newPage('light', { signedIn: false });
    const autocomplete = (label: string) =>
      page.getByLabel(label, { exact: true }).getAttribute('autocomplete');
    await page.goto('/auth');
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('typed-secret');
    expect(await password.getAttribute('type')).toBe('password');
    expect(await autocomplete('Password')).toBe('current-password');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    expect(await password.inputValue()).toBe('typed-secret');
    await page.screenshot({ path: shotPath('login-password-shown') });
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await password.getAttribute('type')).toBe('password');

    await page.getByRole('tab', { name: 'Create account' }).click();
    expect(await autocomplete('Password')).toBe('new-password');
    expect(await autocomplete('Confirm Password')).toBe('new-password');
    expect(await page.getByRole('button', { name: 'Show password' }).count()).toBe(2);

    await page.goto('/reset-password?token=whatever');
    expect(await autocomplete('New Password')).toBe('new-password');
    expect(await autocomplete('Confirm Password')).toBe('new-password');
    await page.getByRole('button', { name: 'Show password' }).first().click();
    expect(await page.getByLabel('New Password').getAttribute('type')).toBe('text');
    await context.close();

    for (const scheme of SCHEMES) {
      const own = await signedIn(scheme);
      await own.page.goto('/settings');
      await own.page.getByRole('button', { name: 'Delete account' }).click();
      const dialog = own.page.getByRole('dialog', { name: 'Delete your account?' });
      await dialog.getByLabel('Password').fill('not-my-password');
      expect(await dialog.getByLabel('Password').getAttribute('autocomplete')).toBe('current-password');
      await dialog.getByRole('button', { name: 'Show password' }).click();
      expect(await dialog.getByLabel('Password').getAttribute('type')).toBe('text');
      await own.page.screenshot({ path: shotPath(`delete-account-password-${scheme}`) });
      await own.context.close();
    }
  });

  it('says why the privacy settings did not load, beneath the spec’s words, and loads them on Try Again', async () => {
    for (const scheme of SCHEMES) {
      const { context, page } = await signedIn(scheme);
      try {
        let failing = true;
        await page.route('**/api/user-preferences', (route) =>
          failing && route.request().method() === 'GET'
            ? route.fulfill({
                status: 503,
                contentType: 'application/json',
                body: JSON.stringify({
                  message: 'The database is busy. Please try again.',
                  code: 'unavailable',
                }),
              })
            : route.continue(),
        );
        await page.goto('/settings');
        const alert = page.getByRole('alert').filter({ hasText: 'Failed to fetch user preferences' });
        await alert.waitFor();
        expect(await alert.innerText()).toContain('The database is busy. Please try again.');
        await page.screenshot({ path: shotPath(`privacy-settings-error-${scheme}`) });
        failing = false;
        await alert.getByRole('button', { name: 'Try Again' }).click();
        await alert.waitFor({ state: 'detached' });
        expect(await page.getByRole('alert').filter({ hasText: 'Failed to fetch' }).count()).toBe(0);
      } finally {
        await context.close();
      }
    }
  });

  it('writes the current year in the welcome footer', async () => {
    const { context, page } = await stack.newPage('light', { signedIn: false });
    await page.clock.setFixedTime(new Date('2031-06-15T12:00:00'));
    await page.goto('/welcome');
    expect(await page.getByText(/© \d{4} Haven\./).textContent()).toContain('© 2031 Haven.');
    await context.close();
  });

  it('writes integration dates as the app does, and fits the three tabs on a phone', async () => {
    const { context, page } = await signedIn();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto('/integrations');
      await page.getByRole('link', { name: /Google Mail/ }).click();
      await page.getByRole('button', { name: 'Connect' }).click();
      await page.waitForURL(/\/integrations$/);
      await page.getByRole('link', { name: /Google Mail ?, connected/ }).click();
      await page.getByRole('tab', { name: 'Overview' }).waitFor();
      await context.close();
    } catch (error) {
      await context.close();
      throw error;
    }

    // Like 'Nov 23, 2026, 11:19 AM': a short month name, no seconds, no numeric month/day/year.
    const readable = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/;
    for (const scheme of SCHEMES) {
      const { context, page } = await signedIn(scheme);
      try {
        await page.goto('/integrations/google/email');
        const lastSynced = page.getByText(/^Last synced /);
        await lastSynced.waitFor();
        expect(await lastSynced.locator('time').textContent()).toMatch(readable);
        const overview = page.getByRole('tabpanel');
        // 'Connected since' (the token's expiry is no longer shown: it is not the user's business).
        const times = await overview.locator('time').allTextContents();
        expect(times.length).toBeGreaterThanOrEqual(1);
        for (const text of times) expect(text).toMatch(readable);

        await expectTabsInside(page);
        await page.screenshot({ path: shotPath(`integration-detail-${scheme}`) });
        await page.getByRole('tab', { name: 'Contextual Rules' }).click();
        await page.getByRole('button', { name: 'Save Rules' }).waitFor();
        await expectTabsInside(page);
        await page.screenshot({ path: shotPath(`integration-rules-tab-${scheme}`) });
      } finally {
        await context.close();
      }
    }
  });

  it('names the days under the mood chart, and lists day and mood for screen readers', async () => {
    const write = (content: string) => stack.writeThought(content, { category: 'personal' });
    await write('I feel anxious and tired about the budget review, it went badly.');
    await write('A lovely walk in the park, I feel grateful and happy.');

    for (const scheme of SCHEMES) {
      const { context, page } = await signedIn(scheme);
      page.setDefaultTimeout(20_000);
      try {
        await page.goto('/home');
        await page.getByRole('tab', { name: 'Weekly' }).click();
        const chart = page.getByLabel('Mood by day');
        await chart.waitFor();
        const labels = await chart.getByTestId('mood-day-labels').locator('span').allTextContents();
        expect(labels).toHaveLength(7);
        for (const label of labels) expect(label).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)$/);
        expect(new Set(labels).size).toBe(7);

        const table = chart.getByRole('table');
        expect(await table.getByRole('row').count()).toBe(8);
        const today = new Intl.DateTimeFormat('en-US', {
          weekday: 'long',
          month: 'long',
          day: 'numeric',
        }).format(new Date());
        const row = table.getByRole('row', { name: new RegExp(`^${today}`) });
        expect(await row.getByRole('cell').first().textContent()).toMatch(/^(Brighter|Heavier|Even)$/);
        expect(await row.getByRole('cell').nth(1).textContent()).toBe('2');
        await chart.screenshot({ path: shotPath(`mood-chart-week-${scheme}`) });

        await page.getByRole('tab', { name: 'Monthly' }).click();
        await page.getByLabel('Mood by day').getByRole('table').waitFor();
        const monthLabels = await page
          .getByLabel('Mood by day')
          .getByTestId('mood-day-labels')
          .locator('span')
          .allTextContents();
        expect(monthLabels[0]).toBe('1');
        expect(monthLabels.filter(Boolean)).toEqual(
          ['1', '8', '15', '22', '29'].slice(0, Math.ceil(monthLabels.length / 7)),
        );
        await page.getByLabel('Mood by day').screenshot({ path: shotPath(`mood-chart-month-${scheme}`) });
      } finally {
        await context.close();
      }
    }
  });
});

/** Every tab lies inside its tab list, and its label inside the tab (nothing spills out at 390 px). */
async function expectTabsInside(page: Page) {
  const overflow = await page.getByRole('tablist').evaluate((list) => {
    const box = list.getBoundingClientRect();
    return Array.from(list.querySelectorAll<HTMLElement>('[role="tab"]')).flatMap((tab) => {
      const t = tab.getBoundingClientRect();
      const out = t.left < box.left - 0.5 || t.right > box.right + 0.5 || tab.scrollWidth > tab.clientWidth;
      return out ? [tab.textContent] : [];
    });
  });
  expect(overflow).toEqual([]);
  const list = await page.getByRole('tablist').boundingBox();
  expect(list!.x + list!.width).toBeLessThanOrEqual(390);
}
