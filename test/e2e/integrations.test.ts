/// <reference lib="dom" />
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shotPath, startSignedInProduct, type GoogleDouble } from './harness';

/** Connecting Google mail from the Integrations screen, through the local Google double. */
describe('integrations in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  let google: GoogleDouble;

  beforeAll(async () => {
    stack = await startSignedInProduct(
      { username: 'kai', email: 'kai@example.com', password: 'inbox-pass' },
      { google: true },
    );
    google = stack.google;
  });
  afterAll(async () => stack?.stop());

  it('connects Google mail through the consent page, keeps rules, and disconnects', async () => {
    const { context, page } = await stack.newPage('light', { timeout: 10_000 });
    try {
      await page.goto('/integrations');
      await page.getByRole('heading', { name: 'Integrations' }).waitFor();
      await page.getByRole('link', { name: /Google Mail/ }).click();
      await page.getByRole('button', { name: 'Connect' }).click();
      // Google (the double) consents at once and sends the browser back through the server callback.
      await page.waitForURL(/\/integrations$/);
      await page.getByText('Google integration connected', { exact: true }).first().waitFor();
      expect(page.url()).toBe(`${stack.origin}/integrations`);
      await page.getByRole('link', { name: /Google Mail ?, connected/ }).waitFor();
      await page.screenshot({ path: shotPath('integrations-connected') });

      await page.getByRole('link', { name: /Google Mail/ }).click();
      await page.getByRole('tab', { name: 'Contextual Rules' }).click();
      await page.getByRole('button', { name: 'Use Default Rules' }).click();
      await page.getByRole('button', { name: 'Save Rules' }).click();
      await page.getByText('Rules saved', { exact: true }).first().waitFor();
      await page.screenshot({ path: shotPath('integration-rules') });

      await page.getByRole('button', { name: 'Disconnect' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm
        .getByText(
          'Disconnect Google Mail? This will remove access to your account. The assistant will no longer be able to interact with your data.',
        )
        .waitFor();
      await confirm.getByRole('button', { name: 'Disconnect' }).click();
      await page.waitForURL(/\/integrations$/);
      await page.getByRole('link', { name: /Google Mail ?, not connected/ }).waitFor();
      expect(google.state.revoked.length).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('connects through the direct-authentication page and the SPA callback page', async () => {
    const { context, page } = await stack.newPage('light', { timeout: 15_000 });
    try {
      await page.goto('/direct-google-auth');
      await page.getByLabel('Email').check();
      expect(await page.getByLabel('Use Alternative Redirect').isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Generate Direct Link' }).click();
      await page.screenshot({ path: shotPath('direct-auth') });
      await page.getByRole('link', { name: 'Open OAuth' }).click();
      await page.waitForURL(/\/direct-google-callback\?/);
      await page.getByText('Integration Successful', { exact: true }).waitFor();
      await page.getByText('Your account has been successfully connected.').waitFor();
      await page.screenshot({ path: shotPath('direct-callback') });
      await page.getByRole('link', { name: 'Return to Integrations' }).click();
      await page.getByRole('link', { name: /Google Mail ?, connected/ }).waitFor();
      // The same address again: the state was used once, so it is refused.
      await page.goBack();
      await page.getByText('Integration Failed', { exact: true }).waitFor();
      await page.getByText('Invalid state parameter').waitFor();
    } finally {
      await context.close();
    }
  });

  it('creates the event of an insight’s suggestion in the connected calendar', async () => {
    await stack.writeThought('I need to book a dentist appointment for Friday morning.');
    const { context, page } = await stack.newPage('light', { timeout: 15_000 });
    try {
      await page.goto('/integrations/google/calendar');
      await page.getByRole('button', { name: 'Connect' }).click();
      await page.getByText('Google integration connected', { exact: true }).first().waitFor();
      await page.goto('/home');
      await page.getByText('Suggestions', { exact: true }).waitFor();
      const direct = page.getByRole('button', { name: 'Add to Calendar' }).first();
      if (!(await direct.isVisible()))
        await page.getByRole('button', { name: 'Take Action' }).first().click();
      await page.getByRole('button', { name: 'Add to Calendar' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add to Calendar' });
      await dialog.getByRole('button', { name: 'Add to Calendar' }).click();
      // askBeforeCalendarEvents is on by default: the event is created only once confirmed.
      expect(google.state.events).toHaveLength(0);
      await page.getByRole('alertdialog').getByRole('button', { name: 'Create Event' }).click();
      await page.getByText('Event scheduled', { exact: true }).first().waitFor();
      expect(google.state.events).toHaveLength(1);
      expect(google.state.events[0]).toMatchObject({
        summary: 'Book a dentist appointment',
        start: { dateTime: expect.stringMatching(/T09:00:00$/) },
        reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 30 }] },
      });
    } finally {
      await context.close();
    }
  });

  it('shows the digest and invitations on Assist, drafts a reply, saves it, answers an invitation, disconnects', async () => {
    // Start from nothing connected (earlier tests left mail and calendar connected to another account).
    const api = (method: string, path: string) => stack.api(method, path);
    for (const { id } of (await (await api('GET', '/api/integrations')).json()) as Array<{ id: number }>)
      await api('DELETE', `/api/integrations/${id}`);
    google.state.consentAs = 'kai@mail.example';
    const account = google.account('kai@mail.example');
    const lunch = account.addMessage({
      from: 'Bob Stone <bob@example.com>',
      subject: 'Lunch on Friday?',
      html: '<p>Are you free for lunch on Friday at noon?</p><img src="https://tracker.example/p.gif" alt="">',
      date: new Date(Date.now() - 2 * 3_600_000),
    });
    account.addMessage({
      from: 'Weekly Digest <digest@news.example>',
      subject: 'This week in gardening',
      text: 'Ten tips for the autumn garden.',
      headers: { 'List-Unsubscribe': '<mailto:u@news.example>' },
    });
    account.addInvitation({
      summary: 'Design review',
      start: new Date(Date.now() + 26 * 3_600_000),
      location: 'Room 4',
    });

    const { context, page } = await stack.newPage('light', { timeout: 15_000 });
    try {
      for (const type of ['email', 'calendar']) {
        await page.goto(`/integrations/google/${type}`);
        await page.getByRole('button', { name: 'Connect' }).click();
        await page.getByText('Google integration connected', { exact: true }).first().waitFor();
      }
      // The first sync follows the connection; the digest shows once it has run.
      await expect
        .poll(async () => JSON.stringify(await (await api('GET', '/api/assist/emails')).json()), {
          timeout: 15_000,
        })
        .toContain('Lunch on Friday?');
      await page.goto('/assist');
      const digest = page.getByRole('region', { name: 'Email Digest' });
      await digest.getByText('New since yesterday').waitFor();
      await digest.getByText('Need a response').waitFor();
      await digest.getByText('Needs reply').waitFor();
      await page.screenshot({ path: shotPath('assist-digest') });

      await digest.getByRole('button', { name: /Lunch on Friday\?/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Lunch on Friday?' });
      await dialog.getByTitle('Email body').waitFor();
      await expect.poll(() => dialog.getByRole('button', { name: 'Save Draft' }).isDisabled()).toBe(true);
      await dialog.getByRole('button', { name: 'Show images' }).waitFor();
      await dialog.getByRole('button', { name: 'Template' }).click();
      expect(await dialog.getByLabel('Your reply').inputValue()).toMatch(
        /^Hi Bob,\n\nThank you for your email/,
      );
      await dialog.getByRole('button', { name: 'AI Draft' }).click();
      // The template's text is there: AI Draft asks before replacing it.
      await page
        .getByRole('alertdialog', { name: 'Replace your reply?' })
        .getByRole('button', { name: 'Replace' })
        .click();
      await expect.poll(() => dialog.getByLabel('Your reply').inputValue()).toContain('I have read it');
      await page.screenshot({ path: shotPath('assist-email') });
      await dialog.getByRole('button', { name: 'Save Draft' }).click();
      await page.getByText('Draft saved', { exact: true }).first().waitFor();
      const saved = google.state.drafts.at(-1)!;
      expect(saved.threadId).toBe(lunch.threadId);
      expect(Buffer.from(saved.raw, 'base64url').toString('utf8')).toMatch(
        /^Subject: Re: Lunch on Friday\?/m,
      );
      // Saving the draft closes the dialog.
      await dialog.waitFor({ state: 'detached' });

      const tab = page.getByRole('button', { name: 'Show card 2 of 3: Calendar RSVPs' });
      await tab.click();
      await expect.poll(() => tab.getAttribute('aria-current')).toBe('true');
      const rsvps = page.getByRole('region', { name: 'Calendar RSVPs' });
      await rsvps.getByText('Design review').waitFor();
      await page.waitForTimeout(600); // the smooth scroll settles (for the screenshot only)
      await page.screenshot({ path: shotPath('assist-calendar') });
      await rsvps.getByRole('button', { name: 'Accept' }).click();
      await page.getByText('Invitation accepted', { exact: true }).first().waitFor();
      await rsvps.getByText('No invitations waiting for you').waitFor();
      expect(google.state.patches.at(-1)!.body.attendees).toEqual(
        expect.arrayContaining([expect.objectContaining({ self: true, responseStatus: 'accepted' })]),
      );

      await page.goto('/integrations/google/email');
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Disconnect' }).click();
      await page.waitForURL(/\/integrations$/);
      await page.goto('/assist');
      await page.getByRole('link', { name: 'Connect Gmail' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('opens a link from an e-mail in a new tab, and only a web or mail link', async () => {
    // The page the link leads to: a small local site.
    const site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Friday menu</title><h1>Friday menu</h1><p>Soup, bread, pie.</p>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const menu = `http://127.0.0.1:${(site.address() as AddressInfo).port}/menu`;
    google.state.consentAs = 'kai@mail.example';
    google.account('kai@mail.example').addMessage({
      from: 'Ana Ruiz <ana@example.com>',
      subject: 'Menu for Friday',
      // A web link, and a script link hidden behind a line separator (the sanitiser drops its href).
      html: `<p>Here is <a href="${menu}">the menu</a>. <a href="\u2028javascript:alert(1)">Hidden</a></p>`,
      date: new Date(Date.now() - 3_600_000),
    });
    // Start from nothing connected; the light round connects the mailbox, the dark one reads it again.
    const api = (method: string, path: string) => stack.api(method, path);
    for (const { id } of (await (await api('GET', '/api/integrations')).json()) as Array<{ id: number }>)
      await api('DELETE', `/api/integrations/${id}`);
    try {
      for (const scheme of ['light', 'dark'] as const) {
        const { context, page } = await stack.newPage(scheme, { timeout: 15_000 });
        try {
          await page.goto('/integrations/google/email');
          if (scheme === 'light') {
            await page.getByRole('button', { name: 'Connect', exact: true }).click();
            await page.getByRole('link', { name: /Google Mail ?, connected/ }).waitFor();
          }
          await expect
            .poll(async () => JSON.stringify(await (await page.request.get('/api/assist/emails')).json()), {
              timeout: 15_000,
            })
            .toContain('Menu for Friday');
          await page.goto('/assist');
          await page
            .getByRole('region', { name: 'Email Digest' })
            .getByRole('button', { name: /Menu for Friday/ })
            .click();
          const body = page.frameLocator('iframe[title="Email body"]');
          const link = body.getByRole('link', { name: 'the menu' });
          expect(await link.getAttribute('target')).toBe('_blank');
          expect(await link.getAttribute('rel')).toMatch(/noopener/);
          expect(await body.getByText('Hidden').getAttribute('href')).toBeNull();
          await page.screenshot({ path: shotPath(`mail-link-${scheme}`) });
          const [opened] = await Promise.all([context.waitForEvent('page'), link.click()]);
          await opened.waitForLoadState();
          expect(opened.url()).toBe(menu);
          await opened.getByRole('heading', { name: 'Friday menu' }).waitFor();
          await opened.screenshot({ path: shotPath(`mail-link-opened-${scheme}`) });
          // The hidden script link leads nowhere: no second tab.
          await body.getByText('Hidden').click();
          await page.waitForTimeout(300);
          expect(context.pages()).toHaveLength(2);
        } finally {
          await context.close();
        }
      }
    } finally {
      site.close();
      // Leave nothing connected for the tests after this one.
      for (const { id } of (await (await api('GET', '/api/integrations')).json()) as Array<{ id: number }>)
        await api('DELETE', `/api/integrations/${id}`);
    }
  });

  it('says a connection Google stopped accepting needs reconnecting, and reconnects it', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await stack.newPage(scheme, { timeout: 15_000 });
      try {
        await page.goto('/integrations/google/email');
        await page.getByRole('button', { name: 'Connect', exact: true }).click();
        await page.getByRole('link', { name: /Google Mail ?, connected/ }).waitFor();
        // Google stops accepting the account's tokens; the next action finds out.
        google.state.refuseAccess = true;
        const refused = await page.request.post('/api/email/send?draft=true', {
          data: { to: 'a@example.com', subject: 'S', body: 'B' },
        });
        expect(refused.status()).toBe(409);
        await page.reload();
        const card = page.getByRole('link', { name: /Google Mail ?, not connected, needs reconnecting/ });
        await card.waitFor();
        await page.screenshot({ path: shotPath(`integrations-reconnect-${scheme}`) });

        await card.click();
        await page.getByText('Needs reconnecting', { exact: true }).waitFor();
        await page
          .getByRole('alert')
          .getByText('Google no longer accepts this connection. Please reconnect.')
          .waitFor();
        await page.getByRole('button', { name: 'Disconnect' }).waitFor();
        await page.screenshot({ path: shotPath(`integration-reconnect-${scheme}`) });
        google.state.refuseAccess = false;
        await page.getByRole('button', { name: 'Reconnect', exact: true }).click();
        await page.waitForURL(/\/integrations$/);
        await page.getByRole('link', { name: /Google Mail ?, connected/ }).waitFor();

        await page.goto('/integrations/google/email');
        await page.getByRole('button', { name: 'Disconnect' }).click();
        await page.getByRole('alertdialog').getByRole('button', { name: 'Disconnect' }).click();
        await page.waitForURL(/\/integrations$/);
      } finally {
        google.state.refuseAccess = false;
        await context.close();
      }
    }
  });

  it('sends a visitor on the callback page to /auth, saying why', async () => {
    const { context, page } = await stack.newPage('light', { signedIn: false });
    try {
      await page.goto('/direct-google-callback?code=abc&state=x');
      await page.waitForURL(/\/auth$/);
      await page.getByText('Authentication required', { exact: true }).first().waitFor();
      await page.getByText('Please log in to continue with the integration setup.').first().waitFor();
    } finally {
      await context.close();
    }
  });
});
