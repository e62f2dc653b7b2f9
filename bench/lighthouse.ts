/**
 * Lighthouse in mobile mode (its defaults: a mid-range phone, simulated slow 4G and 4× CPU slowdown)
 * on the product as the browser tests start it, three runs per screen: /welcome for a visitor,
 * /home and /assist signed in. Prints the median of each score and of TBT and LCP.
 *
 * Alone: `npx tsx bench/lighthouse.ts` (LIGHTHOUSE_SCREENS and LIGHTHOUSE_RUNS narrow it down). The SPA is built first (production build). With
 * LIGHTHOUSE_REPORTS=<folder>, every run's full report is written there as JSON, to see what costs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startSmtpCatcher } from '../test/doubles/smtp-catcher';
import { CHROMIUM, CHROMIUM_ARGS, createAccount, startProduct } from '../test/e2e/harness';

/** Runs per screen; LIGHTHOUSE_RUNS for a closer look at one change. */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS) || 3;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/** The targets of issue 20: the scores a screen must reach (0–100). */
const TARGETS: Record<string, Partial<Record<(typeof CATEGORIES)[number], number>>> = {
  '/welcome': { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 },
  '/home': { performance: 90 },
  '/assist': { performance: 90 },
};

interface RunFigures {
  scores: Record<(typeof CATEGORIES)[number], number>;
  tbt: number;
  lcp: number;
  /** Audits of a category below 100 that did not pass, to see what to fix. */
  failing: string[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function audit(port: number, url: string, cookie?: string, attempt = 1): Promise<RunFigures> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    extraHeaders: cookie ? { Cookie: cookie } : undefined,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  const reports = process.env.LIGHTHOUSE_REPORTS;
  if (reports) {
    mkdirSync(reports, { recursive: true });
    const name = `${new URL(url).pathname.slice(1) || 'root'}-${lhr.fetchTime.replace(/[:.]/g, '-')}.json`;
    writeFileSync(path.join(reports, name), JSON.stringify(lhr));
  }
  // Chromium sometimes records no navigation in the trace; Lighthouse's advice is to run again.
  if (lhr.runtimeError?.code === 'NO_NAVSTART' && attempt < 3) return audit(port, url, cookie, attempt + 1);
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
  ) as RunFigures['scores'];
  const failing = CATEGORIES.filter((c) => c !== 'performance').flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => {
        // What Chrome's Issues panel reported, e.g. a cookie or a form field problem.
        const items = (lhr.audits[ref.id]?.details as { items?: Array<{ issueType?: string }> } | undefined)
          ?.items;
        const kinds = [...new Set((items ?? []).map((i) => i.issueType).filter(Boolean))];
        return `${c}: ${ref.id}${kinds.length ? ` (${kinds.join(', ')})` : ''}`;
      }),
  );
  return {
    scores,
    tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    failing,
  };
}

/** Seeds an account with a few thoughts and a conversation, so the signed-in screens are not empty. */
async function seed(baseUrl: string, cookie: string): Promise<void> {
  const post = async (p: string, body: unknown) => {
    const res = await fetch(baseUrl + p, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  };
  for (const content of [
    'The launch plan is slipping and I feel anxious about the budget review with Anna.',
    'I need to email Sarah the summary of the launch plan tomorrow.',
    'Meet Tom on Tuesday at 3pm to talk about the garden design.',
  ])
    await post('/api/thoughts', {
      content,
      category: 'professional',
      isVoice: false,
      clientDate: new Date().toISOString(),
      timezoneOffset: 0,
    });
  await post('/api/conversations', { title: 'Planning the week' });
}

export async function benchLighthouse(): Promise<void> {
  execFileSync(process.execPath, [path.join(import.meta.dirname, '..', 'scripts', 'build.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const smtp = await startSmtpCatcher();
  const product = await startProduct({ SMTP_URL: smtp.url });
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_ARGS });
  try {
    const session = await createAccount(product.url, smtp, {
      username: 'bench',
      email: 'bench@example.com',
      password: 'correct horse',
      name: 'Bea',
    });
    const cookie = `${session.name}=${session.value}`;
    await seed(product.url, cookie);

    // LIGHTHOUSE_SCREENS=/home,/assist measures only those.
    const only = process.env.LIGHTHOUSE_SCREENS?.split(',');
    const screens = [
      { path: '/welcome', cookie: undefined },
      { path: '/home', cookie },
      { path: '/assist', cookie },
    ].filter((s) => !only || only.includes(s.path));
    // One unmeasured load of each screen: the server generates the daily insight and warms up
    // (Lighthouse clears the browser's storage before every run, so each measured load is cold).
    for (const s of screens) await audit(chrome.port, product.url + s.path, s.cookie);

    console.log(`\nLighthouse mobile, median of ${RUNS} runs (targets in brackets)`);
    console.log(
      '  ' +
        ['screen'.padEnd(10), 'perf', 'a11y', 'best', 'seo', 'TBT ms'.padStart(7), 'LCP ms'.padStart(7)].join(
          ' '.repeat(4),
        ),
    );
    for (const s of screens) {
      const runs: RunFigures[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await audit(chrome.port, product.url + s.path, s.cookie));
      const target = TARGETS[s.path] ?? {};
      const score = (c: (typeof CATEGORIES)[number]) => {
        const m = median(runs.map((r) => r.scores[c]));
        return `${m}${target[c] ? (m >= target[c] ? '✓' : `✗${target[c]}`) : ''}`.padEnd(6);
      };
      console.log(
        '  ' +
          [
            s.path.padEnd(10),
            ...CATEGORIES.map(score),
            String(Math.round(median(runs.map((r) => r.tbt)))).padStart(7),
            String(Math.round(median(runs.map((r) => r.lcp)))).padStart(7),
          ].join('  '),
      );
      const failing = new Set(runs.flatMap((r) => r.failing));
      if (failing.size > 0) console.log(`    not passing: ${[...failing].join(', ')}`);
    }
  } finally {
    chrome.kill();
    await product.stop();
    await smtp.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchLighthouse();
