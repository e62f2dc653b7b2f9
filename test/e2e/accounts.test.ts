/// <reference lib="dom" />
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, linkFrom } from '../doubles/smtp-catcher';
import { shotPath, startProductWithBrowser } from './harness';

/** Accounts in a real browser against the real product, reading mail from a local SMTP server. */
describe('accounts in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startProductWithBrowser>>;
  const who = { username: 'robin', name: 'Robin', email: 'robin@example.com', password: 'first-secret' };

  beforeAll(async () => {
    stack = await startProductWithBrowser();
  });
  afterAll(async () => stack?.stop());

  const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first().waitFor();

  async function logIn(page: Page, email: string, password: string) {
    await page.goto('/auth');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in', exact: true }).last().click();
  }

  it('registers with the e-mailed code and lands signed in', async () => {
    const { context, page } = await stack.newPage();
    await page.goto('/welcome');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/auth');
    expect(await page.getByRole('tab', { name: 'Create account' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await page.getByLabel('Username').fill(who.username);
    await page.getByLabel('Name (optional)').fill(who.name);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByLabel('Confirm Password').fill(who.password);
    const since = Date.now();
    await page.getByRole('button', { name: 'Create account' }).last().click();
    await page.waitForURL(/\/verify-code\?email=robin%40example\.com/);

    const code = codeFrom(await stack.smtp.waitFor(who.email, { since }));
    await page.getByLabel('Verification Code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Email Verified!' }).waitFor();
    await page.waitForURL('**/home', { timeout: 10_000 });
    await page.screenshot({ path: shotPath('accounts-home') });
    await context.close();
  });

  it('logs out from Settings and back in', async () => {
    const { context, page } = await stack.newPage();
    await logIn(page, who.email, who.password);
    await page.waitForURL('**/home');
    await toast(page, 'Welcome back!');

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Display' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/welcome');
    await toast(page, 'Logged out');
    await page.goto('/settings');
    await page.waitForURL('**/welcome');
    await context.close();
  });

  it('resets a forgotten password through the mailed link', async () => {
    const { context, page } = await stack.newPage();
    await page.goto('/auth');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/reset-password');
    // The address changes before React has swapped the screens: for a moment the login form, with
    // an 'Email' of its own, is still the one on the page. A page-wide 'Email' could be that one,
    // and the reset form then sent empty ('Please enter a valid email address', never 'Check Your
    // Email'); the reset form's own field and button wait for that form.
    const request = page.getByRole('form', { name: 'Send Reset Link' });
    await request.getByLabel('Email').fill(who.email);
    const since = Date.now();
    await request.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await page.getByText('If your email is registered, you will receive a password reset link.').waitFor();

    const link = linkFrom(
      await stack.smtp.waitFor(who.email, { since, subject: /Reset/ }),
      '/reset-password?token=',
    );
    expect(link.startsWith(stack.product.url.replace('127.0.0.1', 'localhost'))).toBe(true);
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByLabel('New Password').fill('second-secret');
    await page.getByLabel('Confirm Password').fill('second-secret');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password Reset Successful').waitFor();
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await page.waitForURL('**/auth');

    await logIn(page, who.email, who.password);
    await toast(page, 'Login failed');
    await logIn(page, who.email, 'second-secret');
    await page.waitForURL('**/home');
    await context.close();
  });

  it('shows each validation message of the spec for bad input', async () => {
    const { context, page } = await stack.newPage();
    await page.goto('/auth');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('123');
    await page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await page.getByText('Please enter a valid email address').waitFor();
    await page.getByText('Password must be at least 6 characters').waitFor();

    await page.getByRole('tab', { name: 'Create account' }).click();
    await page.getByLabel('Username').fill('ab');
    await page.getByLabel('Email').fill('ok@example.com');
    await page.getByLabel('Password', { exact: true }).fill('secret1');
    await page.getByLabel('Confirm Password').fill('secret2');
    await page.getByRole('button', { name: 'Create account' }).last().click();
    await page.getByText('Username must be at least 3 characters').waitFor();
    await page.getByText('Passwords do not match').waitFor();

    await page.goto('/verify-code?email=ok%40example.com');
    await page.getByLabel('Verification Code').fill('12345');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Verification code must be at least 6 digits').waitFor();
    await page.goto('/verify-code');
    await page.getByText('No email provided. Please return to registration.').waitFor();

    await page.goto('/reset-password?token=whatever');
    await page.getByLabel('New Password').fill('secret1');
    await page.getByLabel('Confirm Password').fill('secret2');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText("Passwords don't match").waitFor();

    await page.goto('/verify-email?error=true&reason=expired_token');
    await page
      .getByText('Your verification link has expired. Please request a new verification email.')
      .waitFor();
    await context.close();
  });

  it('keeps the chosen theme across a reload', async () => {
    const { context, page } = await stack.newPage('light');
    await logIn(page, who.email, 'second-secret');
    await page.waitForURL('**/home');
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Display' }).click();
    await page.getByRole('button', { name: 'Dark' }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.reload();
    await page.getByRole('tab', { name: 'Display' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('haven-ui-theme'))).toBe('dark');
    await context.close();
  });

  it('turns a privacy preference off, keeps it, and says so', async () => {
    const { context, page } = await stack.newPage();
    await logIn(page, who.email, 'second-secret');
    await page.waitForURL('**/home');
    await page.goto('/settings');
    const toggle = page.getByRole('switch', { name: 'Ask before sending emails' });
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await toast(page, 'Confirmation disabled');
    await page.reload();
    await page.getByRole('switch', { name: 'Ask before sending emails' }).waitFor();
    expect(
      await page.getByRole('switch', { name: 'Ask before sending emails' }).getAttribute('aria-checked'),
    ).toBe('false');
    await context.close();
  });
});
