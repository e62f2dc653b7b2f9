/// <reference lib="dom" />
import type { Thought } from '@haven/contracts/thoughts';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, shotPath, startSignedInProduct } from './harness';
import { toneWav } from '../support/audio';

/** A second of a 440 Hz tone as a 8 kHz, 16-bit mono WAV: real audio Chromium can decode and play. */
const LONG = [
  'Long walk along the river this morning, and my thoughts ran on for a while.',
  ...Array.from(
    { length: 40 },
    (_, i) => `Line ${i + 1}: the water was high after the rain and the herons stood still in the reeds.`,
  ),
  'And that is where the walk ended.',
].join('\n');

const NOTES =
  '# Reading notes\n\n- The Overstory\n- Braiding Sweetgrass\n\nMore at https://example.com/reading-list';

const shot = (name: string) => shotPath(`reading-${name}`);

describe('reading and hearing an entry in full, at 390×844', () => {
  let env: Awaited<ReturnType<typeof startSignedInProduct>>;
  const made: Record<string, Thought> = {};
  let deepCookie: { name: string; value: string };

  beforeAll(async () => {
    env = await startSignedInProduct({
      username: 'rosa',
      email: 'rosa@example.com',
      password: 'reading-pass',
    });
    const write = async (key: string, body: Record<string, unknown>, cookie = env.cookieHeader) => {
      const res = await fetch(`${env.product.url}/api/thoughts`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({
          category: 'personal',
          clientDate: new Date().toISOString(),
          timezoneOffset: new Date().getTimezoneOffset(),
          ...body,
        }),
      });
      expect(res.status).toBe(201);
      made[key] = (await res.json()) as Thought;
    };
    await write('long', { content: LONG });
    await write('short', { content: 'Short and sweet.' });
    await write('notes', { content: NOTES, tags: ['books'] });
    await write('packing', {
      content: `## Packing list\n\n${Array.from({ length: 12 }, (_, i) => `- [ ] Item ${i + 1}`).join('\n')}`,
    });
    await write('deep', { content: 'Two hours of *Deep Work* on the garden plan before lunch felt great.' });
    // A second person whose only thought of the day is the one the local insight will quote.
    deepCookie = await createAccount(env.product.url, env.smtp, {
      username: 'dana',
      email: 'dana@example.com',
      password: 'deep-work-pass',
    });
    await write(
      'deepOnly',
      { content: 'Two hours of *Deep Work* on the garden plan before lunch felt great.' },
      `${deepCookie.name}=${deepCookie.value}`,
    );
    await write('voice', {
      content: 'Evening walk, recorded on the way home.',
      isVoice: true,
      audioData: `data:audio/wav;base64,${toneWav().toString('base64')}`,
      tags: ['walk'],
    });
    expect(made.voice!.hasAudio).toBe(true);
  });
  afterAll(async () => env?.stop());

  const open = (path: string, scheme: 'light' | 'dark' = 'light', cookie = env.cookie) =>
    env.open(path, scheme, { cookie });
  /** The card of a thought (its open button carries the id). */
  const card = (page: Page, key: string) =>
    page.locator('article').filter({ has: page.locator(`[data-thought-id="${made[key]!.id}"]`) });

  it('shows "Show more" on a long entry only, which opens it in place and folds it again', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await open('/timeline', scheme);
      const long = card(page, 'long');
      await long.waitFor();
      await page.screenshot({ path: shot(`timeline-${scheme}`) });
      const more = long.getByRole('button', { name: 'Show more' });
      await more.waitFor();
      const box = await more.boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      expect(box!.width).toBeGreaterThanOrEqual(44);
      const text = long.locator('[aria-controls]').first();
      const contentId = await text.getAttribute('aria-controls');
      const content = page.locator(`[id="${contentId}"]`);
      await long.scrollIntoViewIfNeeded();
      await long.screenshot({ path: shot(`long-collapsed-${scheme}`) });
      const cut = await content.evaluate((el) => ({ shown: el.clientHeight, full: el.scrollHeight }));
      expect(cut.shown).toBeLessThan(200);
      expect(cut.full).toBeGreaterThan(1000);
      expect(await card(page, 'short').getByRole('button', { name: 'Show more' }).count()).toBe(0);

      await more.click();
      await long.getByRole('button', { name: 'Show less' }).waitFor();
      // Expanded in place: no dialog, every line shown, the last one on screen once scrolled to.
      expect(await page.getByRole('dialog').count()).toBe(0);
      const full = await content.evaluate((el) => ({ shown: el.clientHeight, full: el.scrollHeight }));
      expect(full.shown).toBeGreaterThanOrEqual(full.full - 1);
      const end = long.getByText('And that is where the walk ended.');
      await end.scrollIntoViewIfNeeded();
      expect(await end.isVisible()).toBe(true);
      await long.getByRole('button', { name: 'Show less' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot(`timeline-long-expanded-${scheme}`) });

      await long.getByRole('button', { name: 'Show less' }).click();
      await more.waitFor();
      expect(await content.evaluate((el) => el.clientHeight)).toBeLessThan(200);
      // The card itself still opens the Edit Thought dialog.
      await page.locator(`[data-thought-id="${made.short!.id}"]`).click();
      await page.getByRole('dialog', { name: 'Edit Thought' }).waitFor();
      await context.close();
    }
  });

  it('renders Markdown in cards: bullets, a heading, links that open in a new tab', async () => {
    const { context, page } = await open('/timeline');
    const notes = card(page, 'notes');
    await notes.getByRole('heading', { name: 'Reading notes' }).waitFor();
    expect(await notes.locator('[id$="-content"] ul > li').allTextContents()).toEqual([
      'The Overstory',
      'Braiding Sweetgrass',
    ]);
    expect(
      await notes.locator('[id$="-content"] ul').evaluate((el) => getComputedStyle(el).listStyleType),
    ).toBe('disc');
    const link = notes.getByRole('link', { name: 'https://example.com/reading-list' });
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await notes.textContent()).not.toContain('# Reading');
    await notes.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('timeline-markdown-light') });
    // A long note is cut once rendered, and reads in full with "Show more".
    const packing = card(page, 'packing');
    await packing.getByRole('heading', { name: 'Packing list' }).waitFor();
    await packing.getByRole('button', { name: 'Show more' }).click();
    await packing.getByText('Item 12').scrollIntoViewIfNeeded();
    expect(await packing.getByText('Item 12').isVisible()).toBe(true);
    expect(await packing.locator('[id$="-content"] li').count()).toBe(12);
    await page.screenshot({ path: shot('timeline-markdown-expanded-light') });

    // The link is a control of its own: it opens a tab, not the Edit dialog.
    await notes.scrollIntoViewIfNeeded();
    await context.route('https://example.com/**', (route) => route.fulfill({ body: 'reading list' }));
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe('https://example.com/reading-list');
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    expect(await page.getByRole('dialog', { name: 'Edit Thought' }).count()).toBe(0);
    await context.close();
  });

  it('shows an insight quoting *Deep Work* with emphasis, not asterisks', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await open('/home', scheme, deepCookie);
      await page.getByRole('heading', { name: 'Summary' }).waitFor({ timeout: 20_000 });
      const summary = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Summary' }) });
      await summary.locator('em', { hasText: 'Deep Work' }).waitFor();
      expect(await summary.textContent()).not.toContain('*Deep Work*');
      await page.screenshot({ path: shot(`insight-${scheme}`), fullPage: true });
      await context.close();
    }
  });

  it('plays a voice thought, streamed by byte ranges (206)', async () => {
    const { context, page } = await open('/timeline');
    const ranged: Array<{ status: number; range: string | null; contentRange: string | null }> = [];
    page.on('response', (res) => {
      if (!res.url().endsWith(`/api/thoughts/${made.voice!.id}/audio`)) return;
      ranged.push({
        status: res.status(),
        range: res.request().headers()['range'] ?? null,
        contentRange: res.headers()['content-range'] ?? null,
      });
    });
    const voice = card(page, 'voice');
    const audio = voice.locator('audio');
    await audio.waitFor();
    expect(await audio.getAttribute('preload')).toBe('none');
    expect((await audio.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    // Nothing is fetched before the user presses play.
    expect(ranged).toEqual([]);
    await voice.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('timeline-voice-light') });
    await audio.evaluate((el: HTMLAudioElement) => el.play());
    await page.waitForFunction(
      (id) => {
        const el = document.querySelector<HTMLAudioElement>(`audio[src$="/api/thoughts/${id}/audio"]`);
        return !!el && el.currentTime > 0 && Number.isFinite(el.duration);
      },
      made.voice!.id,
      { timeout: 10_000 },
    );
    expect(await audio.evaluate((el: HTMLAudioElement) => Math.round(el.duration))).toBe(1);
    const partial = ranged.find((r) => r.status === 206);
    expect(partial, JSON.stringify(ranged)).toBeDefined();
    expect(partial!.range).toMatch(/^bytes=/);
    expect(partial!.contentRange).toMatch(/^bytes \d+-\d+\/16044$/);
    await context.close();
  });

  it('opens the search filtered by a tag tapped on a card', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await open('/timeline', scheme);
      const chip = card(page, 'voice').getByRole('button', { name: /^#walk/ });
      const box = await chip.boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      expect(box!.width).toBeGreaterThanOrEqual(44);
      await chip.click();
      const search = page.getByRole('dialog', { name: 'Search' });
      await search.getByRole('button', { name: 'Remove tag filter walk' }).waitFor();
      await search.getByRole('heading', { name: 'Search Results (1)' }).waitFor();
      expect(await search.locator(`[data-thought-id="${made.voice!.id}"]`).count()).toBe(1);
      await page.screenshot({ path: shot(`search-tag-${scheme}`) });
      // Back closes the search and stays on the timeline.
      await page.goBack();
      await search.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe('/timeline');
      await context.close();
    }
  });
});
