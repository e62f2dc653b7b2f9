/// <reference lib="dom" />
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiDouble } from '../doubles/openai-server';
import { shotPath, startSignedInProduct } from './harness';

/**
 * The capture dialog, the cards it leads to and the search overlay, at 390×844, with a model that
 * takes every entry for a chat (as the one in issue 20 did with "Schedule a meeting with Tom").
 */
describe('capturing in Chromium at 390×844', () => {
  let llm: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;

  beforeAll(async () => {
    llm = await startOpenAiDouble({
      reply: (r) => (r.schemaName === 'entry_type' ? { type: 'chat' } : 'Happy to help with that.'),
    });
    stack = await startSignedInProduct(
      { username: 'noor', email: 'noor@example.com', password: 'quiet-garden' },
      { env: { OPENAI_BASE_URL: llm.url, OPENAI_API_KEY: 'test-key' } },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.stop();
  });

  const open = (path: string, colorScheme: 'light' | 'dark' = 'light') => stack.open(path, colorScheme);

  /** Opens the capture dialog in keyboard mode and types the text. */
  const capture = async (page: Page, text: string) => {
    await page.getByRole('button', { name: 'Add thought' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Thought' });
    await dialog.getByRole('button', { name: 'Keyboard' }).click();
    await dialog.getByRole('textbox', { name: 'Your thought' }).fill(text);
    return dialog;
  };

  const api = async (page: Page, path: string) => {
    const res = await page.request.get(path);
    expect(res.status()).toBe(200);
    return res.json() as Promise<unknown>;
  };
  const allThoughts = (page: Page) => api(page, '/api/thoughts/all') as Promise<Array<{ content: string }>>;
  const conversations = (page: Page) => api(page, '/api/conversations') as Promise<Array<{ id: number }>>;

  it('saves a note to self as a thought whatever the model says, then offers its actions on the card', async () => {
    const { context, page } = await open('/home');
    const savedCard = page.getByRole('region', { name: 'Your saved thought' });
    for (const [note, chip] of [
      [
        'Schedule a meeting with Tom on Thursday at 3pm',
        /^Add to calendar · Thu, [A-Z][a-z]{2} \d{1,2}, 3:00 PM$/,
      ],
      ['I need to email Tom about the lease.', /^Draft e-mail to Tom$/],
    ] as const) {
      const classified = page.waitForResponse((r) => r.url().endsWith('/api/analyze-content'));
      const dialog = await capture(page, note);
      // Once classified, it still reads as a thought: the rule answers before the model is asked.
      expect(await (await classified).json()).toEqual({ type: 'thought' });
      await dialog.getByRole('button', { name: 'Save Thought' }).click();
      await page.getByText('Thought saved', { exact: true }).waitFor();
      await dialog.waitFor({ state: 'hidden' });
      // Right after saving, on the screen it was saved from, its card offers what was found in it.
      await savedCard.getByRole('button', { name: chip }).waitFor();
      await expect.poll(() => savedCard.textContent()).toContain(note);
    }
    await page.screenshot({ path: shotPath('capture-saved-card-home') });
    await savedCard.getByRole('button', { name: 'Draft e-mail to Tom' }).click();
    const fromHome = page.getByRole('dialog', { name: 'Draft Email' });
    expect(await fromHome.getByLabel('Message').inputValue()).toMatch(/^Hi Tom,/);
    await page.keyboard.press('Escape');
    await fromHome.waitFor({ state: 'hidden' });
    await savedCard.getByRole('button', { name: 'Dismiss' }).click();
    await savedCard.waitFor({ state: 'detached' });
    expect(llm.chatRequests().filter((r) => JSON.stringify(r).includes('entry_type'))).toEqual([]);
    await expect.poll(async () => (await allThoughts(page)).length).toBe(2);
    expect(await conversations(page)).toEqual([]);

    await page.goto('/timeline');
    const event = page.getByRole('button', {
      name: /^Add to calendar · Thu, [A-Z][a-z]{2} \d{1,2}, 3:00 PM$/,
    });
    await event.waitFor();
    const email = page.getByRole('button', { name: 'Draft e-mail to Tom' });
    await email.waitFor();
    for (const chip of [event, email]) expect((await chip.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: shotPath('capture-card-actions'), fullPage: true });

    // From the keyboard: the chip is a button of its own, and opens the prefilled event dialog.
    await event.focus();
    await page.keyboard.press('Enter');
    const eventDialog = page.getByRole('dialog', { name: 'Add to Calendar' });
    await eventDialog.waitFor();
    expect(await eventDialog.getByLabel('Title').inputValue()).toMatch(/meeting with Tom/i);
    expect(await eventDialog.getByLabel('Start time').inputValue()).toBe('15:00');
    expect(await eventDialog.getByLabel('End time').inputValue()).toBe('16:00');
    await page.keyboard.press('Escape');
    await eventDialog.waitFor({ state: 'hidden' });

    await email.click();
    const emailDialog = page.getByRole('dialog', { name: 'Draft Email' });
    await emailDialog.waitFor();
    expect(await emailDialog.getByLabel('Subject').inputValue()).toMatch(/lease/i);
    expect(await emailDialog.getByLabel('Message').inputValue()).toMatch(/^Hi Tom,/);
    await context.close();

    const dark = await open('/timeline', 'dark');
    await dark.page.getByRole('button', { name: 'Draft e-mail to Tom' }).waitFor();
    await dark.page.screenshot({ path: shotPath('capture-card-actions-dark'), fullPage: true });
    await dark.context.close();
  });

  it('says before sending that an entry goes to the assistant, and saves it as a thought on request', async () => {
    const { context, page } = await open('/home');
    const dialog = await capture(page, 'What should I cook tonight?');
    const hint = dialog.getByText('This will go to the assistant as a question.');
    await hint.waitFor();
    await dialog.getByRole('button', { name: 'Start Chat' }).waitFor();
    await page.screenshot({ path: shotPath('capture-chat-hint') });
    await dialog.getByRole('button', { name: 'Save as a thought instead' }).click();
    await dialog.getByText('This will be saved as a thought.').waitFor();
    await dialog.getByRole('button', { name: 'Save Thought' }).click();
    await page.getByText('Thought saved', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/home');
    expect((await allThoughts(page)).map((t) => t.content)).toContain('What should I cook tonight?');
    expect(await conversations(page)).toEqual([]);
    await context.close();

    const dark = await open('/home', 'dark');
    await capture(dark.page, 'What should I read next?');
    await dark.page.getByText('This will go to the assistant as a question.').waitFor();
    await dark.page.screenshot({ path: shotPath('capture-chat-hint-dark') });
    await dark.context.close();
  });

  it('undoes a chat: the conversation goes, the text is saved as a thought, and the screen comes back', async () => {
    const { context, page } = await open('/home');
    const dialog = await capture(page, 'What should I plant in spring?');
    await dialog.getByRole('button', { name: 'Start Chat' }).click({ timeout: 10_000 });
    await page.waitForURL(/\/conversations\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByText('Conversation started').waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.waitForURL(/\/home$/);
    await page.getByText('Thought saved', { exact: true }).waitFor();
    await expect.poll(async () => (await conversations(page)).map((c) => c.id)).not.toContain(id);
    expect((await allThoughts(page)).map((t) => t.content)).toContain('What should I plant in spring?');
    await context.close();
  });

  it('counts characters near the 10,000 limit and explains the limit', async () => {
    const { context, page } = await open('/home');
    const dialog = await capture(page, 'a'.repeat(8_999));
    await expect.poll(() => dialog.getByText('/ 10,000').count()).toBe(0);
    const box = dialog.getByRole('textbox', { name: 'Your thought' });
    await box.fill('a'.repeat(9_500));
    await dialog.getByText('9,500 / 10,000').waitFor();
    // A screen reader hears it once typing pauses, through a polite live region.
    await expect
      .poll(() => dialog.getByRole('status').filter({ hasText: 'characters left' }).textContent())
      .toBe('500 characters left.');
    await box.fill('a'.repeat(10_000));
    await dialog.getByText('10,000 / 10,000').waitFor();
    await dialog.getByText("You've reached the 10,000-character limit.").first().waitFor();
    await box.press('End');
    await page.keyboard.type('more');
    expect((await box.inputValue()).length).toBe(10_000);
    expect(await box.getAttribute('aria-describedby')).toBeTruthy();
    await page.screenshot({ path: shotPath('capture-limit') });
    await context.close();
  });

  it('closes the search with Back and stays on the screen underneath', async () => {
    const { context, page } = await open('/assist');
    await page.getByRole('link', { name: 'Insights' }).click();
    await page.waitForURL(/\/home$/);
    await page.getByRole('button', { name: 'Search' }).click();
    const search = page.getByRole('dialog', { name: 'Search' });
    await search.waitFor();
    await page.goBack();
    await search.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/home');
    await page.getByRole('button', { name: 'Search' }).waitFor();

    // Closing it from the overlay leaves no extra step in the history: Back then leaves /home.
    await page.getByRole('button', { name: 'Search' }).click();
    await search.waitFor();
    await page.getByRole('button', { name: 'Close search' }).click();
    await search.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/home');
    await page.goBack();
    await page.waitForURL(/\/assist$/);
    await context.close();
  });
});
