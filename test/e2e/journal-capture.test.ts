/// <reference lib="dom" />
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, Route } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiDouble } from '../doubles/openai-server';
import { animationsEnded, shotPath, startSignedInProduct } from './harness';

/**
 * A speech recognizer that starts and stays quiet (headless Chromium's own needs Google's servers),
 * and a microphone: one that works (a silent Web Audio stream, no device needed) or one the user
 * refused (getUserMedia rejects with NotAllowedError, as Chromium does after "Block").
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
const WORKING_MICROPHONE = `${QUIET_RECOGNITION}
  navigator.mediaDevices.getUserMedia = async () => {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const out = audio.createMediaStreamDestination();
    tone.connect(out);
    tone.start();
    return out.stream;
  };
`;
/**
 * A microphone whose permission answer waits for the test: `window.microphoneAsked` counts the
 * requests, and `window.refuseMicrophone()` refuses the last one.
 */
const MICROPHONE_REFUSED_LATER = `${QUIET_RECOGNITION}
  window.microphoneAsked = 0;
  navigator.mediaDevices.getUserMedia = () =>
    new Promise((_, reject) => {
      window.microphoneAsked += 1;
      window.refuseMicrophone = () => reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
`;
const REFUSED_MICROPHONE = `${QUIET_RECOGNITION}
  navigator.mediaDevices.getUserMedia = () =>
    Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
`;

