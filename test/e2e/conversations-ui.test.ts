/// <reference lib="dom" />
import AxeBuilder from '@axe-core/playwright';
import type { Conversation } from '@haven/contracts/assistant';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiDouble } from '../doubles/openai-server';
import { shotPath, startSignedInProduct } from './harness';

const DRAFT =
  'Here is a draft:\n\nTo: sarah@example.com\nSubject: Launch summary\n\nHi Sarah,\nThe launch moved to Friday.\nBest,\nIra';

describe('the Assist screen and conversations at 390×844', () => {
  let llm: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;

  beforeAll(async () => {
    llm = await startOpenAiDouble({
      reply: (r) =>
        r.schemaName === 'entry_type' ? { type: 'chat' } : /draft/i.test(r.user) ? DRAFT : 'Happy to help.',
    });
    stack = await startSignedInProduct(
      { username: 'noor', email: 'noor@example.com', password: 'correct horse', name: 'Noor' },
      { env: { OPENAI_BASE_URL: llm.url } },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.stop();
  });

  const api = async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const res = await fetch(`${stack.product.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { cookie: stack.cookieHeader, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    expect(res.ok).toBe(true);
    return (await res.json()) as T;
  };
  const conversations = () => api<Conversation[]>('/api/conversations');
  const open = async (path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> =>
    (await stack.open(path, colorScheme)).page;
  /** The reply of the conversation's first message, once written. */
  const replied = (id: number) =>
    expect
      .poll(async () => (await api<Array<{ type: string }>>(`/api/conversations/${id}/messages`)).length, {
        timeout: 15_000,
      })
      .toBe(2);

  it('keeps single line breaks in assistant messages (a drafted To: and Subject: on lines of their own)', async () => {
    const page = await open('/assist');
    await page.getByLabel('Message the assistant').fill('Please draft an email to Sarah');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/conversations\/\d+$/);
    const reply = page.getByRole('listitem').filter({ hasText: 'Subject: Launch summary' });
    await reply.waitFor({ timeout: 15_000 });
    const text = await reply.locator('p', { hasText: 'To:' }).innerText();
    expect(text).toContain('To: sarah@example.com\nSubject: Launch summary');
    expect(await reply.innerText()).toContain('Hi Sarah,\nThe launch moved to Friday.\nBest,\nIra');
    await page.screenshot({ path: shotPath('conversations-ui-line-breaks') });
  });

  it('pages the top card with named 44 px controls, by pointer and keyboard', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await open('/assist', scheme);
      const pager = page.getByRole('navigation', { name: 'Assist cards' });
      const second = pager.getByRole('button', { name: /^Show card 2 of 3/ });
      await second.waitFor();
      for (const button of await pager.getByRole('button').all()) {
        const box = (await button.boundingBox())!;
        expect(box.width).toBeGreaterThanOrEqual(44);
        expect(box.height).toBeGreaterThanOrEqual(44);
      }
      expect(
        await pager.getByRole('button', { name: /^Show card 1 of 3/ }).getAttribute('aria-current'),
      ).toBe('true');
      // The panels out of view are out of reach too: Tab never lands on a control nobody can see.
      const connectCalendar = page.getByRole('link', { name: 'Connect Calendar' });
      const focusable = () =>
        connectCalendar.evaluate((link) => {
          (link as HTMLElement).focus();
          return document.activeElement === link;
        });
      expect(await focusable()).toBe(false);
      await second.click();
      await expect.poll(() => second.getAttribute('aria-current'), { timeout: 10_000 }).toBe('true');
      await connectCalendar.waitFor();
      expect(await focusable()).toBe(true);
      // Keyboard: Next card from the focused pager.
      await pager.getByRole('button', { name: 'Next card' }).focus();
      await page.keyboard.press('Enter');
      const third = pager.getByRole('button', { name: /^Show card 3 of 3/ });
      await expect.poll(() => third.getAttribute('aria-current'), { timeout: 10_000 }).toBe('true');
      expect(await pager.getByRole('button', { name: 'Next card' }).isDisabled()).toBe(true);
      const axe = await new AxeBuilder({ page }).include('main').withRules(['target-size']).analyze();
      expect(axe.violations.map((v) => v.id)).toEqual([]);
      await page.screenshot({ path: shotPath(`conversations-ui-assist-${scheme}`) });
    }
  });

  it('never ends the Recent Conversations card on half a tile without showing it scrolls', async () => {
    // Once per run (the e2e project tries a timed-out test once more).
    if ((await conversations()).length < 6) {
      for (const text of [
        'Plan my week',
        'Sort the garden',
        'Read more books',
        'Call grandma',
        'Gym times',
      ]) {
        await api('/api/conversations', { method: 'POST', body: { title: text, content: text } });
      }
    }
    for (const scheme of ['light', 'dark'] as const) {
      const page = await open('/assist', scheme);
      const list = page.getByRole('list', { name: 'Recent conversations' });
      await list.getByRole('listitem').nth(5).waitFor();
      expect(await list.getByRole('listitem').count()).toBe(6);
      const layout = await list.evaluate((ul) => {
        const box = ul.getBoundingClientRect();
        const style = getComputedStyle(ul);
        const cut = Array.from(ul.children).some((li) => {
          const r = li.getBoundingClientRect();
          return r.top < box.bottom && r.bottom > box.bottom + 0.5;
        });
        return {
          cut,
          scrolls: ul.scrollHeight > ul.clientHeight,
          snaps: style.scrollSnapType.startsWith('y'),
          fades: style.maskImage !== 'none',
        };
      });
      // Six tiles are more than the card holds at 390×844: the one cut by its edge reads as "more
      // below", the list scrolling by rows with its edge faded.
      expect(layout).toEqual({ cut: true, scrolls: true, snaps: true, fades: true });
      // At the end of the list the last tile is whole.
      await list.evaluate((ul) => ul.scrollTo({ top: ul.scrollHeight }));
      const lastWhole = await list.evaluate((ul) => {
        const last = ul.lastElementChild!.getBoundingClientRect();
        return last.bottom <= ul.getBoundingClientRect().bottom;
      });
      expect(lastWhole).toBe(true);
      await list.evaluate((ul) => ul.scrollTo({ top: 0 }));
      await page.screenshot({ path: shotPath(`conversations-ui-recent-${scheme}`) });
    }
  });

  it('lists conversations with the tab bar, and a new conversation exists only once it has a message', async () => {
    // An empty conversation left by an older client is not listed.
    await api('/api/conversations', { method: 'POST', body: { title: 'New Conversation' } });
    const before = await conversations();
    expect(before.every((c) => c.title !== 'New Conversation')).toBe(true);

    const page = await open('/conversations');
    const tabs = page.getByRole('navigation', { name: 'Main' });
    await tabs.waitFor();
    expect(await tabs.getByRole('link', { name: 'Assist' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('link', { name: 'Plan my week' }).first().waitFor();
    // The last card is not hidden behind the fixed tab bar.
    const lastCard = page.getByRole('main').getByRole('listitem').last();
    await lastCard.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const cardBottom = (await lastCard.boundingBox())!;
    const barTop = (await tabs.boundingBox())!.y;
    expect(cardBottom.y + cardBottom.height).toBeLessThanOrEqual(barTop);
    await page.screenshot({ path: shotPath('conversations-ui-list-light'), fullPage: false });

    // New Conversation, then leave without a message: nothing is created.
    await page.getByRole('link', { name: 'New Conversation' }).click();
    await page.waitForURL(/\/conversations\/new$/);
    await page.getByText('No messages yet').waitFor();
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL(/\/conversations$/);
    expect((await conversations()).length).toBe(before.length);

    // The first message creates it and opens it.
    await page.getByRole('link', { name: 'New Conversation' }).click();
    const question = `What should I cook at ${Date.now() % 10_000}?`;
    await page.getByLabel('Message').fill(question);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/conversations\/\d+$/);
    await page.getByText('Happy to help.').waitFor({ timeout: 15_000 });
    const after = await conversations();
    expect(after.length).toBe(before.length + 1);
    expect(after[0]!.title).toBe(question);

    const dark = await open('/conversations', 'dark');
    await dark.getByRole('navigation', { name: 'Main' }).waitFor();
    await dark.getByRole('link', { name: question }).waitFor();
    await dark.screenshot({ path: shotPath('conversations-ui-list-dark') });
  });

  it('shows the calendar badge only for a chat that read a calendar, not for calendar words', async () => {
    const created = await api<Conversation>('/api/conversations', {
      method: 'POST',
      body: {
        title: 'New Conversation',
        content: 'Remind me how long the meeting was, its duration and the appointment',
      },
    });
    await replied(created.id);
    const page = await open('/conversations');
    const card = page.getByRole('listitem').filter({ has: page.locator(`a[href$="/${created.id}"]`) });
    await card.waitFor();
    expect(await card.getByText('Calendar integration used').count()).toBe(0);
    expect((await conversations()).find((c) => c.id === created.id)?.calendarUsed).toBe(false);
  });

  it('sends with Enter from every chat input (the voice dialog too), and lists offer Try Again on errors', async () => {
    const page = await open('/assist');
    await page.getByRole('button', { name: 'Voice Input' }).click();
    const dialog = page.getByRole('dialog', { name: 'Voice Conversation' });
    const spoken = dialog.getByLabel('What you said');
    const words = `Voice ${Date.now()}`;
    await spoken.fill(`${words}: first line`);
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await spoken.inputValue()).toBe(`${words}: first line\nsecond line`);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/conversations\/\d+$/);
    await page.getByRole('listitem').filter({ hasText: words }).waitFor();

    // Recent Conversations and the list fail to load: both say so and offer Try Again.
    let failing = true;
    const errors = await open('/assist', 'dark');
    await errors.route(/\/api\/conversations(\?.*)?$/, (route) =>
      failing ? route.fulfill({ status: 500, body: '{"message":"down"}' }) : route.continue(),
    );
    await errors.reload();
    const alert = errors.getByRole('alert').filter({ hasText: 'Failed to fetch conversations' });
    await alert.waitFor();
    await errors.screenshot({ path: shotPath('conversations-ui-recent-error-dark') });
    failing = false;
    await alert.getByRole('button', { name: 'Try Again' }).click();
    await errors.getByRole('list', { name: 'Recent conversations' }).waitFor();
    failing = true;
    await errors.goto('/conversations');
    const listAlert = errors.getByRole('alert').filter({ hasText: 'Failed to load conversations' });
    await listAlert.waitFor();
    failing = false;
    await listAlert.getByRole('button', { name: 'Try Again' }).click();
    await errors.getByRole('link', { name: 'Plan my week' }).first().waitFor();
  });
});
