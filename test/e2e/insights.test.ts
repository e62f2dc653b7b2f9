/// <reference lib="dom" />
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shotPath, startSignedInProduct } from './harness';

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('insights in Chromium at 390×844, no model configured', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;

  beforeAll(async () => {
    stack = await startSignedInProduct({
      username: 'ines',
      email: 'ines@example.com',
      password: 'correct horse',
      name: 'Ines',
    });
    const write = (content: string, tags: string[] = []) =>
      stack.writeThought(content, { category: 'professional', tags });
    await write('The launch plan is slipping and I feel anxious about the budget review with Anna.', [
      'launch',
    ]);
    await write('I need to email Sarah the summary of the launch plan tomorrow.', ['launch']);
    await write('Meet Tom on Tuesday at 3pm to talk about the garden design.');
  });
  afterAll(async () => stack?.stop());

  async function openInsights(colorScheme: 'light' | 'dark'): Promise<Page> {
    return (await stack.open('/home', colorScheme)).page;
  }

  it('shows Generating insights…, then a basic summary whose chips open the cited thoughts', async () => {
    const page = await openInsights('light');
    await page.getByText('Generating insights…').waitFor({ timeout: 10_000 });
    await page.getByRole('heading', { name: 'Summary' }).waitFor({ timeout: 15_000 });
    await page.getByText('Basic insight, made on this server without AI').waitFor();
    await page.screenshot({ path: shotPath('insights-daily'), fullPage: true });
    await page.getByRole('button', { name: 'Open cited thought #1' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Thought #1' }).waitFor();
    expect(await dialog.textContent()).toMatch(/launch plan/);
    await page.keyboard.press('Escape');

    // The action buttons by keyword, and the event dialog prefilled from the thought.
    // 'Email Sarah…' quotes "launch plan": both keyword sets match, so a menu offers both.
    await page.getByRole('button', { name: 'Take Action' }).click();
    await page.getByRole('menuitem', { name: 'Draft Email' }).click();
    const mail = page.getByRole('dialog');
    await mail.getByRole('heading', { name: 'Draft Email' }).waitFor();
    // A first name is no address: To stays empty, the greeting names her.
    expect(await mail.getByLabel('To').inputValue()).toBe('');
    expect(await mail.getByLabel('Message').inputValue()).toMatch(/^Hi Sarah,/);
    expect(await mail.getByLabel('Subject').inputValue()).toBe('The summary of the launch plan');
    await mail.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Add to Calendar' }).first().click();
    const event = page.getByRole('dialog');
    await event.getByRole('heading', { name: 'Add to Calendar' }).waitFor();
    expect(await event.getByLabel('Title').inputValue()).toMatch(/^Meet Tom/);
    expect(await event.getByLabel('Start time').inputValue()).toBe('15:00');
    await page.screenshot({ path: shotPath('insights-event-dialog') });
    await event.getByRole('button', { name: 'Cancel' }).click();
  });

  it('shows the week and month with the mood chart, and refreshes', async () => {
    const page = await openInsights('dark');
    await page.getByRole('heading', { name: 'Summary' }).waitFor({ timeout: 15_000 });
    await page.getByRole('tab', { name: 'Weekly' }).click();
    await page.getByLabel('Mood by day').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: shotPath('insights-weekly-dark'), fullPage: true });
    // Nothing is wider than the phone: the chart's table for screen readers stretched the page to 453 px.
    const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    await page.getByRole('tab', { name: 'Monthly' }).click();
    await page.getByLabel('Mood by day').waitFor({ timeout: 15_000 });
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    await expect(
      page.getByRole('table', { name: 'Mood and number of thoughts for each day' }).count(),
    ).resolves.toBe(1);
    await page.getByRole('button', { name: 'Refresh Insights' }).click();
    await page.getByRole('heading', { name: 'Summary' }).waitFor({ timeout: 15_000 });
    expect(today()).toMatch(/^\d{4}-/);
  });

  it('says so when a day has no thoughts', async () => {
    const page = await openInsights('light');
    await page.getByRole('heading', { name: 'Summary' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Previous period' }).click();
    const empty = page.getByText('Not enough thoughts recorded to generate meaningful insights.');
    await empty.waitFor({ timeout: 10_000 });
    expect(await empty.isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Summary' }).count()).toBe(0);
  });
});
