/// <reference lib="dom" />
import type { Locator, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shotPath, startSignedInProduct } from './harness';

/** An `rgb(…)`/`oklch(…)` colour a browser computed, as red, green and blue from 0 to 255. */
async function rgbOf(locator: Locator): Promise<[number, number, number]> {
  return locator.evaluate((element) => {
    // Any colour syntax Chromium computes is painted on a canvas and read back as sRGB.
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d')!;
    context.fillStyle = getComputedStyle(element).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!] as [number, number, number];
  });
}

/** Neutral: no channel far from the others (a red dot is about 250, 60, 60). */
const isGrey = ([r, g, b]: [number, number, number]) => Math.max(r, g, b) - Math.min(r, g, b) < 30;

/**
 * What the app says is honest: providers the server has no client id for are not offered, errors
 * show where the user looks, and an event dialog says there is no calendar before the form is filled.
 * The product runs with the Google double and without Slack or Notion client ids.
 */
describe('honest screens in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;

  beforeAll(async () => {
    stack = await startSignedInProduct(
      { username: 'ines', email: 'ines@example.com', password: 'honest-pass' },
      { google: true },
    );
    await stack.writeThought('I need to book a dentist appointment for Friday morning.');
  });
  afterAll(async () => stack?.stop());

  const open = (path: string, scheme: 'light' | 'dark' = 'light', signedIn = true) =>
    stack.open(path, scheme, { signedIn, timeout: 15_000 });

  it('says Slack and Notion are not set up, with grey dots and no Connect, and Assist does not offer them', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await open('/integrations', scheme);
      try {
        for (const name of ['Slack Messages', 'Notion Documents']) {
          const card = page.getByRole('link', { name: new RegExp(name) });
          await card.getByText('Not set up on this server').waitFor();
          expect(isGrey(await rgbOf(card.getByTestId('connection-dot')))).toBe(true);
        }
        // Google is set up (the double) but not connected: neutral grey too, never red.
        const calendar = page.getByRole('link', { name: /Google Calendar/ });
        await calendar.getByText('Invitations to answer', { exact: false }).waitFor();
        expect(isGrey(await rgbOf(calendar.getByTestId('connection-dot')))).toBe(true);
        await page.screenshot({ path: shotPath(`honest-integrations-${scheme}`), fullPage: true });

        await page.getByRole('button', { name: 'Add New' }).click();
        const adding = page.getByRole('dialog', { name: 'Add New' });
        await adding.getByRole('button', { name: /Slack Messages\s*Not set up/ }).click();
        await page.waitForURL(/\/integrations\/slack\/messages$/);
        await page.getByText('Not set up on this server').first().waitFor();
        await page.getByText('SLACK_CLIENT_ID and SLACK_CLIENT_SECRET', { exact: false }).waitFor();
        await page
          .getByText(/README\.md, section ‘Connecting Google, Microsoft, Slack and Notion’/)
          .waitFor();
        await page.getByText('#connecting-google-microsoft-slack-and-notion', { exact: true }).waitFor();
        expect(await page.getByRole('button', { name: 'Connect' }).count()).toBe(0);
        expect(isGrey(await rgbOf(page.getByTestId('connection-dot')))).toBe(true);
        await page.screenshot({ path: shotPath(`honest-slack-not-set-up-${scheme}`), fullPage: true });

        await page.goto('/assist');
        await page.getByRole('button', { name: 'Show card 3 of 3: More Integrations' }).click();
        const more = page.getByRole('region', { name: 'More Integrations' });
        await more.getByText('Slack and Notion are not set up on this server.').waitFor();
        expect(await more.getByRole('link', { name: /Connect (Slack|Notion)/ }).count()).toBe(0);
        await page.waitForTimeout(600); // the smooth scroll settles (for the screenshot only)
        await page.screenshot({ path: shotPath(`honest-assist-more-${scheme}`) });
      } finally {
        await context.close();
      }
    }
  });

  it('says what a connected calendar can read and do, in words, and not when its token expires', async () => {
    const { context, page } = await open('/integrations/google/calendar');
    try {
      await page.getByRole('button', { name: 'Connect' }).click();
      await page.getByText('Google integration connected', { exact: true }).first().waitFor();
      await page.goto('/integrations/google/calendar');
      await page.getByRole('tab', { name: 'Overview' }).waitFor();
      await page.getByText('Read your calendar and its events').waitFor();
      await page.getByText('Create events and answer invitations you accept or decline').waitFor();
      const body = await page.locator('main').innerText();
      expect(body).not.toContain('Token expires');
      expect(body).not.toMatch(/Provider\s*google/);
      expect(isGrey(await rgbOf(page.getByTestId('connection-dot')))).toBe(false);
      await page.screenshot({ path: shotPath('honest-calendar-connected-light'), fullPage: true });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: shotPath('honest-calendar-connected-dark'), fullPage: true });
      // Disconnected again, so that the event dialog below meets no calendar.
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Disconnect' }).click();
      await page.waitForURL(/\/integrations$/);
    } finally {
      await context.close();
    }
  });

  it('shows a failed login next to the form, not only in a toast', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await open('/auth', scheme, false);
      try {
        await page.getByLabel('Email').fill('ines@example.com');
        await page.getByLabel('Password').fill('not the password');
        await page.getByRole('button', { name: 'Log in' }).last().click();
        const form = page.getByRole('form', { name: 'Log in' });
        await form
          .getByRole('alert')
          .getByText(/Login failed/)
          .waitFor();
        // The spec's toast says it too.
        await page.getByRole('region', { name: 'Notifications' }).getByText('Login failed').waitFor();
        await page.screenshot({ path: shotPath(`honest-auth-error-${scheme}`) });
      } finally {
        await context.close();
      }
    }
  });

  it('keeps the code field on screen after a wrong verification code, with the error under it', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await open('/verify-code?email=nobody%40example.com', scheme, false);
      try {
        await page.getByLabel('Verification Code').fill('123456');
        await page.getByRole('button', { name: 'Verify' }).click();
        const form = page.getByRole('form', { name: 'Verify' });
        await form
          .getByRole('alert')
          .getByText('Verification failed. Please check your code and try again.', { exact: false })
          .waitFor();
        const field = page.getByLabel('Verification Code');
        expect(await field.isVisible()).toBe(true);
        expect(await field.getAttribute('aria-invalid')).toBe('true');
        // Retyping clears the refusal, and the code can be sent again.
        await field.fill('654321');
        expect(await form.getByRole('alert').count()).toBe(0);
        await page.getByRole('button', { name: 'Verify' }).click();
        await form.getByRole('alert').waitFor();
        await page.screenshot({ path: shotPath(`honest-verify-code-error-${scheme}`) });
      } finally {
        await context.close();
      }
    }
  });

  /** Opens the suggestion's 'Add to Calendar' from today's insight (directly or through 'Take Action'). */
  async function addToCalendar(page: Page) {
    const card = page
      .locator('div.rounded-lg')
      .filter({ has: page.getByText('Book a dentist appointment', { exact: true }) })
      .last();
    await card.waitFor();
    const menu = card.getByRole('button', { name: 'Take Action' });
    if ((await menu.count()) > 0) {
      await menu.click();
      await card.getByRole('menuitem', { name: 'Add to Calendar' }).click();
    } else await card.getByRole('button', { name: 'Add to Calendar' }).click();
    return page.getByRole('dialog', { name: 'Add to Calendar' });
  }

  it('says there is no calendar when Add to Calendar opens, before the form is filled', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await open('/home', scheme);
      try {
        const dialog = await addToCalendar(page);
        // Nothing typed, nothing pressed: the notice is there, with the way to connect one.
        await dialog
          .getByRole('alert')
          .getByText(/No calendar is connected/)
          .waitFor();
        const connect = dialog.getByRole('link', { name: 'Connect Calendar' });
        expect(await connect.getAttribute('href')).toBe('/integrations');
        expect(await dialog.getByRole('button', { name: 'Add to Calendar' }).count()).toBe(0);
        await dialog.getByRole('button', { name: 'Download .ics' }).waitFor();
        await page.screenshot({ path: shotPath(`honest-event-no-calendar-${scheme}`) });
      } finally {
        await context.close();
      }
    }
  });
});