/** `yyyy-MM-dd` of the local day `days` before today. */
function daysAgo(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() - days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

describe('the journal capture in Chromium at 390×844', () => {
  let llm: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;

  beforeAll(async () => {
    // A question is a chat, anything else a thought.
    llm = await startOpenAiDouble({
      reply: (r) =>
        r.schemaName === 'entry_type' ? { type: r.user.includes('?') ? 'chat' : 'thought' } : 'Noted.',
    });
    stack = await startSignedInProduct(
      { username: 'ines', email: 'ines@example.com', password: 'river-stones' },
      { env: { OPENAI_BASE_URL: llm.url, OPENAI_API_KEY: 'test-key' } },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.stop();
  });

  const open = (where: string, microphone = WORKING_MICROPHONE) =>
    stack.open(where, 'light', { initScript: microphone });

  /** Serious or critical accessibility faults in the open dialogs (contrast included). */
  const audit = async (page: Page, label: string) => {
    const { violations } = await new AxeBuilder({ page })
      .include('[role="dialog"], [role="alertdialog"]')
      .analyze();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${label}: ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };

  /** A screenshot in light and in dark (the theme follows the system setting), each audited. */
  const shoot = async (page: Page, name: string) => {
    await page.screenshot({ path: shotPath(`${name}-light`) });
    const faults = await audit(page, `${name} light`);
    await page.emulateMedia({ colorScheme: 'dark' });
    // Past the colour transitions (150 ms), so the picture is the dark theme, not a blend.
    await page.waitForTimeout(600);
    await page.screenshot({ path: shotPath(`${name}-dark`) });
    faults.push(...(await audit(page, `${name} dark`)));
    expect(faults).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForTimeout(600);
  };

  const openCapture = async (page: Page) => {
    await page.getByRole('button', { name: 'Add thought' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Thought' });
    await dialog.waitFor();
    return dialog;
  };
  const pressed = (dialog: Locator, mode: 'Voice' | 'Keyboard') =>
    dialog.getByRole('button', { name: mode, exact: true }).getAttribute('aria-pressed');
  const typeInKeyboard = async (dialog: Locator, text: string) => {
    if ((await pressed(dialog, 'Keyboard')) !== 'true')
      await dialog.getByRole('button', { name: 'Keyboard', exact: true }).click();
    const box = dialog.getByRole('textbox', { name: 'Your thought' });
    await box.fill(text);
    return box;
  };
  /** The capture draft as stored in this page's IndexedDB ('haven-drafts'), whoever it belongs to. */
  const storedDraft = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<string | undefined>((resolve, reject) => {
          const opening = indexedDB.open('haven-drafts');
          opening.onerror = () => reject(opening.error);
          opening.onsuccess = () => {
            const db = opening.result;
            if (!db.objectStoreNames.contains('drafts')) return resolve(undefined);
            const all = db.transaction('drafts').objectStore('drafts').getAll();
            all.onsuccess = () => {
              const capture = (all.result as Array<{ text: string }>)[0];
              resolve(capture?.text);
            };
            all.onerror = () => reject(all.error);
          };
        }),
    );
  const allThoughts = async (page: Page) => {
    const res = await page.request.get('/api/thoughts/all');
    expect(res.status()).toBe(200);
    return (await res.json()) as Array<{ content: string; tags: string[]; localDate: string; date: string }>;
  };
  const discardConfirm = (page: Page) => page.getByRole('alertdialog', { name: 'Discard this thought?' });

  it('keeps typed writing through Escape, a tap outside and a reload, and asks before discarding it', async () => {
    const { context, page } = await open('/home');
    const text = 'Walked along the canal at dusk; the herons were back.';
    let dialog = await openCapture(page);
    let box = await typeInKeyboard(dialog, text);

    await page.keyboard.press('Escape');
    await discardConfirm(page).waitFor();
    await shoot(page, 'capture-discard-confirm');
    await discardConfirm(page).getByRole('button', { name: 'Keep writing' }).click();
    await discardConfirm(page).waitFor({ state: 'hidden' });
    expect(await box.inputValue()).toBe(text);

    // A tap on the dimmed page around the sheet asks too.
    await page.mouse.click(4, 4);
    await discardConfirm(page).waitFor();
    await discardConfirm(page).getByRole('button', { name: 'Keep writing' }).click();
    expect(await box.inputValue()).toBe(text);

    // Kept on the device as typed: a reload loses nothing.
    await page.reload();
    dialog = await openCapture(page);
    box = dialog.getByRole('textbox', { name: 'Your thought' });
    await expect.poll(() => box.inputValue()).toBe(text);
    await dialog.getByText('Draft restored', { exact: false }).waitFor();

    // Cancel asks as well; discarding deletes the draft for good.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await discardConfirm(page).getByRole('button', { name: 'Discard' }).click();
    await dialog.waitFor({ state: 'hidden' });
    dialog = await openCapture(page);
    expect(await dialog.getByRole('textbox', { name: 'Your thought' }).inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.reload();
    dialog = await openCapture(page);
    await page.waitForTimeout(300);
    expect(await dialog.getByRole('textbox', { name: 'Your thought' }).inputValue()).toBe('');
    await context.close();
  });

  it('deletes the drafts on this device at logout', async () => {
    // A session of its own: logging out revokes it, and the other tests keep theirs.
    const { context, page } = await stack.newPage('light', { signedIn: false });
    await page.addInitScript(WORKING_MICROPHONE);
    const login = () =>
      page.request.post('/api/login', { data: { email: 'ines@example.com', password: 'river-stones' } });
    expect((await login()).status()).toBe(200);
    await page.goto('/home');
    let dialog = await openCapture(page);
    await typeInKeyboard(dialog, 'Half a thought before logging out');
    await expect.poll(() => storedDraft(page)).toBe('Half a thought before logging out');
    await page.reload();
    dialog = await openCapture(page);
    await expect
      .poll(() => dialog.getByRole('textbox', { name: 'Your thought' }).inputValue())
      .toBe('Half a thought before logging out');

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Display' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/welcome');
    // Deleted by the time the signed-in screens are left, not some time after.
    expect(await storedDraft(page)).toBeUndefined();
    expect((await login()).status()).toBe(200);
    await page.goto('/home');
    dialog = await openCapture(page);
    await page.waitForTimeout(300);
    expect(await dialog.getByRole('textbox', { name: 'Your thought' }).inputValue()).toBe('');
    await context.close();
  });

  it('keeps the draft when a save fails, and deletes it once saved', async () => {
    const { context, page } = await open('/home');
    const refuse = (route: Route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 400, json: { message: 'Refused for the test', code: 'bad_request' } })
        : route.continue();
    await page.route('**/api/thoughts', refuse);
    const text = 'A failed save must not lose this line.';
    let dialog = await openCapture(page);
    await typeInKeyboard(dialog, text);
    await dialog.getByRole('button', { name: 'Save Thought' }).click();
    await page.getByText('Submission error', { exact: true }).waitFor();
    expect(await dialog.isVisible()).toBe(true);

    await page.unroute('**/api/thoughts', refuse);
    await page.reload();
    dialog = await openCapture(page);
    const box = dialog.getByRole('textbox', { name: 'Your thought' });
    await expect.poll(() => box.inputValue()).toBe(text);
    await dialog.getByRole('button', { name: 'Save Thought' }).click();
    await page.getByText('Thought saved', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect((await allThoughts(page)).map((t) => t.content)).toContain(text);

    await page.reload();
    dialog = await openCapture(page);
    await page.waitForTimeout(300);
    expect(await dialog.getByRole('textbox', { name: 'Your thought' }).inputValue()).toBe('');
    await context.close();
  });

  it('opens the keyboard with the reason in the sheet when the microphone is refused, and remembers the mode chosen', async () => {
    const refused = await open('/home', REFUSED_MICROPHONE);
    let dialog = await openCapture(refused.page);
    await expect.poll(() => pressed(dialog, 'Keyboard')).toBe('true');
    await dialog.getByText("You're typing instead.", { exact: false }).waitFor();
    // Said in the sheet, not in a toast over its buttons.
    await refused.page.waitForTimeout(500);
    expect(await refused.page.getByText('Microphone access denied').count()).toBe(
      await dialog.getByText('Microphone access denied').count(),
    );
    await expect
      .poll(() =>
        dialog.getByRole('textbox', { name: 'Your thought' }).evaluate((e) => e === document.activeElement),
      )
      .toBe(true);
    await shoot(refused.page, 'capture-keyboard-refused-microphone');
    await refused.context.close();

    const { context, page } = await open('/home');
    dialog = await openCapture(page);
    expect(await pressed(dialog, 'Voice')).toBe('true');
    await page.getByTestId('waveform').waitFor();
    await page.waitForTimeout(400);
    await shoot(page, 'capture-voice');
    await dialog.getByRole('button', { name: 'Keyboard', exact: true }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    dialog = await openCapture(page);
    expect(await pressed(dialog, 'Keyboard')).toBe('true');
    await page.reload();
    dialog = await openCapture(page);
    expect(await pressed(dialog, 'Keyboard')).toBe('true');
    await dialog.getByRole('button', { name: 'Voice', exact: true }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    dialog = await openCapture(page);
    expect(await pressed(dialog, 'Voice')).toBe('true');
    await context.close();
  });

  it('keeps every key typed while a refused microphone moves the sheet to the keyboard', async () => {
    const text = 'The ferry was late again, so I read on the pier until the light went.';
    const { context, page } = await open('/home', MICROPHONE_REFUSED_LATER);
    // The refusal lands mid-sentence. Five times: where it falls between two keys varies, and before
    // the fix two runs in three lost some of the sentence.
    for (let round = 0; round < 5; round++) {
      const dialog = await openCapture(page);
      await dialog.getByRole('textbox', { name: 'Live transcript' }).focus();
      const typing = page.keyboard.type(text, { delay: 5 });
      await page.waitForFunction(
        (asked) =>
          (window as unknown as { microphoneAsked: number }).microphoneAsked === asked &&
          (document.activeElement as HTMLTextAreaElement).value?.length >= 12,
        round + 1,
      );
      await page.evaluate(() => (window as unknown as { refuseMicrophone(): void }).refuseMicrophone());
      await typing;
      const box = dialog.getByRole('textbox', { name: 'Your thought' });
      expect(await box.inputValue()).toBe(text);
      // Emptied, so Cancel closes without asking, and the next opening has no draft to restore.
      await box.fill('');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
    }
    await context.close();
  });

  it('saves #tags typed in the text as tags, and suggests the tags already used', async () => {
    const { context, page } = await open('/home');
    let dialog = await openCapture(page);
    await typeInKeyboard(dialog, 'Ran 5k this morning #health #running');
    await dialog.getByRole('button', { name: 'Save Thought' }).click();
    await page.getByText('Thought saved', { exact: true }).waitFor();
    const saved = (await allThoughts(page)).find((t) => t.content.startsWith('Ran 5k'));
    expect(saved?.tags).toEqual(['health', 'running']);

    dialog = await openCapture(page);
    const box = await typeInKeyboard(dialog, 'Evening stretch ');
    await box.press('End');
    await page.keyboard.type('#he');
    const list = dialog.getByRole('listbox', { name: 'Tag suggestions' });
    const option = list.getByRole('option', { name: 'health' });
    await option.waitFor();
    await animationsEnded(dialog);
    expect((await option.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await shoot(page, 'capture-tag-suggestions');
    await page.keyboard.press('Enter');
    expect(await box.inputValue()).toBe('Evening stretch #health ');
    await list.waitFor({ state: 'detached' });
    // Escape closes an open list, not the sheet.
    await page.keyboard.type('#ru');
    await list.getByRole('option', { name: 'running' }).waitFor();
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    expect(await discardConfirm(page).count()).toBe(0);
    // A tap takes a suggestion too.
    await page.keyboard.type(' #r');
    await list.getByRole('option', { name: 'running' }).click();
    expect(await box.inputValue()).toBe('Evening stretch #health #ru #running ');
    await context.close();
  });

  it('dates a thought captured on a past day of the timeline on that day, and shows it there', async () => {
    const day = daysAgo(3);
    const { context, page } = await open(`/timeline?date=${day}`);
    await page.getByRole('heading', { name: /^Thoughts from / }).waitFor();
    const dialog = await openCapture(page);
    const chip = dialog.getByRole('button', { name: /^Entry date: / });
    expect(await chip.textContent()).not.toMatch(/Today/);
    await chip.click();
    const date = dialog.getByLabel('Date', { exact: true });
    expect(await date.inputValue()).toBe(day);
    await dialog.getByLabel('Time', { exact: true }).fill('07:30');
    await expect.poll(() => chip.textContent()).toMatch(/7:30/);
    await animationsEnded(dialog);
    expect((await date.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await shoot(page, 'capture-date-picker');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await typeInKeyboard(dialog, 'Remembered the long lunch with Ana.');
    await dialog.getByRole('button', { name: 'Save Thought' }).click();
    await page.getByText('Thought saved', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const saved = (await allThoughts(page)).find((t) => t.content.startsWith('Remembered the long lunch'));
    expect(saved?.localDate).toBe(day);
    expect(new Date(saved!.date).getHours()).toBe(7);
    expect(new URL(page.url()).searchParams.get('date')).toBe(day);
    await page.getByRole('button', { name: /Remembered the long lunch with Ana/ }).waitFor();
    await context.close();
  });

  it('saves with Ctrl+Enter', async () => {
    const { context, page } = await open('/home');
    const dialog = await openCapture(page);
    await typeInKeyboard(dialog, 'Saved from the keyboard alone.');
    await page.keyboard.press('Control+Enter');
    await page.getByText('Thought saved', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect((await allThoughts(page)).map((t) => t.content)).toContain('Saved from the keyboard alone.');
    await context.close();
  });

  it('keeps the sheet where it is when the chat hint appears', async () => {
    const { context, page } = await open('/home');
    const dialog = await openCapture(page);
    await typeInKeyboard(dialog, '');
    await animationsEnded(dialog);
    const top = (await dialog.boundingBox())!.y;
    await dialog.getByRole('textbox', { name: 'Your thought' }).fill('What should I cook tonight?');
    await dialog.getByText('This will go to the assistant as a question.').waitFor();
    expect((await dialog.boundingBox())!.y).toBe(top);
    await context.close();
  });

  it('grows the Edit dialog with a long entry, keeps its unsaved text, and takes a tag typed with #', async () => {
    const { context, page } = await open('/timeline');
    const long = Array.from(
      { length: 30 },
      (_, i) => `Line ${i + 1}: the morning was slow and bright, and I wrote it all down.`,
    ).join('\n');
    const made = await page.request.post('/api/thoughts', { data: { content: long } });
    expect(made.status()).toBe(201);
    await page.reload();
    await page.getByRole('button', { name: /Line 1: the morning/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Thought' });
    const box = edit.getByRole('textbox', { name: 'Edit your thought...' });
    await box.waitFor();
    await animationsEnded(edit);
    const height = (await box.boundingBox())!.height;
    expect(height).toBeGreaterThan(300);
    expect(height).toBeLessThanOrEqual(844);
    await shoot(page, 'edit-long-entry');

    await box.press('Control+End');
    await page.keyboard.type('\nAn added line.');
    await edit.getByLabel('Add tag...').fill('#Morning Routine');
    await edit.getByRole('button', { name: 'Add', exact: true }).click();
    await edit.getByRole('button', { name: 'Remove tag Morning Routine' }).waitFor();
    await page.keyboard.press('Escape');
    const confirm = page.getByRole('alertdialog', { name: 'Discard your changes?' });
    await confirm.getByRole('button', { name: 'Keep writing' }).click();

    await page.reload();
    await page.getByRole('button', { name: /Line 1: the morning/ }).click();
    await expect.poll(() => box.inputValue()).toBe(`${long}\nAn added line.`);
    await edit.getByText('Draft restored').waitFor();
    await edit.getByLabel('Add tag...').fill('#Morning Routine');
    await edit.getByRole('button', { name: 'Add', exact: true }).click();
    await box.focus();
    await page.keyboard.press('Control+Enter');
    await page.getByText('Thought updated', { exact: true }).waitFor();
    const saved = (await allThoughts(page)).find((t) => t.content.startsWith('Line 1:'));
    expect(saved?.content).toBe(`${long}\nAn added line.`);
    expect(saved?.tags).toEqual(['Morning Routine']);
    await context.close();
  });
});
