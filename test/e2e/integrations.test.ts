/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleDouble } from '../doubles/google-server';
import { phonePage, shotPath, startSignedInProduct } from './harness';

/** Connecting Google mail from the Integrations screen, through the local Google double. */
describe('integrations in Chromium at 390×844', () => {
  let google: Awaited<ReturnType<typeof startGoogleDouble>>;
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  /** The address APP_URL names: OAuth returns there, so the browser must use it too. */
  let origin = '';

  beforeAll(async () => {
    google = await startGoogleDouble();
    stack = await startSignedInProduct(
      { username: 'kai', email: 'kai@example.com', password: 'inbox-pass' },
      { env: google.env },
    );
    origin = stack.product.url.replace('127.0.0.1', 'localhost');
  });
  afterAll(async () => {
    await stack?.stop();
    await google?.stop();
  });

  it('connects Google mail through the consent page, keeps rules, and disconnects', async () => {
    const { context, page } = await phonePage(stack.browser, origin, 'light', { cookie: stack.cookie });
    page.setDefaultTimeout(10_000);
    try {
      await page.goto('/integrations');
      await page.getByRole('heading', { name: 'Integrations' }).waitFor();
      await page.getByRole('link', { name: /Google Mail/ }).click();
      await page.getByRole('button', { name: 'Connect' }).click();
      // Google (the double) consents at once and sends the browser back through the server callback.
      await page.waitForURL(/\/integrations$/);
      await page.getByText('Google integration connected', { exact: true }).first().waitFor();
      expect(page.url()).toBe(`${origin}/integrations`);
      await page.getByRole('link', { name: /Google Mail, connected/ }).waitFor();
      await page.screenshot({ path: shotPath('integrations-connected') });

      await page.getByRole('link', { name: /Google Mail/ }).click();
      await page.getByRole('tab', { name: 'Contextual Rules' }).click();
      await page.getByRole('button', { name: 'Use Default Rules' }).click();
      await page.getByRole('button', { name: 'Save Rules' }).click();
      await page.getByText('Rules saved', { exact: true }).first().waitFor();
      await page.screenshot({ path: shotPath('integration-rules') });

      await page.getByRole('button', { name: 'Disconnect' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm
        .getByText(
          'Disconnect Google Mail? This will remove access to your account. The assistant will no longer be able to interact with your data.',
        )
        .waitFor();
      await confirm.getByRole('button', { name: 'Disconnect' }).click();
      await page.waitForURL(/\/integrations$/);
      await page.getByRole('link', { name: /Google Mail, not connected/ }).waitFor();
      expect(google.state.revoked.length).toBe(1);
    } finally {
      await context.close();
    }
  });
});
