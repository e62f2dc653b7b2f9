/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { unzip, zipOf } from '../support/zip';
import { shotPath, startSignedInProduct } from './harness';

/** Settings → Privacy → 'Your data': export, import, and 'Delete account' confirmed with the password. */
describe('your data in Chromium at 390×844', () => {
  let stack: Awaited<ReturnType<typeof startSignedInProduct>>;
  const who = { username: 'leaving', email: 'leaving@example.com', password: 'leaving-pass' };

  beforeAll(async () => {
    stack = await startSignedInProduct(who);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('exports a zip the browser downloads, and imports a zip of notes', async () => {
    const { context, page } = await stack.newPage('light', { timeout: 20_000 });
    try {
      await fetch(`${stack.product.url}/api/thoughts`, {
        method: 'POST',
        headers: { cookie: stack.cookieHeader, 'content-type': 'application/json' },
        body: JSON.stringify({
          content: 'Exported thought.',
          clientDate: '2025-03-09T10:00:00.000Z',
          timezoneOffset: 0,
        }),
      });
      await page.goto('/settings');
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^haven-export-\d{4}-\d{2}-\d{2}\.zip$/);
      const files = await unzip(readFileSync((await download.path())!));
      expect(files.get('2025/03/2025-03-09.md')!.toString()).toContain('Exported thought.');

      const notes = await zipOf({
        'notes/2025-05-01.md': 'From my old app. #moved',
        // Front matter that is not YAML, or nested past 64 levels, is read line by line (the note
        // is imported, the report says so); a note over 1 MB is not.
        'notes/broken.md': '---\ndate: [\n---\nx',
        'notes/deep.md': `---\ntags: ${'['.repeat(100)}\n---\nx`,
        'notes/huge.md': 'A long day. '.repeat(100_000),
      });
      await page
        .getByLabel('Zip file to import')
        .setInputFiles({ name: 'notes.zip', mimeType: 'application/zip', buffer: notes });
      await page.getByText('Imported 3 notes, 1 failed.').first().waitFor();
      await page
        .getByText('notes/huge.md: The note is larger than 1 MB, the limit of one note; it was not imported')
        .waitFor();
      await page.getByRole('link', { name: /Download report/ }).waitFor();
      await page.screenshot({ path: shotPath('your-data') });
    } finally {
      await context.close();
    }
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
    const { context, page } = await stack.newPage('light', { timeout: 15_000 });
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
