/// <reference lib="dom" />
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiDouble } from '../doubles/openai-server';
import { shotPath, startSignedInProduct } from './harness';

const EMAIL_REPLY =
  'Here is a draft:\n\nTo: sarah@example.com\nSubject: Launch summary\n\nHi Sarah,\n\nHere is the summary of the launch plan we talked about this week.\n\nBest,\nIra';

describe('the assistant in Chromium at 390×844', () => {
  let llm: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  /** While set, the model holds its answer (to see 'Thinking...'). */
  let hold: Promise<void> | undefined;

  beforeAll(async () => {
    llm = await startOpenAiDouble({
      delay: () => hold,
      reply: (r) =>
        /draft/i.test(r.user)
          ? EMAIL_REPLY
          : r.schemaName === 'entry_type'
            ? { type: 'chat' }
            : 'Happy to help with that.',
    });
    stack = await startSignedInProduct(
      { username: 'ira', email: 'ira@example.com', password: 'correct horse', name: 'Ira' },
      { env: { OPENAI_BASE_URL: llm.url } },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.stop();
  });

  const open = async (path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> =>
    (await stack.open(path, colorScheme)).page;

  it('sends from the Assist screen, lands on the conversation, shows Thinking..., then the reply', async () => {
    const page = await open('/assist');
    await page.getByRole('link', { name: 'Connect Gmail' }).waitFor();
    await page.screenshot({ path: shotPath('assist') });
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    await page.getByLabel('Message the assistant').fill('Please plan my week');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/conversations\/\d+$/);
    await page.getByRole('listitem').filter({ hasText: 'Please plan my week' }).waitFor();
    await page.getByText('Thinking...').waitFor();
    hold = undefined;
    release();
    await page.getByText('Happy to help with that.').waitFor({ timeout: 15_000 });
    expect(await page.getByText('Thinking...').count()).toBe(0);
    await page.screenshot({ path: shotPath('conversation') });
  });

  it('turns an e-mail-like reply into an Edit & Draft Email button; an address the user never gave waits to be taken', async () => {
    const page = await open('/conversations', 'dark');
    await page.getByRole('link', { name: 'New Conversation' }).click();
    await page.waitForURL(/\/conversations\/new$/);
    await page.getByText('No messages yet').waitFor();
    await page.getByLabel('Message').fill('Draft an email to Sarah about the launch');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/conversations\/\d+$/);
    await page.getByRole('button', { name: 'Edit & Draft Email' }).click({ timeout: 15_000 });
    const dialog = page.getByRole('dialog');
    // The model named an address the user never gave: shown, not filled in until the user takes it.
    await dialog.getByText('This address is not in your question, your mail or your calendar.').waitFor();
    expect(await dialog.getByLabel('To').inputValue()).toBe('');
    await dialog.getByRole('button', { name: 'Use this address' }).click();
    expect(await dialog.getByLabel('To').inputValue()).toBe('sarah@example.com');
    expect(await dialog.getByLabel('Subject').inputValue()).toBe('Launch summary');
    expect(await dialog.getByLabel('Message').inputValue()).toMatch(/^Here is a draft:[\s\S]*Hi Sarah,/);
    await page.screenshot({ path: shotPath('conversation-draft-dark') });
    // No mail account yet: saving the draft fails with the spec's toast, nothing is faked.
    await dialog.getByRole('button', { name: 'Save Draft' }).click();
    await page.getByText('Draft Save Failed').waitFor();
  });

  it('starts a chat from the capture dialog', async () => {
    const page = await open('/home');
    await page.getByRole('button', { name: 'Add thought' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Keyboard' }).click();
    await dialog.getByRole('textbox').first().fill('Can you help me plan the garden?');
    await page.getByRole('button', { name: 'Start Chat' }).click({ timeout: 10_000 });
    await page.waitForURL(/\/conversations\/\d+$/);
    await page.getByText('Conversation started').waitFor();
    await page.getByText('Happy to help with that.').waitFor({ timeout: 15_000 });
  });

  it('lists conversations with their badges and deletes one after confirmation', async () => {
    const page = await open('/conversations');
    const cards = page.getByRole('listitem');
    await cards.first().waitFor();
    const before = await cards.count();
    await page.getByText('Email integration used').first().waitFor();
    await page.screenshot({ path: shotPath('conversations') });
    await page
      .getByRole('button', { name: /^Delete / })
      .first()
      .click();
    await page
      .getByRole('alertdialog')
      .getByText('Are you sure you want to delete this conversation? This action cannot be undone.')
      .waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Conversation deleted').waitFor();
    await expect.poll(() => cards.count()).toBe(before - 1);
  });
});
