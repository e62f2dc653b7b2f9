/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGraphDouble } from '../doubles/microsoft-graph';
import { shootBoth, startSignedInProduct } from './harness';

/**
 * Connecting Microsoft 365 or Outlook.com mail from the Integrations screen, in Chromium at 390×844:
 * Microsoft offered beside Google and the servers, its consent (the Graph stand-in's), and the
 * e-mail card standing for the Microsoft account once connected.
 */
describe('connecting Microsoft mail, in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  let graph: Awaited<ReturnType<typeof startGraphDouble>>;

  beforeAll(async () => {
    graph = await startGraphDouble();
    graph.state.consentAs = 'ada@outlook.example';
    await graph.account('ada@outlook.example').addMessage({
      from: 'Cy <cy@example.test>',
      to: 'ada@outlook.example',
      subject: 'Keys',
      text: 'Could you leave the keys under the mat?',
    });
    stack = await startSignedInProduct(
      { username: 'ada', email: 'ada@example.com', password: 'correct horse', name: 'Ada' },
      { env: graph.env, oauth: true },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    await graph?.stop();
  });

  it('offers Microsoft beside Google, connects through its consent, and the e-mail card stands for it', async () => {
    // APP_URL names localhost: the consent returns there, so the browser uses it too (its cookie).
    const { context, page } = await stack.newPage();
    try {
      // Google Mail's page points a person whose mail is elsewhere to Microsoft and to the servers.
      await page.goto('/integrations/google/email');
      const toMicrosoft = page.getByRole('link', { name: 'Outlook or Microsoft 365? Connect Microsoft' });
      await toMicrosoft.waitFor();
      expect(await page.getByRole('link', { name: /^Not Gmail\?/ }).count()).toBe(1);
      const box = (await toMicrosoft.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      await shootBoth(page, 'microsoft-from-google-mail', { fullPage: true });

      await page.goto('/integrations');
      await page.getByRole('button', { name: 'Add New' }).click();
      const dialog = page.getByRole('dialog');
      const names = await dialog.getByRole('button').allInnerTexts();
      const offered = names.map((n) => n.split('\n')[0]!.trim());
      // Mail: Google, Microsoft, then a server; the calendar likewise.
      expect(offered.slice(0, 6)).toEqual([
        'Google Calendar',
        'Microsoft Calendar',
        'Other Calendar (CalDAV)',
        'Google Mail',
        'Microsoft Mail',
        'Other Mail (IMAP)',
      ]);
      await shootBoth(page, 'microsoft-add-new', { fullPage: true });

      // Microsoft (the stand-in) consents at once and sends the browser back through the server callback.
      await dialog.getByRole('button', { name: /^Microsoft Mail/ }).click();
      await page.getByText('Microsoft integration connected', { exact: true }).first().waitFor();
      const card = page.getByRole('link', { name: /^Microsoft Mail ?, connected/ });
      await card.waitFor();
      // The spec's four cards stay: the e-mail card now stands for the Microsoft account.
      expect(await page.getByRole('link', { name: / ?, (not )?connected/ }).count()).toBe(4);
      await shootBoth(page, 'microsoft-connected', { fullPage: true });

      await card.click();
      await page.waitForURL('**/integrations/microsoft/email');
      await page.getByText('Send e-mail you approve').waitFor();
      await page.getByRole('button', { name: 'Disconnect' }).waitFor();
      await shootBoth(page, 'microsoft-mail-page', { fullPage: true });
    } finally {
      await context.close();
    }
  });
});
