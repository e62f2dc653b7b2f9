/// <reference lib="dom" />
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_MICROPHONE_ARGS, shotPath, startSignedInProduct } from './harness';

/**
 * A fake SpeechRecognition that starts and stays quiet: headless Chromium's real one needs Google's
 * servers and fails at once, which would always send the dialog to keyboard mode.
 */
const QUIET_RECOGNITION = `
  class QuietRecognition extends EventTarget {
    constructor() { super(); this.lang = ''; this.continuous = false; this.interimResults = false; this.onresult = null; this.onerror = null; this.onend = null; this.onstart = null; }
    start() { setTimeout(() => this.onstart && this.onstart(new Event('start')), 0); }
    stop() { setTimeout(() => this.onend && this.onend(new Event('end')), 0); }
    abort() { this.stop(); }
  }
  window.SpeechRecognition = QuietRecognition;
  window.webkitSpeechRecognition = QuietRecognition;
`;

describe('thoughts in Chromium at 390×844 with a fake microphone', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;

  beforeAll(async () => {
    stack = await startSignedInProduct(
      { username: 'sam', email: 'sam@example.com', password: 'garden-pass' },
      { browserArgs: FAKE_MICROPHONE_ARGS },
    );
  });
  afterAll(async () => stack?.stop());

  const open = (path: string, initScript?: string) =>
    stack.open(path, 'light', { microphone: true, initScript });
  const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first().waitFor();

  it('opens in voice mode with a live 40-bar waveform', async () => {
    const { context, page } = await open('/home', QUIET_RECOGNITION);
    await page.getByRole('button', { name: 'Add thought' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Thought' });
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: 'Voice' }).getAttribute('aria-pressed')).toBe('true');
    const waveform = page.getByTestId('waveform');
    await waveform.waitFor();
    expect(await waveform.locator(':scope > *').count()).toBe(40);
    // The fake device beeps: the bars follow the microphone's real levels.
    const levels = new Set<string>();
    for (let i = 0; i < 20 && levels.size < 3; i++) {
      levels.add(
        (await waveform
          .locator(':scope > *')
          .evaluateAll((bars) => bars.map((b) => b.getAttribute('data-level')).join())) ?? '',
      );
      await page.waitForTimeout(100);
    }
    expect(levels.size).toBeGreaterThan(1);
    await page.screenshot({ path: shotPath('capture-voice') });
    await context.close();
  });

  it('falls back to the keyboard, saying why in the sheet, when speech recognition is unavailable', async () => {
    const { context, page } = await open(
      '/home',
      'delete window.SpeechRecognition; delete window.webkitSpeechRecognition;',
    );
    await page.getByRole('button', { name: 'Add thought' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Thought' });
    // Said in the sheet (a toast would cover its buttons).
    await dialog.getByText('Speech recognition not available', { exact: false }).waitFor();
    await expect
      .poll(() => dialog.getByRole('button', { name: 'Keyboard' }).getAttribute('aria-pressed'))
      .toBe('true');
    await dialog.getByLabel('Your thought').waitFor();
    await context.close();
  });

  it('types a thought, sees it on today, tags it, finds it by tag, and deletes it', async () => {
    const { context, page } = await open('/home', QUIET_RECOGNITION);
    const content = 'Planted tomatoes with Sam today';

    await page.getByRole('button', { name: 'Add thought' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Thought' });
    await dialog.getByRole('button', { name: 'Keyboard' }).click();
    await dialog.getByLabel('Your thought').fill(content);
    const save = dialog.getByRole('button', { name: 'Save Thought' });
    await save.waitFor();
    await save.click();
    await toast(page, 'Thought saved');
    await dialog.waitFor({ state: 'detached' });

    await page.goto('/timeline');
    await page.getByRole('heading', { name: "Today's Thoughts" }).waitFor();
    const card = page.getByRole('button', { name: content });
    await card.waitFor();
    await page.screenshot({ path: shotPath('timeline-today') });

    await card.click();
    const edit = page.getByRole('dialog', { name: 'Edit Thought' });
    await edit.getByLabel('Add tag...').fill('garden');
    await edit.getByRole('button', { name: 'Add', exact: true }).click();
    await edit.getByRole('button', { name: 'Remove tag garden' }).waitFor();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Thought updated');
    await edit.waitFor({ state: 'detached' });

    await page.goto('/home');
    await page.getByRole('button', { name: 'Search' }).click();
    const search = page.getByRole('dialog', { name: 'Search' });
    await search.getByRole('heading', { name: 'Popular Tags' }).waitFor();
    await search.getByRole('button', { name: 'garden, 1 thought' }).click();
    await search.getByRole('heading', { name: 'Search Results (1)' }).waitFor();
    await page.screenshot({ path: shotPath('search-by-tag') });
    await search.getByRole('list', { name: 'Search results' }).getByRole('button', { name: content }).click();

    const again = page.getByRole('dialog', { name: 'Edit Thought' });
    await again.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to delete this thought?' });
    await confirm
      .getByText('This action cannot be undone. This thought will be permanently deleted from your records.')
      .waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Thought deleted');

    await page.goto('/timeline');
    await page.getByText('No thoughts for this day.').waitFor();
    await context.close();
  });
});
