/// <reference lib="dom" />
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { shotPath, startSignedInProduct, type GoogleDouble } from './harness';

/**
 * The reply queue: 'Need a response' opens the e-mails needing a reply one after another, each with
 * its draft ready; a sent reply leaves the count at once. The product runs with the Google double
 * and no model, so every draft is the server's template and must say so.
 */
describe('reply queue in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  let google: GoogleDouble;
  const threads: Record<string, string> = {};

  const digestNow = async () =>
    (await (await stack.api('GET', '/api/assist/emails')).json()) as { stats: { needingResponse: number } };

  const open = (colorScheme: 'light' | 'dark' = 'light') => stack.newPage(colorScheme, { timeout: 15_000 });

  beforeAll(async () => {
    stack = await startSignedInProduct(
      { username: 'rae', email: 'rae@example.com', password: 'queue-pass' },
      { google: true },
    );
    google = stack.google;
    const account = google.account(google.state.consentAs);
    // The digest lists the newest first: Cara, Bob, Ann; the newsletter never needs a reply.
    for (const [i, from, subject, text] of [
      [3, 'Ann Lee <ann@example.com>', 'Budget sign-off', 'Can you sign off the budget by Thursday?'],
      [2, 'Bob Stone <bob@example.com>', 'Lunch on Friday?', 'Are you free for lunch on Friday at noon?'],
      [1, 'Cara Diaz <cara@example.com>', 'Slides for Monday', 'Could you send me the slides for Monday?'],
    ] as const)
      threads[subject] = account.addMessage({
        from,
        subject,
        text,
        date: new Date(Date.now() - i * 3_600_000),
      }).threadId;
    account.addMessage({
      from: 'Weekly Digest <digest@news.example>',
      subject: 'This week in gardening',
      text: 'Ten tips for the autumn garden.',
      headers: { 'List-Unsubscribe': '<mailto:u@news.example>' },
    });
    // Gmail is connected once, before the tests (a retried test must not meet it connected).
    await stack.connectGoogle();
    // The first sync follows the connection.
    await vi.waitFor(async () => expect((await digestNow()).stats.needingResponse).toBe(3), {
      timeout: 20_000,
      interval: 250,
    });
  });
  afterAll(async () => stack?.stop());

  /** The count behind the open dialog (hidden from the accessibility tree while it is modal). */
  const countButton = (page: Page, n: number) =>
    page
      .getByRole('region', { name: 'Email Digest', includeHidden: true })
      .getByRole('button', { name: `Need a response, ${n}`, exact: true, includeHidden: true });

  /** The dialog once its mail body has painted in its frame (for the screenshots). */
  const bodyShown = (page: Page, subject: string, text: string) =>
    page
      .getByRole('dialog', { name: subject })
      .getByTitle('Email body')
      .contentFrame()
      .getByText(text)
      .waitFor();

  /** Sends the open reply through the confirmation the default preferences ask for. */
  async function send(page: Page, subject: string) {
    const sent = google.state.sent.length;
    await page.getByRole('dialog', { name: subject }).getByRole('button', { name: 'Send Response' }).click();
    await page
      .getByRole('alertdialog', { name: 'Send this email?' })
      .getByRole('button', { name: 'Send' })
      .click();
    await expect.poll(() => google.state.sent.length).toBe(sent + 1);
    expect(google.state.sent.at(-1)!.threadId).toBe(threads[subject]);
  }

  it('opens each e-mail needing a reply with its draft, drops it from the count on send, skips and stops', async () => {
    const { context, page } = await open();
    try {
      await page.goto('/assist');
      const digest = page.getByRole('region', { name: 'Email Digest' });
      // 'New since yesterday' stays a plain figure; 'Need a response' is the queue's button.
      await digest.getByText('New since yesterday').waitFor();
      expect(await digest.getByRole('button', { name: /New since yesterday/ }).count()).toBe(0);
      await page.screenshot({ path: shotPath('reply-queue-digest-light') });
      await digest.getByRole('button', { name: 'Need a response, 3', exact: true }).click();

      // The newest first, with the server's draft (the template, said so: no model is configured).
      const cara = page.getByRole('dialog', { name: 'Slides for Monday' });
      await cara.getByText('Reply queue 1 of 3').waitFor();
      const reply = cara.getByLabel('Your reply');
      await expect.poll(() => reply.inputValue()).toMatch(/^Hi Cara,\n\nThank you for your email/);
      expect(await reply.inputValue()).toContain('I have read it');
      await cara.getByText('No AI model is configured, so this reply starts from a template.').waitFor();
      await bodyShown(page, 'Slides for Monday', 'Could you send me the slides');
      await page.screenshot({ path: shotPath('reply-queue-light') });

      await send(page, 'Slides for Monday');
      // At once (no sync in between): the count drops and the next e-mail opens with its draft.
      await countButton(page, 2).waitFor({ state: 'attached', timeout: 3_000 });
      const bob = page.getByRole('dialog', { name: 'Lunch on Friday?' });
      await bob.getByText('Reply queue 2 of 3').waitFor();
      await expect.poll(() => bob.getByLabel('Your reply').inputValue()).toMatch(/^Hi Bob,/);
      await cara.waitFor({ state: 'detached' });

      // Skip leaves Bob's e-mail as it is.
      await bob.getByRole('button', { name: 'Skip' }).click();
      const ann = page.getByRole('dialog', { name: 'Budget sign-off' });
      await ann.getByText('Reply queue 3 of 3').waitFor();
      await expect.poll(() => ann.getByLabel('Your reply').inputValue()).toMatch(/^Hi Ann,/);
      expect(google.state.sent).toHaveLength(1);

      // Closing the dialog ends the queue: nothing else opens, nothing else is sent.
      await ann.getByRole('button', { name: 'Cancel' }).click();
      await ann.waitFor({ state: 'detached' });
      await digest.getByRole('button', { name: 'Need a response, 2', exact: true }).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(google.state.sent).toHaveLength(1);
      expect((await digestNow()).stats.needingResponse).toBe(2);

      // Again: a saved draft moves on but the e-mail still needs a reply; the end says so.
      await digest.getByRole('button', { name: 'Need a response, 2', exact: true }).click();
      await bob.getByText('Reply queue 1 of 2').waitFor();
      await expect.poll(() => bob.getByLabel('Your reply').inputValue()).toMatch(/^Hi Bob,/);
      await bob.getByRole('button', { name: 'Save Draft' }).click();
      await ann.getByText('Reply queue 2 of 2').waitFor();
      expect(google.state.drafts.at(-1)!.threadId).toBe(threads['Lunch on Friday?']);
      await countButton(page, 2).waitFor({ state: 'attached' });
      await expect.poll(() => ann.getByLabel('Your reply').inputValue()).toMatch(/^Hi Ann,/);
      await send(page, 'Budget sign-off');
      await page.getByText('End of the reply queue', { exact: true }).waitFor();
      await page.getByText('1 email still needs a response.', { exact: true }).waitFor();
      await ann.waitFor({ state: 'detached' });
      await digest.getByRole('button', { name: 'Need a response, 1', exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('ends with All caught up once the last one is answered (dark)', async () => {
    const { context, page } = await open('dark');
    try {
      await page.goto('/assist');
      const digest = page.getByRole('region', { name: 'Email Digest' });
      const start = digest.getByRole('button', { name: 'Need a response, 1', exact: true });
      await start.waitFor();
      await page.screenshot({ path: shotPath('reply-queue-digest-dark') });
      await start.click();
      const bob = page.getByRole('dialog', { name: 'Lunch on Friday?' });
      await bob.getByText('Reply queue 1 of 1').waitFor();
      await expect.poll(() => bob.getByLabel('Your reply').inputValue()).toMatch(/^Hi Bob,/);
      await bob.getByText('No AI model is configured, so this reply starts from a template.').waitFor();
      await bodyShown(page, 'Lunch on Friday?', 'Are you free for lunch');
      await page.screenshot({ path: shotPath('reply-queue-dark') });
      await send(page, 'Lunch on Friday?');
      await page.getByText('All caught up', { exact: true }).waitFor();
      await bob.waitFor({ state: 'detached' });
      // Nothing left: the figure is no longer a button.
      await digest.getByText('Need a response').waitFor();
      expect(await digest.getByRole('button', { name: /Need a response/ }).count()).toBe(0);
      await page.screenshot({ path: shotPath('reply-queue-done-dark') });
      expect((await digestNow()).stats.needingResponse).toBe(0);
    } finally {
      await context.close();
    }
  });
});
