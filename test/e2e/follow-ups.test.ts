/// <reference lib="dom" />
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { shotPath, startSignedInProduct, type GoogleDouble } from './harness';

const DAY = 86_400_000;

/**
 * 'Waiting for an answer' in the e-mail digest: questions the user sent that nobody answered for
 * three days, each with a 'Nudge' that opens the e-mail dialog with a polite follow-up written and
 * threaded under the user's own message. The product runs with the Google stand-in and no model.
 */
describe('follow-ups in the digest in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  let google: GoogleDouble;
  let budget = { id: '', threadId: '' };

  const waitingNow = async () =>
    (await (await stack.api('GET', '/api/assist/waiting')).json()) as {
      threads: Array<{ threadId: string }>;
    };

  const open = (colorScheme: 'light' | 'dark' = 'light') => stack.newPage(colorScheme, { timeout: 15_000 });

  beforeAll(async () => {
    stack = await startSignedInProduct(
      { username: 'noor', email: 'noor@example.com', password: 'follow-pass' },
      { google: true },
    );
    google = stack.google;
    const me = google.state.consentAs;
    const account = google.account(me);
    const sent = (to: string, subject: string, text: string, days: number) =>
      account.addMessage({
        from: `Noor <${me}>`,
        to,
        subject,
        text,
        labelIds: ['SENT'],
        date: new Date(Date.now() - days * DAY),
      });
    budget = sent(
      'Ana Lima <ana@example.com>',
      'Budget figures',
      'Could you send me the budget figures for March?',
      4,
    );
    sent('Sam Ortiz <sam@example.com>', 'Venue for the offsite', 'Can you confirm the venue by Friday?', 6);
    // Not yet three days, and a thank-you that asks nothing: neither is listed.
    sent('ben@example.com', 'Offsite', 'Are you coming to the offsite?', 1);
    sent('cleo@example.com', 'Dinner', 'Thank you for the lovely dinner!', 5);
    account.addMessage({
      from: 'Bob Stone <bob@example.com>',
      subject: 'Lunch on Friday?',
      text: 'Are you free for lunch on Friday at noon?',
      date: new Date(Date.now() - 2 * 3_600_000),
    });
    await stack.connectGoogle();
    await vi.waitFor(async () => expect((await waitingNow()).threads).toHaveLength(2), {
      timeout: 20_000,
      interval: 250,
    });
  });
  afterAll(async () => stack?.stop());

  it('lists who has not answered, and a nudge opens the e-mail dialog threaded under the question', async () => {
    const { context, page } = await open();
    try {
      await page.goto('/assist');
      const digest = page.getByRole('region', { name: 'Email Digest' });
      const waiting = digest.getByRole('list', { name: 'Waiting for an answer' });
      // Longest waiting first: Sam (6 days), then Ana (4 days).
      await waiting.getByText('Ana Lima', { exact: true }).waitFor();
      expect(await waiting.getByRole('listitem').allInnerTexts()).toEqual([
        expect.stringMatching(/^Sam Ortiz · Venue for the offsite\s+6 days\s+Nudge$/),
        expect.stringMatching(/^Ana Lima · Budget figures\s+4 days\s+Nudge$/),
      ]);
      await page.screenshot({ path: shotPath('follow-ups-digest-light') });

      await waiting.getByRole('button', { name: 'Nudge Ana Lima about Budget figures' }).click();
      const dialog = page.getByRole('dialog', { name: 'Draft Email' });
      expect(await dialog.getByLabel('To').inputValue()).toBe('Ana Lima <ana@example.com>');
      expect(await dialog.getByLabel('Subject').inputValue()).toBe('Re: Budget figures');
      expect(await dialog.getByLabel('Message').inputValue()).toMatch(
        /^Hi Ana,\n\nI'm just following up on my message about "Budget figures"\./,
      );
      await page.screenshot({ path: shotPath('follow-ups-nudge-light') });

      // Saved as a draft at Google, in the thread, answering the user's own message.
      await dialog.getByRole('button', { name: 'Save Draft' }).click();
      await expect.poll(() => google.state.drafts.length).toBe(1);
      const draft = google.state.drafts[0]!;
      expect(draft.threadId).toBe(budget.threadId);
      const mime = Buffer.from(draft.raw, 'base64url').toString('utf8');
      expect(mime).toMatch(new RegExp(`^In-Reply-To: <${budget.id}@mail\\.example>`, 'm'));
      expect(mime).toMatch(new RegExp(`^References: <${budget.id}@mail\\.example>`, 'm'));
      await dialog.waitFor({ state: 'detached' });

      // Sent (through the confirmation the default preferences ask for): Ana leaves the list at once.
      await waiting.getByRole('button', { name: 'Nudge Ana Lima about Budget figures' }).click();
      await dialog.getByRole('button', { name: 'Send Email' }).click();
      await page
        .getByRole('alertdialog', { name: 'Send this email?' })
        .getByRole('button', { name: 'Send' })
        .click();
      await expect.poll(() => google.state.sent.length).toBe(1);
      expect(google.state.sent[0]!.threadId).toBe(budget.threadId);
      await waiting.getByText('Ana Lima', { exact: true }).waitFor({ state: 'detached' });
      await waiting.getByText('Sam Ortiz', { exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('reads well in the dark: every text against its background passes WCAG AA contrast', async () => {
    const { context, page } = await open('dark');
    /** axe's colour-contrast rule on what the page shows now: the texts that fail, by selector. */
    const lowContrast = async () =>
      (await new AxeBuilder({ page }).withRules(['color-contrast']).analyze()).violations.flatMap((v) =>
        v.nodes.map((n) => n.target.join(' ')),
      );
    try {
      await page.goto('/assist');
      const waiting = page.getByRole('list', { name: 'Waiting for an answer' });
      await waiting.getByText('Sam Ortiz', { exact: true }).waitFor();
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      expect(await lowContrast()).toEqual([]);
      await page.screenshot({ path: shotPath('follow-ups-digest-dark') });
      await waiting.getByRole('button', { name: 'Nudge Sam Ortiz about Venue for the offsite' }).click();
      await page.getByRole('dialog', { name: 'Draft Email' }).getByLabel('Message').waitFor();
      expect(await lowContrast()).toEqual([]);
      await page.screenshot({ path: shotPath('follow-ups-nudge-dark') });
    } finally {
      await context.close();
    }
  });

  it('takes the number of days from the e-mail settings (1 to 30)', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await open(scheme);
      try {
        await page.goto('/integrations/google/email');
        await page.getByRole('tab', { name: 'Settings' }).click();
        const days = page.getByLabel('Follow up after');
        expect(await days.inputValue()).toBe('3');
        await days.fill('0');
        await page.getByText('Enter a number of days from 1 to 30.').waitFor();
        expect(await page.getByRole('button', { name: 'Save Settings' }).isDisabled()).toBe(true);
        await page.screenshot({ path: shotPath(`follow-ups-settings-${scheme}`) });
        await days.fill('3');
        await context.close();
      } catch (err) {
        await context.close();
        throw err;
      }
    }
    // Sam has waited 6 days: with 7 the section is gone.
    const { context, page } = await open();
    try {
      await page.goto('/integrations/google/email');
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByLabel('Follow up after').fill('7');
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await page.getByText('Settings saved', { exact: true }).first().waitFor();
      await page.goto('/assist');
      await page.getByRole('region', { name: 'Email Digest' }).getByText('Bob Stone').waitFor();
      expect(await page.getByRole('list', { name: 'Waiting for an answer' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
