/// <reference lib="dom" />
// THROWAWAY (not committed): previews the UI with the search routes faked in the browser.
import { it } from 'vitest';
import { phonePage, shotPath, startSignedInProduct } from './harness';

it('preview', async () => {
  const stack = await startSignedInProduct({ username: 'prev', email: 'prev@example.com', password: 'correct horse', name: 'P' });
  try {
    const write = async (content: string, at: Date) => {
      const r = await fetch(`${stack.product.url}/api/thoughts`, { method: 'POST', headers: { cookie: stack.cookieHeader, 'content-type': 'application/json' }, body: JSON.stringify({ content, category: 'personal', isVoice: false, clientDate: at.toISOString(), timezoneOffset: at.getTimezoneOffset() }) });
      if (r.status !== 201) throw new Error(await r.text());
    };
    const now = new Date();
    const ago = (d: number, h = 10) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - d, h);
    await write('Tom called about the allotment and the shed roof.', ago(40));
    await write('Call mum tomorrow about the birthday lunch.', ago(2));
    await write('## Plans\n\n- ask **Tom** about the ladder\n- buy seeds', ago(5));
    for (let i = 0; i < 26; i++) await write(`Walk number ${i + 1} out to the lighthouse; the sea was grey. #coast`, ago(3 + i, 7));
    const lead = 'Saturday at the allotment. The greenhouse tomatoes finally ripened after weeks of grey weather, and the marigolds kept the whitefly away. I spent the whole afternoon tying the vines, watering the seed trays, sweeping the potting bench and writing down what to sow next spring, because every year I forget which varieties did well and which ones split in the rain. Tom came by at the end.';
    await write(lead, ago(0, 9));
    await write('Greenhouse tomatoes split in the rain again; whitefly on the marigolds.', ago(60));
    await write('A year ago today: the first frost on the allotment.', new Date(now.getFullYear() - 1, now.getMonth(), now.getDate(), 21, 30));
    await write('Three years back: moved into the flat by the canal.', new Date(now.getFullYear() - 3, now.getMonth(), now.getDate(), 8));
    const all = (await (await fetch(`${stack.product.url}/api/thoughts/all`, { headers: { cookie: stack.cookieHeader } })).json()) as any[];
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await phonePage(stack.browser, stack.product.url, scheme, { cookie: stack.cookie });
      await page.route('**/api/thoughts/search?**', async (route) => {
        const u = new URL(route.request().url());
        const q = (u.searchParams.get('q') ?? '').toLowerCase();
        const tag = u.searchParams.get('tag');
        const cursor = Number(u.searchParams.get('cursor') ?? 0);
        let list = all.map((t) => {
          const hl: any[] = [];
          if (q) { let i = t.content.toLowerCase().indexOf(q); while (i >= 0) { hl.push({ start: i, end: i + q.length }); i = t.content.toLowerCase().indexOf(q, i + 1); } }
          const whole = q && new RegExp(`\\b${q}\\b`, 'i').test(t.content);
          return { thought: t, match: tag ? 'tag' : !q ? 'recent' : whole ? 'words' : 'substring', highlights: hl, matchedTags: t.tags.filter((g: string) => (tag ? g.toLowerCase() === tag.toLowerCase() : q && g.toLowerCase().includes(q))) };
        });
        if (tag) list = list.filter((h) => h.matchedTags.length);
        else if (q) list = list.filter((h) => h.highlights.length || h.matchedTags.length).sort((a, b) => (a.match === 'words' ? 0 : 1) - (b.match === 'words' ? 0 : 1));
        const page1 = list.slice(cursor, cursor + 20);
        await route.fulfill({ json: { hits: page1, total: list.length, nextCursor: cursor + 20 < list.length ? String(cursor + 20) : null, meaning: 'off' } });
      });
      await page.route('**/api/thoughts/*/related?**', async (route) => {
        await route.fulfill({ json: { basis: 'words', hits: all.filter((t) => /whitefly|greenhouse/i.test(t.content)).slice(0, 5).map((t) => ({ thought: t, match: 'words', highlights: [], matchedTags: [] })) } });
      });
      await page.route('**/api/thoughts/on-this-day?**', async (route) => {
        await route.fulfill({ json: all.filter((t) => t.localDate.slice(5) === all[0].localDate.slice(5) && t.localDate.slice(0, 4) < String(now.getFullYear())).sort((a, b) => b.localDate.localeCompare(a.localDate)) });
      });
      await page.goto('/home');
      const otd = page.getByRole('region', { name: 'On this day' });
      await otd.waitFor({ timeout: 20000 });
      await otd.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath(`prev-otd-${scheme}`) });
      await page.getByRole('button', { name: 'Search' }).click();
      const s = page.getByRole('dialog', { name: 'Search' });
      await s.getByRole('heading', { name: /All Thoughts/ }).waitFor();
      await page.screenshot({ path: shotPath(`prev-empty-${scheme}`) });
      await s.getByRole('searchbox').pressSequentially('Tom');
      await s.getByRole('heading', { name: /Search Results \(4\)/ }).waitFor();
      await page.waitForTimeout(800);
      await page.screenshot({ path: shotPath(`prev-tom-${scheme}`) });
      await s.getByRole('searchbox').fill('lighthouse');
      await s.getByRole('heading', { name: /Search Results \(26\)/ }).waitFor();
      const items = s.getByRole('list', { name: 'Search results' }).getByRole('article');
      await items.nth(19).scrollIntoViewIfNeeded();
      await page.waitForTimeout(1000);
      await items.nth(25).scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath(`prev-page2-${scheme}`) });
      await s.getByRole('searchbox').fill('allotment');
      const card = items.filter({ hasText: 'Saturday at the allotment' });
      await card.getByRole('button', { name: 'Show more' }).click();
      await card.getByRole('region', { name: 'Related by shared words' }).waitFor();
      await card.getByRole('region', { name: 'Related by shared words' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath(`prev-related-${scheme}`) });
      await context.close();
    }
  } finally {
    await stack.stop();
  }
}, 240000);
