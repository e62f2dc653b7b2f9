/// <reference lib="dom" />
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSubmission } from '../doubles/smtp-catcher';
import { hasDovecot, startDovecot, type Dovecot } from '../support/dovecot';
import { hasRadicale, startRadicale, type Radicale } from '../support/radicale';
import { shootBoth, startSignedInProduct } from './harness';

const ADDRESS = 'ada@example.test';
const PASSWORD = 'app-password-0123';

/**
 * Connecting a mail account by its servers from the Integrations screen, in Chromium at 390×844:
 * the presets, 'Other' with its servers, what a wrong password says, and the account connected
 * (against a real Dovecot and an SMTP server that signs in).
 */
describe.runIf(hasDovecot() && hasRadicale())(
  'connecting mail and calendar servers, in Chromium at 390×844',
  () => {
    let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
    let dovecot: Dovecot;
    let radicale: Radicale;
    let smtp: Awaited<ReturnType<typeof startSmtpSubmission>>;

    beforeAll(async () => {
      dovecot = await startDovecot({ [ADDRESS]: PASSWORD });
      radicale = await startRadicale({ [ADDRESS]: PASSWORD });
      smtp = await startSmtpSubmission(PASSWORD);
      stack = await startSignedInProduct(
        { username: 'ada', email: 'ada@example.com', password: 'correct horse', name: 'Ada' },
        { env: { MAIL_SERVERS_ALLOW_PRIVATE: '1' } },
      );
    });
    afterAll(async () => {
      await stack?.stop();
      await smtp?.stop();
      await dovecot?.stop();
      await radicale?.stop();
    });

    /** Every control of the page's main area at least 44 px each way. */
    const smallControls = (page: Page) =>
      page.evaluate(() =>
        Array.from(
          document.querySelectorAll(
            'main button, main a, main input:not(.sr-only), main select, main label:has(input[type=radio])',
          ),
        )
          .map((el) => ({ el, box: el.getBoundingClientRect() }))
          .filter(({ box }) => box.width > 0 && (box.height < 44 || box.width < 44))
          .map(
            ({ el, box }) =>
              `${el.tagName} "${(el.textContent ?? '').trim().slice(0, 30)}" ${box.width}×${box.height}`,
          ),
      );

    it('offers the mail server in Add New, says what a wrong password is, and connects with the right one', async () => {
      const { context, page } = await stack.newPage('light');
      try {
        await page.goto('/integrations');
        await page.getByRole('button', { name: 'Add New' }).click();
        await page
          .getByRole('dialog')
          .getByRole('button', { name: /Other Mail \(IMAP\)/ })
          .click();
        await page.waitForURL('**/integrations/imap/email');
        const form = page.getByRole('form', { name: 'Connect a mail account' });
        await form.getByRole('radio', { name: 'Fastmail' }).waitFor({ state: 'attached' });
        expect(await form.getByRole('radio', { name: 'Fastmail' }).isChecked()).toBe(true);
        await expect.poll(() => form.getByRole('link', { name: 'app.fastmail.com' }).count()).toBe(1);
        await shootBoth(page, 'mail-server-presets', { fullPage: true });

        await form.getByText('Other', { exact: true }).click();
        await form.getByLabel('E-mail address').fill(ADDRESS);
        await form.getByLabel('App password').fill('not-it');
        const imap = form.getByRole('group', { name: 'Incoming mail (IMAP)' });
        await imap.getByLabel('Server').fill('127.0.0.1');
        await imap.getByLabel('Port').fill(String(dovecot.port));
        await imap.getByLabel('Security').selectOption('none');
        const out = form.getByRole('group', { name: 'Outgoing mail (SMTP)' });
        await out.getByLabel('Server').fill('127.0.0.1');
        await out.getByLabel('Port').fill(String(smtp.port));
        await out.getByLabel('Security').selectOption('none');
        await form.getByRole('button', { name: 'Connect' }).click();
        const alert = form.getByRole('alert');
        await alert
          .getByText(/^Reading mail \(IMAP\): The server refused the user name or password/)
          .waitFor();
        await alert
          .getByText(/^Sending mail \(SMTP\): The server refused the user name or password/)
          .waitFor();
        // What was typed is still there for another try.
        expect(await imap.getByLabel('Port').inputValue()).toBe(String(dovecot.port));
        expect(await smallControls(page)).toEqual([]);
        await shootBoth(page, 'mail-server-wrong-password', { fullPage: true });

        await form.getByLabel('App password').fill(PASSWORD);
        await form.getByRole('button', { name: 'Connect' }).click();
        await page.getByText('IMAP integration connected').waitFor();
        await page.getByRole('tab', { name: 'Overview' }).waitFor();
        await page.getByText('Read your inbox and sent mail for the digest').waitFor();
        await shootBoth(page, 'mail-server-connected', { fullPage: true });

        // The e-mail card now stands for this account.
        await page.goto('/integrations');
        const card = page.getByRole('link', { name: /^Other Mail \(IMAP\)/ });
        await card.waitFor();
        expect(await card.textContent()).toContain('Other Mail (IMAP), connected');
        await shootBoth(page, 'mail-server-integrations', { fullPage: true });
      } finally {
        await context.close();
      }
    });

    it('offers a CalDAV calendar beside Google Calendar, says what the server answered, and connects', async () => {
      const { context, page } = await stack.newPage('light');
      try {
        await page.goto('/integrations/google/calendar');
        await page.getByRole('link', { name: /Not Google\? Connect .* \(CalDAV\)/ }).click();
        await page.waitForURL('**/integrations/caldav/calendar');
        const form = page.getByRole('form', { name: 'Connect a calendar' });
        await form.getByText('Other', { exact: true }).click();
        await form.getByLabel('E-mail address').fill(ADDRESS);
        await form.getByLabel('App password').fill('not-it');
        await form.getByLabel('Calendar server’s address').fill(radicale.url);
        await form.getByRole('button', { name: 'Connect' }).click();
        await form
          .getByRole('alert')
          .getByText(/^Calendar \(CalDAV\): /)
          .waitFor();
        expect(await smallControls(page)).toEqual([]);
        await shootBoth(page, 'calendar-server-wrong-password', { fullPage: true });

        await form.getByLabel('App password').fill(PASSWORD);
        await form.getByRole('button', { name: 'Connect' }).click();
        await page.getByText('CalDAV integration connected').waitFor();
        await page.getByText('Read your calendars’ upcoming events and invitations').waitFor();
        await shootBoth(page, 'calendar-server-connected', { fullPage: true });
        await page.goto('/integrations');
        const card = page.getByRole('link', { name: /^Other Calendar \(CalDAV\)/ });
        await card.waitFor();
        expect(await card.textContent()).toContain('Other Calendar (CalDAV), connected');
      } finally {
        await context.close();
      }
    });
  },
);
