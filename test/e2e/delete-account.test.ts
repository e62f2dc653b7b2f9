/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phonePage, shotPath, startSignedInProduct } from './harness';

/** Settings → Privacy → 'Delete account', confirmed with the password. */
describe('deleting the account in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  const who = { username: 'leaving', email: 'leaving@example.com', password: 'leaving-pass' };

  beforeAll(async () => {
    stack = await startSignedInProduct(who);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('asks for the password, signs out, and the account is gone', async () => {
    const saved = await fetch(`${stack.product.url}/api/thoughts`, {
      method: 'POST',
      headers: { cookie: stack.cookieHeader, 'content-type': 'application/json' },
      body: JSON.stringify({
        content: 'A private thought.',
        clientDate: new Date().toISOString(),
        timezoneOffset: 0,
      }),
    });
    expect(saved.status).toBe(201);
    const { context, page } = await phonePage(stack.browser, stack.product.url, 'light', {
      cookie: stack.cookie,
    });
    page.setDefaultTimeout(15_000);
    try {
      await page.goto('/settings');
      await page.getByRole('button', { name: 'Delete account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
      await dialog.getByLabel('Password').fill('not-my-password');
      await dialog.getByRole('button', { name: 'Delete account' }).click();
      await dialog.getByText('Password is incorrect').waitFor();
      await page.screenshot({ path: shotPath('delete-account') });
      await dialog.getByLabel('Password').fill(who.password);
      await dialog.getByRole('button', { name: 'Delete account' }).click();
      await page.waitForURL(/\/welcome$/);
      await page.getByText('Account deleted', { exact: true }).first().waitFor();

      // Every session is gone, and so is the account once every service has deleted its part.
      const me = await fetch(`${stack.product.url}/api/user`, { headers: { cookie: stack.cookieHeader } });
      expect(me.status).toBe(401);
      await expect
        .poll(
          async () =>
            (
              await fetch(`${stack.product.url}/api/login`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ email: who.email, password: who.password }),
              })
            ).status,
        )
        .toBe(401);
    } finally {
      await context.close();
    }
  });
});
