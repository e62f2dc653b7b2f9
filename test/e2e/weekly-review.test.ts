/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, weekLabel, weekStartOf, weekToReview } from '@haven/contracts/weekly-review';
import { shotPath, startSignedInProduct } from './harness';

/** The weekly review, from the Settings day to the home card, the conversation and the Weekly tab. */
describe('weekly review in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;

  beforeAll(async () => {
    stack = await startSignedInProduct({
      username: 'rosa',
      email: 'rosa@example.com',
      password: 'weekly-review-pass',
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${stack.product.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { cookie: stack.cookieHeader, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  it('offers the review on the chosen day, opens one conversation that walks through the week, and says it is local', async () => {
    // The browser and the product run on this machine's clock and zone; so does this test.
    const now = new Date();
    const today = [now.getFullYear(), now.getMonth() + 1, now.getDate()]
      .map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0'))
      .join('-');
    const week = weekStartOf(weekToReview(today));
    for (const [offset, content] of [
      [0, 'Awful start: the release failed and I felt exhausted and angry.'],
      [3, 'Wonderful walk with Sam by the lake, happy and grateful.'],
    ] as const) {
      const day = addDays(week, offset);
      const res = await api('/api/thoughts', {
        method: 'POST',
        body: { content, clientDate: `${day}T12:00:00.000Z`, timezoneOffset: 0 },
      });
      expect(res.status).toBe(201);
    }

    const { context, page } = await stack.newPage('light', { timeout: 20_000 });
    try {
      // Another day chosen: no card today.
      const otherDay = (now.getDay() + 3) % 7;
      expect(
        (await api('/api/user-preferences', { method: 'PATCH', body: { weeklyReviewDay: otherDay } })).status,
      ).toBe(200);
      await page.goto('/home');
      await page.getByRole('heading', { name: 'Insights' }).waitFor();
      await page.getByRole('tab', { name: 'Daily' }).waitFor();
      expect(await page.getByText('Your weekly review', { exact: true }).count()).toBe(0);

      // Settings → Notifications: today becomes the review day.
      await page.goto('/settings');
      await page.getByRole('tab', { name: 'Notifications' }).click();
      const select = page.getByLabel('Weekly review');
      await expect.poll(() => select.inputValue()).toBe(String(otherDay));
      const names = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
      await select.selectOption({ label: names[now.getDay()]! });
      await page.getByText('Weekly review set', { exact: true }).first().waitFor();
      await page
        .getByText(`Haven will offer your weekly review every ${names[now.getDay()]}.`)
        .first()
        .waitFor();
      await page.screenshot({ path: shotPath('weekly-review-settings') });
      expect(
        ((await (await api('/api/user-preferences')).json()) as { weeklyReviewDay: number }).weeklyReviewDay,
      ).toBe(now.getDay());

      await page.goto('/home');
      const card = page.getByRole('region', { name: 'Your weekly review' });
      await card.getByText(`Look back at ${weekLabel(week)} with the assistant`, { exact: false }).waitFor();
      await page.screenshot({ path: shotPath('weekly-review-home') });
      await card.getByRole('button', { name: 'Start weekly review' }).click();
      await page.waitForURL(/\/conversations\/\d+$/);
      const conversationUrl = page.url();
      await page.getByText(`Walk me through my week of ${weekLabel(week)}.`).waitFor();
      await page.getByText(`Your week, ${weekLabel(week)}`, { exact: true }).waitFor({ timeout: 30_000 });
      await page.getByText('Wonderful walk with Sam by the lake', { exact: false }).first().waitFor();
      await page
        .getByText('AI is not configured on this server, so I put this review together locally', {
          exact: false,
        })
        .waitFor();
      await page
        .getByText("Your calendar is not connected, so I can't see next week's invitations.", {
          exact: false,
        })
        .waitFor();
      await page.screenshot({ path: shotPath('weekly-review-conversation'), fullPage: true });

      // The Weekly tab of that week leads to the same conversation, not a second one.
      await page.goto('/home');
      await page.getByRole('tab', { name: 'Weekly' }).click();
      if (weekStartOf(today) !== week) await page.getByRole('button', { name: 'Previous period' }).click();
      const review = page.getByRole('button', { name: 'Review this week with the assistant' });
      await review.waitFor({ timeout: 30_000 });
      await review.click();
      await page.waitForURL(conversationUrl);
      const conversations = (await (await api('/api/conversations')).json()) as Array<{ title: string }>;
      expect(conversations.filter((c) => c.title.startsWith('Weekly review'))).toHaveLength(1);

      // Turned off: no card.
      await page.goto('/settings');
      await page.getByRole('tab', { name: 'Notifications' }).click();
      await page.getByLabel('Weekly review').selectOption({ label: 'Off' });
      await page.getByText('Weekly review off', { exact: true }).first().waitFor();
      await page.goto('/home');
      await page.getByRole('tab', { name: 'Daily' }).waitFor();
      expect(await page.getByText('Your weekly review', { exact: true }).count()).toBe(0);
    } finally {
      await context.close();
    }

    // Dark mode: the card and the conversation, for a person to look at.
    expect(
      (await api('/api/user-preferences', { method: 'PATCH', body: { weeklyReviewDay: now.getDay() } }))
        .status,
    ).toBe(200);
    const dark = await stack.newPage('dark');
    try {
      await dark.page.goto('/home');
      await dark.page.getByRole('button', { name: 'Start weekly review' }).waitFor();
      await dark.page.screenshot({ path: shotPath('weekly-review-home-dark') });
      await dark.page.getByRole('button', { name: 'Start weekly review' }).click();
      await dark.page.getByText(`Your week, ${weekLabel(week)}`, { exact: true }).waitFor();
      await dark.page.screenshot({ path: shotPath('weekly-review-conversation-dark'), fullPage: true });
    } finally {
      await dark.context.close();
    }
  });
});
