/**
 * The search overlay's first page after typing (issue 33: ≤ 300 ms in Chromium with 4× CPU
 * slowdown), for one user with 10,000 thoughts of realistic length (150–600 characters): the product
 * as the browser tests start it, the SPA's production build, a phone-sized page. Each run types a word
 * into the overlay at machine speed (so only the pause after the last key sends a search) and measures
 * from the last keydown to the frame after the first result card of that search is in the page
 * (the debounce included). Every word is new to the page, so no answer comes from a cache.
 *
 * Alone: `npx tsx bench/overlay.bench.ts` (OVERLAY_THOUGHTS changes the journal's size,
 * OVERLAY_DATABASE_URL puts the product on a PostgreSQL database of its own, OVERLAY_VERBOSE=1 prints
 * each word's time and its request's start and end after the key).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { performance as nodePerformance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Db } from '@haven/kit/db';
import { internalHeaders } from '@haven/kit/testing';
import { startSmtpCatcher } from '../test/doubles/smtp-catcher';
import { createAccount, launchBrowser, phonePage, startProduct } from '../test/e2e/harness';

const THOUGHTS = Number(process.env.OVERLAY_THOUGHTS) || 10_000;
const BATCH = 500;
/** Searched one after another, each once: common, middling and rare words of the seeded journal. */
const WORDS = [
  'Tom',
  'garden',
  'money',
  'letter',
  'river',
  'sister',
  'office',
  'music',
  'train',
  'rain',
  'bread',
  'walk',
];
const TARGET_MS = 300;

/**
 * Run in the page before the last key: resolves with the ms from that keydown to the frame after the
 * first card of a search's results is in the page (its heading 'Search Results', nothing busy).
 */
const FIRST_CARD_AFTER_NEXT_KEY = `if (!window.longTasks) { window.longTasks = []; new PerformanceObserver((list) => window.longTasks.push(...list.getEntries())).observe({ type: 'longtask' }); }
window.firstCard = new Promise((resolve) => {
  let lastKey = 0;
  document.addEventListener('keydown', () => { lastKey = performance.now(); window.lastKey = lastKey; }, { capture: true });
  const observer = new MutationObserver(() => {
    const heading = document.getElementById('search-results-heading');
    const ready =
      heading && heading.textContent.startsWith('Search Results') &&
      !document.querySelector('[role="dialog"] [aria-busy="true"]') &&
      document.querySelector('[aria-label="Search results"] article');
    // The answer to the whole word must be in (not one to a part of it, sent while typing).
    const input = document.querySelector('input[type=search]');
    const answered = input && performance.getEntriesByType('resource').some((entry) =>
      entry.name.includes('/api/thoughts/search?') && new URL(entry.name).searchParams.get('q') === input.value);
    if (lastKey && ready && answered) {
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - lastKey));
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}), undefined`;

const VOCABULARY = (
  'the a and to of in it was I my we that for on with at so but not all then up out after before ' +
  'morning evening afternoon night day week walk home office work garden rain sun wind river train ' +
  'letter money bread coffee tea dinner lunch friend sister brother mother father Tom Anna Sam music ' +
  'book read wrote thought felt tired happy worried calm long short early late quiet busy slow ' +
  'meeting plan call talked walked bought cooked slept woke cleaned tomorrow yesterday town market'
).split(' ');

/** A deterministic pseudo-random sequence, so every run seeds the same journal. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** One entry of 150–600 characters, sentences of the vocabulary. */
function entry(next: () => number): string {
  const length = 150 + Math.floor(next() * 450);
  let text = '';
  while (text.length < length) {
    const words = Array.from(
      { length: 6 + Math.floor(next() * 10) },
      () => VOCABULARY[Math.floor(next() * VOCABULARY.length)],
    );
    const sentence = words.join(' ');
    text += `${sentence[0]!.toUpperCase()}${sentence.slice(1)}. `;
  }
  return text.slice(0, 600).trim();
}

