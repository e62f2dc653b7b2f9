/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotionDouble } from '../doubles/notion-server';
import { startSlackDouble } from '../doubles/slack-server';
import { shotPath, startSignedInProduct } from './harness';

/** Slack and Notion connected from the Integrations screen through their doubles. */
describe('Slack and Notion in Chromium at 390×844', () => {
  let slack: Awaited<ReturnType<typeof startSlackDouble>>;
  let notion: Awaited<ReturnType<typeof startNotionDouble>>;
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;

  beforeAll(async () => {
    slack = await startSlackDouble();
    notion = await startNotionDouble();
    stack = await startSignedInProduct(
      { username: 'noor', email: 'noor@example.com', password: 'workspace-pass' },
      // OAuth returns to APP_URL, so the browser uses the same origin.
      { env: { ...slack.env, ...notion.env }, oauth: true },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    await slack?.stop();
    await notion?.stop();
  });

  it('connects both, fills More Integrations, saves an insight to Notion, and disconnects Slack', async () => {
    slack.state.consentAs = 'U0NOOR';
    slack.person('U0NOOR', 'noor');
    slack.person('U0BEN', 'ben');
    slack.channel('C0LAUNCH', 'launch');
    slack.post('C0LAUNCH', 'U0BEN', '<@U0NOOR> are we still on for the demo at 3?');
    notion.state.consentAs = 'ws-noor';
    const journal = notion.addPage('ws-noor', 'Journal', ['Where my notes go.']);
    notion.addPage('ws-noor', 'Launch plan', ['Ship the onboarding review before Thursday.']);
    const api = async (path: string, init: RequestInit = {}) =>
      fetch(`${stack.product.url}${path}`, {
        ...init,
        headers: { cookie: stack.cookieHeader, 'content-type': 'application/json' },
      });
    expect(
      (
        await api('/api/thoughts', {
          method: 'POST',
          body: JSON.stringify({
            content: 'Planted tomatoes with Sam. The soil finally feels warm enough.',
            clientDate: new Date().toISOString(),
            timezoneOffset: new Date().getTimezoneOffset(),
          }),
        })
      ).status,
    ).toBe(201);

    const { context, page } = await stack.newPage('light', { timeout: 15_000 });
    try {
      for (const [provider, type, name] of [
        ['slack', 'messages', 'Slack'],
        ['notion', 'documents', 'Notion'],
      ]) {
        await page.goto(`/integrations/${provider}/${type}`);
        await page.getByRole('button', { name: 'Connect' }).click();
        await page.getByText(`${name} integration connected`, { exact: true }).first().waitFor();
      }
      await expect
        .poll(async () => JSON.stringify(await (await api('/api/assist/more')).json()), { timeout: 15_000 })
        .toMatch(/demo at 3.*Launch plan/);

      await page.goto('/assist');
      const tab = page.getByRole('button', { name: 'Show card 3 of 3: More Integrations' });
      await tab.click();
      await expect.poll(() => tab.getAttribute('aria-current')).toBe('true');
      const more = page.getByRole('region', { name: 'More Integrations' });
      await more.getByText('are we still on for the demo at 3?', { exact: false }).waitFor();
      await more.getByRole('link', { name: /Launch plan/ }).waitFor();
      await page.waitForTimeout(600); // the smooth scroll settles (for the screenshot only)
      await page.screenshot({ path: shotPath('assist-more-connected') });

      // Choose where pages are saved, once.
      await page.goto('/integrations/notion/documents');
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByRole('list', { name: 'Notion pages' }).getByRole('button', { name: 'Journal' }).click();
      await page.getByText('Settings saved', { exact: true }).first().waitFor();
      await page.screenshot({ path: shotPath('notion-settings') });

      await page.goto('/home');
      await page.getByText('Generating insights…').waitFor({ state: 'detached', timeout: 20_000 });
      await page.getByRole('button', { name: 'Save to Notion' }).click();
      await page.getByText('Saved to Notion', { exact: true }).first().waitFor();
      const created = notion.state.created.at(-1)!;
      expect(created.parent).toEqual({ page_id: journal.id });
      expect(JSON.stringify(created.children)).toContain('tomatoes');

      await page.goto('/integrations/slack/messages');
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Disconnect' }).click();
      await page.waitForURL(/\/integrations$/);
      expect(slack.state.calls.at(-1)!.method).toBe('auth.revoke');
      await page.goto('/assist');
      await page.getByRole('button', { name: 'Show card 3 of 3: More Integrations' }).click();
      await page
        .getByRole('region', { name: 'More Integrations' })
        .getByRole('link', { name: 'Connect Slack' })
        .waitFor();
    } finally {
      await context.close();
    }
  });
});
