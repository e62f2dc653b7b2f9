/// <reference lib="dom" />
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import type { Page, Request } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shootBoth, shotPath, startSignedInProduct } from './harness';

/** 44 px targets, as the accessibility suite checks them (see a11y.test.ts). */
const AXE_AT_44 = `${axe.source};axe.configure(${JSON.stringify({
  checks: [{ id: 'target-size', options: { minSize: 44 } }],
  rules: [{ id: 'target-size', enabled: true, any: ['target-size'] }],
})});`;

const LIGHTHOUSE_VISITS = 26;

/**
 * The search overlay on the server's search (issue 33): whole-word matches first and marked, the
 * count, a page at a time as the list scrolls, a tag before the text, the empty messages, never the
 * whole journal downloaded; related entries under an opened card; "On this day" on Home.
 */
describe('memory in the app, in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  const who = { username: 'pepys', email: 'pepys@example.com', password: 'correct horse', name: 'Sam' };

  beforeAll(async () => {
    stack = await startSignedInProduct(who);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const open = (path: string, colorScheme: 'light' | 'dark' = 'light') => stack.open(path, colorScheme);

  /** Writes a thought at `at` (this machine's zone is the browser's). */
  const write = async (content: string, at: Date) => {
    const res = await fetch(`${stack.product.url}/api/thoughts`, {
      method: 'POST',
      headers: { cookie: stack.cookieHeader, 'content-type': 'application/json' },
      body: JSON.stringify({
        content,
        category: 'personal',
        isVoice: false,
        clientDate: at.toISOString(),
        timezoneOffset: at.getTimezoneOffset(),
      }),
    });
    expect(res.status).toBe(201);
  };
  const daysAgo = (days: number, hour = 10) => {
    const now = new Date();
    return new Date(now.getFullYear(), now.getMonth(), now.getDate() - days, hour, 0);
  };

  const openSearch = async (page: Page) => {
    await page.getByRole('button', { name: 'Search' }).click();
    return page.getByRole('dialog', { name: 'Search' });
  };
  const results = (page: Page) =>
    page
      .getByRole('dialog', { name: 'Search' })
      .getByRole('list', { name: 'Search results' })
      .getByRole('article');

  it('says there is nothing yet for a new journal, with no request for every thought', async () => {
    const { context, page } = await open('/home');
    try {
      const search = await openSearch(page);
      await search.getByText("You haven't recorded any thoughts yet.").waitFor();
      await search.getByRole('heading', { name: 'All Thoughts (0)' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it("says 'Failed to fetch thoughts' when the search cannot be reached", async () => {
    const { context, page } = await open('/home');
    try {
      await page.route('**/api/thoughts/search?**', (route) => route.abort('connectionrefused'));
      const search = await openSearch(page);
      await search.getByText('Failed to fetch thoughts').waitFor();
    } finally {
      await context.close();
    }
  });

  it('puts whole-word matches first and marks them, pages as the list scrolls, and lets a tag win over the text', async () => {
    // Newest first would put "tomorrow" above "Tom": the whole word must win anyway.
    await write('Tom called about the allotment and the shed roof.', daysAgo(40));
    await write('Call mum tomorrow about the birthday lunch.', daysAgo(2));
    for (let i = 0; i < LIGHTHOUSE_VISITS; i++)
      await write(`Walk number ${i + 1} out to the lighthouse; the sea was grey. #coast`, daysAgo(3 + i, 7));

    const { context, page } = await open('/home');
    const everything: string[] = [];
    const searchedFor: string[] = [];
    page.on('request', (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/thoughts/all') everything.push(request.url());
      if (url.pathname === '/api/thoughts/search') searchedFor.push(url.searchParams.get('q') ?? '');
    });
    try {
      const search = await openSearch(page);
      await search.getByRole('heading', { name: 'Popular Tags' }).waitFor();
      await search.getByRole('heading', { name: `All Thoughts (${LIGHTHOUSE_VISITS + 2})` }).waitFor();

      const field = search.getByRole('searchbox', { name: 'Search thoughts' });
      await field.pressSequentially('Tom');
      await search.getByRole('heading', { name: 'Search Results (2)' }).waitFor();
      await expect.poll(() => results(page).count()).toBe(2);
      // Each card's text is read as drawn: a card is skipped until it is first drawn (content-visibility:
      // auto), and read in that moment its text is '' (seen once under load).
      await expect.poll(() => results(page).nth(0).innerText()).toContain('Tom called');
      await expect.poll(() => results(page).nth(1).innerText()).toContain('tomorrow');
      // Each match is marked: the word itself, and "tom" inside "tomorrow".
      expect(await results(page).nth(0).locator('mark').allInnerTexts()).toEqual(['Tom']);
      expect(await results(page).nth(1).locator('mark').allInnerTexts()).toEqual(['tom']);
      // Asked for the moment typing paused, and only once (not again as the results were drawn).
      expect(searchedFor.filter((q) => q === 'Tom')).toEqual(['Tom']);
      // No meaning model on this server: said once, quietly.
      await search.getByText('Searching by words only: no meaning model is set up on this server.').waitFor();
      await shootBoth(page, 'memory-search-tom');

      // More matches than a page: the rest arrive as the end of the list scrolls into view.
      await field.fill('lighthouse');
      await search.getByRole('heading', { name: `Search Results (${LIGHTHOUSE_VISITS})` }).waitFor();
      // A first page of 10 (drawn sooner), then pages of 20.
      await expect.poll(() => results(page).count()).toBe(10);
      await results(page).nth(9).scrollIntoViewIfNeeded();
      await expect.poll(() => results(page).count()).toBe(LIGHTHOUSE_VISITS);
      await expect.poll(() => search.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      await results(page)
        .nth(LIGHTHOUSE_VISITS - 1)
        .scrollIntoViewIfNeeded();
      await shootBoth(page, 'memory-search-page-two');

      // Nothing matches.
      await field.fill('zeppelin');
      await search.getByText('No thoughts match your search.').waitFor();
      await search.getByRole('heading', { name: 'Search Results (0)' }).waitFor();

      // A slow answer: the last results stay as they were, heading and all (not 'Search Results' over
      // every thought), and dim only after a moment.
      let answer = () => {};
      const held = new Promise<void>((resolve) => (answer = resolve));
      await page.route('**/api/thoughts/search?**', async (route) => {
        if (new URL(route.request().url()).searchParams.get('q') === 'grey') await held;
        await route.fallback();
      });
      await search.getByRole('button', { name: 'Clear' }).click();
      const all = `All Thoughts (${LIGHTHOUSE_VISITS + 2})`;
      await search.getByRole('heading', { name: all }).waitFor();
      await field.fill('grey');
      const busy = search.locator('[aria-busy="true"]');
      await busy.waitFor();
      await expect.poll(() => busy.evaluate((element) => getComputedStyle(element).opacity)).toBe('0.7');
      expect(await search.getByRole('heading', { name: all }).isVisible()).toBe(true);
      answer();
      await search.getByRole('heading', { name: `Search Results (${LIGHTHOUSE_VISITS})` }).waitFor();
      await page.unroute('**/api/thoughts/search?**');

      // Picking a tag clears the text and filters by the tag; typing drops the tag again.
      await search.getByRole('button', { name: 'Clear' }).click();
      await search.getByRole('button', { name: `coast, ${LIGHTHOUSE_VISITS} thoughts` }).click();
      expect(await field.inputValue()).toBe('');
      await search.getByRole('heading', { name: `Search Results (${LIGHTHOUSE_VISITS})` }).waitFor();
      await expect.poll(() => results(page).count()).toBeGreaterThanOrEqual(10);
      await field.pressSequentially('Tom');
      await search.getByRole('heading', { name: 'Search Results (2)' }).waitFor();

      // The overlay passes the same audit as the screens (axe, serious or critical, 44 px targets).
      const { violations } = await new AxeBuilder({ page, axeSource: AXE_AT_44 })
        .include('[role="dialog"]')
        .options({ rules: { 'target-size': { enabled: true } } })
        .analyze();
      expect(
        violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);

      expect(everything).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lists related entries under an opened card, each opening its entry', async () => {
    const long = (lead: string) =>
      `${lead} The greenhouse tomatoes finally ripened after weeks of grey weather, and the marigolds kept the whitefly away. ` +
      'I spent the whole afternoon tying the vines, watering the seed trays, sweeping the potting bench and writing down what to sow ' +
      'next spring, because every year I forget which varieties did well and which ones split in the rain.';
    await write(long('Saturday at the allotment.'), daysAgo(1, 16));
    await write('Greenhouse tomatoes split in the rain again; whitefly on the marigolds.', daysAgo(60));

    const { context, page } = await open('/home');
    try {
      const search = await openSearch(page);
      await search.getByRole('searchbox', { name: 'Search thoughts' }).pressSequentially('allotment');
      const card = results(page).filter({ hasText: 'Saturday at the allotment' });
      await card.getByRole('button', { name: 'Show more' }).click();
      const related = card.getByRole('region', { name: /^Related by (shared words|meaning)$/ });
      await related.waitFor();
      const entry = related.getByRole('button', { name: /whitefly on the marigolds/ });
      await entry.waitFor();
      await entry.scrollIntoViewIfNeeded();
      await shootBoth(page, 'memory-related');
      await entry.click();
      const editor = page.getByRole('dialog', { name: 'Edit Thought' });
      await editor.waitFor();
      await expect
        .poll(() => editor.getByRole('textbox', { name: 'Edit your thought...' }).inputValue())
        .toContain('whitefly on the marigolds');
    } finally {
      await context.close();
    }
  });

  it('marks a match in a Markdown note on a line under it, and opens a long entry near its match', async () => {
    await write('## Roof jobs\n\n- borrow the **ladder** from Ken\n- clear the gutter', daysAgo(4, 12));
    const filler =
      'The morning went on the usual small things: the post, the dishes, a long call about the boiler, ' +
      'a walk round the block, and then the afternoon disappeared into paperwork and a nap I did not plan. ';
    await write(
      `${filler}${filler}At dusk the old weathervane on the church finally turned east.`,
      daysAgo(6, 12),
    );

    const { context, page } = await open('/home');
    try {
      const search = await openSearch(page);
      const field = search.getByRole('searchbox', { name: 'Search thoughts' });
      await field.pressSequentially('ladder');
      // The first: a retried attempt has written the note again.
      const note = results(page).filter({ hasText: 'Roof jobs' }).first();
      await note.getByRole('heading', { name: 'Roof jobs' }).waitFor();
      // The note renders as Markdown (no asterisks); the match shows, marked, on a line of its own.
      const line = note.locator('p').filter({ hasText: /^Match:/ });
      // Keys typed slowly (a busy machine) search each prefix on the way, and "lad" finds the note
      // too: the answer read is the one to the whole word.
      await expect.poll(() => line.locator('mark').allInnerTexts(), { timeout: 10_000 }).toEqual(['ladder']);
      expect(await line.innerText()).toMatch(/borrow the ladder from Ken/);
      expect(await note.innerText()).not.toContain('**');
      await shootBoth(page, 'memory-search-markdown');

      // Far into a long entry, the folded card starts shortly before the match, so it is in view.
      await field.fill('weathervane');
      const entry = results(page).filter({ hasText: 'weathervane' }).first();
      const mark = entry.locator('mark');
      await mark.waitFor();
      const text = entry.locator('[id$="-content"]');
      expect((await text.innerText()).startsWith('…')).toBe(true);
      const [markBox, textBox] = [await mark.boundingBox(), await text.boundingBox()];
      expect(markBox!.y + markBox!.height).toBeLessThanOrEqual(textBox!.y + textBox!.height);
      // "Show more" gives the whole entry from its start.
      await entry.getByRole('button', { name: 'Show more' }).click();
      expect(await text.innerText()).toMatch(/^The morning went on/);
      expect(await entry.locator('mark').allInnerTexts()).toEqual(['weathervane']);
    } finally {
      await context.close();
    }
  });

  it('shows what was written on this day in earlier years on Home, by year, and nothing on a day without', async () => {
    const now = new Date();
    const lastYear = new Date(now.getFullYear() - 1, now.getMonth(), now.getDate(), 21, 30);
    const longAgo = new Date(now.getFullYear() - 3, now.getMonth(), now.getDate(), 8, 0);
    await write('A year ago today: the first frost on the allotment.', lastYear);
    await write('Three years back: moved into the flat by the canal.', longAgo);

    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await open('/home', scheme);
      try {
        const onThisDay = page.getByRole('region', { name: 'On this day' });
        await onThisDay.waitFor({ timeout: 20_000 });
        const years = await onThisDay.getByRole('heading', { level: 3 }).allInnerTexts();
        expect(years.map((y) => y.split(' · ')[0])).toEqual(['1 year ago', '3 years ago']);
        await onThisDay.getByRole('button', { name: /the first frost/ }).waitFor();
        await onThisDay.evaluate((section) => section.scrollIntoView({ block: 'center' }));
        await page.screenshot({ path: shotPath(`memory-on-this-day-${scheme}`) });
        if (scheme === 'light') {
          await onThisDay.getByRole('button', { name: /moved into the flat/ }).click();
          await page.getByRole('dialog', { name: 'Edit Thought' }).waitFor();
          await page.keyboard.press('Escape');
          // The day before has nothing in earlier years: no section at all.
          await page.getByRole('button', { name: 'Previous period' }).click();
          await page.waitForLoadState('networkidle');
          expect(await page.getByRole('region', { name: 'On this day' }).count()).toBe(0);
        }
      } finally {
        await context.close();
      }
    }
  });
});