/** Whether the journal's tables have been analysed since they were filled. */
async function analysed(db: Db): Promise<boolean> {
  const result = (await db.execute(
    sql`select bool_and(coalesce(last_analyze, last_autoanalyze) is not null and n_mod_since_analyze < n_live_tup / 10) as ok
          from pg_stat_user_tables where schemaname = 'thoughts' and relname in ('thoughts', 'search_grams')`,
  )) as unknown as { rows: Array<{ ok: boolean | null }> };
  return result.rows[0]?.ok === true;
}

/** Whether this process (the product's every service) spent under a tenth of the next second working. */
async function quietForASecond(): Promise<boolean> {
  const before = nodePerformance.eventLoopUtilization();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return nodePerformance.eventLoopUtilization(before).utilization < 0.1;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function benchOverlay(): Promise<void> {
  execFileSync(process.execPath, [path.join(import.meta.dirname, '..', 'scripts', 'build.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const smtp = await startSmtpCatcher();
  // OVERLAY_DATABASE_URL runs the product on that PostgreSQL database (else embedded PGlite).
  const database = process.env.OVERLAY_DATABASE_URL;
  const product = await startProduct({ SMTP_URL: smtp.url, ...(database ? { DATABASE_URL: database } : {}) });
  const browser = await launchBrowser();
  try {
    const cookie = await createAccount(product.url, smtp, {
      username: 'overlay',
      email: 'overlay@example.com',
      password: 'correct horse',
      name: 'Olive',
    });
    const cookieHeader = `${cookie.name}=${cookie.value}`;
    const me = (await (
      await fetch(`${product.url}/api/user`, { headers: { cookie: cookieHeader } })
    ).json()) as {
      id: number;
    };

    // Seeded as an import writes them (the thoughts service's import route, 500 a batch).
    const thoughts = product.services.find((s) => s.name === 'thoughts')!;
    const next = random(33);
    const day0 = Date.UTC(2016, 0, 1);
    const seeding = performance.now();
    for (let i = 0; i < THOUGHTS; i += BATCH) {
      const items = Array.from({ length: Math.min(BATCH, THOUGHTS - i) }, (_, k) => {
        const n = i + k;
        const date = new Date(day0 + n * 7 * 3_600_000);
        return {
          key: `overlay-${n}-bench`,
          // Every entry names its day, so the index's progress can be read with one search.
          content: `Day ${n + 1} of the journal. ${entry(next)}`.slice(0, 600),
          date: date.toISOString(),
          localDate: date.toISOString().slice(0, 10),
          category: 'personal',
          tags: n % 5 === 0 ? ['walk'] : [],
          isVoice: false,
        };
      });
      const res = await fetch(`${thoughts.url}/internal/import/thoughts`, {
        method: 'POST',
        headers: {
          ...internalHeaders(thoughts.deps.config, me.id, 'thoughts', 'portability'),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ items }),
      });
      if (!res.ok) throw new Error(`seeding thoughts failed: ${res.status} ${await res.text()}`);
    }
    const seeded = Math.round((performance.now() - seeding) / 1000);
    console.error(`overlay bench: ${THOUGHTS} thoughts imported in ${seeded} s; waiting for the index`);
    // The index follows the import; wait until every thought is searchable.
    const searchable = async () => {
      const res = await fetch(`${product.url}/api/thoughts/search?q=journal&limit=1`, {
        headers: { cookie: cookieHeader },
      });
      return res.ok ? ((await res.json()) as { total: number }).total : 0;
    };
    const indexing = performance.now();
    while ((await searchable()) < THOUGHTS) {
      if (performance.now() - indexing > 600_000) throw new Error('the index did not catch up in 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }

    const indexed = Math.round((performance.now() - indexing) / 1000);
    // As the journal sits once the import is over: the database has analysed what it wrote (PostgreSQL's
    // autovacuum, or the embedded database's own check every 30 s), so the planner knows its size.
    const analysing = performance.now();
    while (!(await analysed(thoughts.deps.db))) {
      if (performance.now() - analysing > 180_000)
        throw new Error('the import was not analysed in 3 minutes');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const analysedAfter = Math.round((performance.now() - analysing) / 1000);
    // The import's aftermath (each day's insights marked out of date, 10,000 events) keeps the
    // product, which runs in this process, busy for some seconds more: searching a journal of this size
    // is measured once that is over, and how long it took is said.
    const settling = performance.now();
    while (!(await quietForASecond())) {
      if (performance.now() - settling > 180_000)
        throw new Error('the product was still busy after 3 minutes');
    }
    const settledAfter = Math.round((performance.now() - settling) / 1000);
    const { context, page } = await phonePage(browser, product.url, 'light', { cookie });
    try {
      await page.goto('/home');
      await page.getByRole('button', { name: 'Search' }).click();
      const search = page.getByRole('dialog', { name: 'Search' });
      await search.getByRole('heading', { name: /^All Thoughts \(/ }).waitFor({ timeout: 60_000 });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const field = search.getByRole('searchbox', { name: 'Search thoughts' });

      const times: number[] = [];
      for (const word of WORDS) {
        await field.fill('');
        await search.getByRole('heading', { name: /^All Thoughts \(/ }).waitFor();
        // A person looks before typing: the cleared list has been drawn in full (idle, or after 1 s).
        await page.evaluate('new Promise((resolve) => requestIdleCallback(resolve, { timeout: 1000 }))');
        await page.evaluate(FIRST_CARD_AFTER_NEXT_KEY);
        await page.keyboard.type(word);
        const took = await Promise.race([
          page.evaluate<number>('window.firstCard'),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)),
        ]);
        if (took === null)
          throw new Error(
            `no result card for "${word}" in 20 s: ${await page.evaluate(
              `JSON.stringify({ heading: document.getElementById('search-results-heading')?.textContent, busy: document.querySelectorAll('[aria-busy="true"]').length, cards: document.querySelectorAll('[aria-label="Search results"] article').length, field: document.querySelector('input[type=search]')?.value })`,
            )}`,
          );
        times.push(took);
        if (process.env.OVERLAY_VERBOSE) {
          // Where the time went: the request's start and end after the key, from the page's timings.
          const tasks = await page.evaluate<string>(
            `window.longTasks.filter((t) => t.startTime > window.lastKey).map((t) => Math.round(t.startTime - window.lastKey) + '+' + Math.round(t.duration)).join(' ')`,
          );
          const request = await page.evaluate<string>(
            `(() => { const r = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/thoughts/search')).at(-1); return r ? Math.round(r.startTime - window.lastKey) + '..' + Math.round(r.responseEnd - window.lastKey) : '?'; })()`,
          );
          console.error(`  ${word}: ${Math.round(took)} ms (request ${request} ms; long tasks ${tasks})`);
        }
      }
      const p50 = percentile(times, 50);
      const p90 = percentile(times, 90);
      console.log(
        `\nSearch overlay, ${THOUGHTS.toLocaleString('en')} thoughts, Chromium at 4× CPU slowdown, ${database ? 'PostgreSQL' : 'PGlite'} (imported in ${seeded} s, searchable ${indexed} s later, analysed ${analysedAfter} s after that, quiet ${settledAfter} s later)`,
      );
      console.log(
        `  last key to first result card: p50 ${Math.round(p50)} ms, p90 ${Math.round(p90)} ms, max ${Math.round(Math.max(...times))} ms over ${times.length} words ${p90 <= TARGET_MS ? '✓' : `✗${TARGET_MS}`}`,
      );
      console.log(`  each: ${WORDS.map((w, i) => `${w} ${Math.round(times[i]!)}`).join(', ')}`);
    } finally {
      await context.close();
    }
  } finally {
    await browser.close();
    await product.stop();
    await smtp.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchOverlay();
