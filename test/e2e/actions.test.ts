/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationsEnded, shotPath, startSignedInProduct, type GoogleDouble } from './harness';

/**
 * Acting for the user (events, e-mails, connecting accounts) never pretends and never leaves the
 * app for an error page. The product runs with the Google double and without Slack, Notion or a model.
 */
describe('actions in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  let google: GoogleDouble;
  const api = (method: string, path: string, body?: unknown) => stack.api(method, path, body);

  beforeAll(async () => {
    stack = await startSignedInProduct(
      { username: 'noa', email: 'noa@example.com', password: 'acting-pass' },
      { google: true },
    );
    google = stack.google;
    google.account(google.state.consentAs).addMessage({
      from: 'Bob Stone <bob@example.com>',
      to: google.state.consentAs,
      subject: 'Lunch on Friday?',
      text: 'Are you free for lunch on Friday at noon?',
      date: new Date(Date.now() - 3_600_000),
    });
    for (const content of [
      'I need to book a dentist appointment for Friday morning.',
      'I need to email Sarah with the revised timeline.',
    ])
      await stack.writeThought(content);
  });
  afterAll(async () => stack?.stop());

  const open = (path: string, colorScheme: 'light' | 'dark' = 'light') =>
    stack.open(path, colorScheme, { timeout: 15_000 });

  /** Opens a suggestion's dialog from today's insight on /home (directly or through 'Take Action'). */
  async function fromSuggestion(page: Page, title: string, action: 'Add to Calendar' | 'Draft Email') {
    await page.goto('/home');
    const card = page
      .locator('div.rounded-lg')
      .filter({ has: page.getByText(title, { exact: true }) })
      .last();
    await card.waitFor();
    const menu = card.getByRole('button', { name: 'Take Action' });
    if ((await menu.count()) > 0) {
      await menu.click();
      await card.getByRole('menuitem', { name: action }).click();
    } else await card.getByRole('button', { name: action }).click();
    return page.getByRole('dialog', { name: action });
  }

  it('offers no Connect for Slack or Notion when they are not configured, and says so in the app', async () => {
    const { context, page } = await open('/integrations/slack/messages');
    try {
      await page.getByText('Not set up on this server').first().waitFor();
      expect(await page.getByRole('button', { name: 'Connect' }).count()).toBe(0);
      expect(new URL(page.url()).pathname).toBe('/integrations/slack/messages');
      await page.screenshot({ path: shotPath('actions-slack-not-configured') });

      await page.goto('/integrations');
      await page.getByRole('button', { name: 'Add New' }).click();
      await page
        .getByRole('dialog', { name: 'Add New' })
        .getByRole('button', { name: /Notion/ })
        .click();
      // Its page says why, rather than a connection that cannot start.
      await page.waitForURL(/\/integrations\/notion\/documents$/);
      await page.getByText('Not set up on this server').first().waitFor();
      expect(await page.getByText('Connection failed', { exact: true }).count()).toBe(0);
      expect(await page.locator('body').innerText()).not.toContain('not configured on this server');
    } finally {
      await context.close();
    }
  });

  it('says no calendar is connected, offers Connect and an .ics file, and schedules only for real', async () => {
    const { context, page } = await open('/home');
    try {
      let dialog = await fromSuggestion(page, 'Book a dentist appointment', 'Add to Calendar');
      // Said on opening, before anything is filled in; the file is offered instead.
      const notice = dialog.getByRole('alert');
      await notice.getByText(/No calendar is connected, so this event cannot be added/).waitFor();
      expect(await dialog.getByRole('button', { name: 'Add to Calendar' }).count()).toBe(0);
      expect(await page.getByText('Event scheduled', { exact: true }).count()).toBe(0);
      await page.screenshot({ path: shotPath('actions-event-not-connected') });

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Download .ics' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('Book-a-dentist-appointment.ics');
      const ics = readFileSync((await download.path())!, 'utf8');
      expect(ics).toMatch(/^BEGIN:VCALENDAR/);
      expect(ics).toContain('SUMMARY:Book a dentist appointment');
      expect(ics).toMatch(/DTSTART:\d{8}T\d{6}Z/);
      expect(ics).toContain('TRIGGER:-PT30M');

      // The way out: connecting the calendar through its consent flow (the double consents at once).
      await notice.getByRole('link', { name: 'Connect Calendar' }).click();
      await page.waitForURL(/\/integrations$/);
      await page.getByRole('link', { name: /Google Calendar/ }).click();
      await page.getByRole('button', { name: 'Connect' }).click();
      await page.waitForURL(/\/integrations$/);
      await page.getByText('Google integration connected', { exact: true }).first().waitFor();

      dialog = await fromSuggestion(page, 'Book a dentist appointment', 'Add to Calendar');
      await dialog.getByRole('button', { name: 'Add to Calendar' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Create Event' }).click();
      await page.getByText('Event scheduled', { exact: true }).first().waitFor();
      expect(google.state.events).toHaveLength(1);

      // The grant is revoked at Google: the dialog says the connection needs attention.
      google.revokeAll();
      google.expireAccessTokens();
      dialog = await fromSuggestion(page, 'Book a dentist appointment', 'Add to Calendar');
      await dialog.getByRole('button', { name: 'Add to Calendar' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Create Event' }).click();
      await dialog
        .getByRole('alert')
        .getByText(/connection needs attention/)
        .waitFor();
      await dialog.getByRole('button', { name: 'Reconnect Google Calendar' }).waitFor();
      expect(google.state.events).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  // Dark first: the light run ends by connecting Gmail.
  for (const scheme of ['dark', 'light'] as const)
    it(`prefills a real draft, says Gmail is not connected and offers to connect it (${scheme})`, async () => {
      const { context, page } = await open('/home', scheme);
      try {
        const dialog = await fromSuggestion(page, 'Email Sarah with the revised timeline', 'Draft Email');
        expect(await dialog.getByLabel('To').inputValue()).toBe('');
        expect(await dialog.getByLabel('Message').inputValue()).toBe(
          "Hi Sarah,\n\nI'm following up about the revised timeline.\n\nBest regards,",
        );
        await dialog.getByRole('button', { name: 'Save Draft' }).click();
        await page.getByText('Gmail is not connected.', { exact: true }).first().waitFor();
        const notice = dialog.getByRole('alert');
        await notice.getByText(/^Gmail is not connected, so nothing was saved or sent/).waitFor();
        expect(await page.getByText(/Please try again/).count()).toBe(0);
        await notice.getByRole('button', { name: 'Connect Gmail' }).waitFor();
        await page.screenshot({ path: shotPath(`actions-email-not-connected-${scheme}`) });
        // Focus stayed in the dialog: Escape closes it.
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        if (scheme === 'dark') return;

        const again = await fromSuggestion(page, 'Email Sarah with the revised timeline', 'Draft Email');
        await again.getByRole('button', { name: 'Save Draft' }).click();
        await again.getByRole('alert').getByRole('button', { name: 'Connect Gmail' }).click();
        await page.waitForURL(/\/integrations$/);
        await page.getByText('Google integration connected', { exact: true }).first().waitFor();
        await page.getByRole('link', { name: /Google Mail ?, connected/ }).waitFor();
      } finally {
        await context.close();
      }
    });

  it('asks before replacing a typed reply, closes on Draft saved, and clears Needs reply on send', async () => {
    // Gmail was connected by the test before; its first sync brings Bob's mail (added at the start).
    const { context, page } = await open('/assist');
    try {
      await expect
        .poll(async () => JSON.stringify(await (await api('GET', '/api/assist/emails')).json()), {
          timeout: 20_000,
        })
        .toContain('"needsReply":true');

      await page.goto('/assist');
      const digest = page.getByRole('region', { name: 'Email Digest' });
      const row = digest.getByRole('button', { name: /Lunch on Friday\?/ });
      await row.getByText('Needs reply').waitFor();
      await row.click();
      const dialog = page.getByRole('dialog', { name: 'Lunch on Friday?' });
      const reply = dialog.getByLabel('Your reply');
      await reply.fill('Yes, noon works. See you there!');

      // The footer: Cancel and Save Draft side by side, the send button on its own full row (measured
      // once the dialog has zoomed in: read during it, two boxes side by side were 0.05 px apart).
      await animationsEnded(dialog);
      const [cancel, draft, send] = await Promise.all(
        ['Cancel', 'Save Draft', 'Send Response'].map((name) =>
          dialog.getByRole('button', { name, exact: true }).boundingBox(),
        ),
      );
      expect(cancel!.y).toBe(draft!.y);
      expect(cancel!.width).toBe(draft!.width);
      expect(send!.y).toBeGreaterThan(cancel!.y);
      expect(Math.round(send!.width)).toBe(Math.round(draft!.x + draft!.width - cancel!.x));
      await page.screenshot({ path: shotPath('actions-reply-typed') });

      await dialog.getByRole('button', { name: 'AI Draft' }).click();
      const ask = page.getByRole('alertdialog', { name: 'Replace your reply?' });
      await ask.getByRole('button', { name: 'Cancel' }).click();
      expect(await reply.inputValue()).toBe('Yes, noon works. See you there!');
      await dialog.getByRole('button', { name: 'AI Draft' }).click();
      await ask.getByRole('button', { name: 'Replace' }).click();
      await expect.poll(() => reply.inputValue()).toMatch(/^Hi Bob,/);

      // Earlier tests of this file (or a retried attempt) may have saved drafts too: one more, this one.
      const draftsBefore = google.state.drafts.length;
      await dialog.getByRole('button', { name: 'Save Draft' }).click();
      await page.getByText('Draft saved', { exact: true }).first().waitFor();
      await dialog.waitFor({ state: 'detached' });
      expect(google.state.drafts).toHaveLength(draftsBefore + 1);

      await row.click();
      await reply.fill('Yes, noon works.');
      await dialog.getByRole('button', { name: 'Send Response' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Send' }).click();
      await page.getByText('Email sent', { exact: true }).first().waitFor();
      await dialog.waitFor({ state: 'detached' });
      // At once, not at the next sync (the server has marked it too).
      await row.getByText('Needs reply').waitFor({ state: 'detached', timeout: 3_000 });
      const after = (await (await api('GET', '/api/assist/emails')).json()) as {
        emails: Array<{ subject: string; needsReply: boolean }>;
      };
      expect(after.emails.find((e) => e.subject === 'Lunch on Friday?')?.needsReply).toBe(false);
      await page.screenshot({ path: shotPath('actions-digest-replied') });
    } finally {
      await context.close();
    }
  });
});
