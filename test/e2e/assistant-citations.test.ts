/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shotPath, startSignedInProduct } from './harness';

describe('the assistant’s citations in Chromium at 390×844, no model configured', () => {
  let signedIn: Awaited<ReturnType<typeof startSignedInProduct>>;

  beforeAll(async () => {
    signedIn = await startSignedInProduct({
      username: 'cito',
      email: 'cito@example.com',
      password: 'correct horse',
      name: 'Cito',
    });
    const write = (content: string) => signedIn.writeThought(content, { category: 'personal' });
    await write('Lunch with Tom: he is moving to Leeds in spring, and wants help with the boxes.');
    await write('Call mum tomorrow about the tickets.');
  });
  afterAll(async () => {
    await signedIn?.stop();
  });

  for (const colorScheme of ['light', 'dark'] as const)
    it(`lists the cited entry with a chip that opens it (${colorScheme})`, async () => {
      const { page } = await signedIn.newPage(colorScheme);
      await page.goto('/assist');
      await page.getByLabel('Message the assistant').fill('What did I write about Tom this week?');
      await page.keyboard.press('Enter');
      const chip = page.getByRole('button', { name: 'Open cited thought #1' });
      await chip.waitFor({ timeout: 20_000 });
      expect(await page.getByRole('button', { name: 'Open cited thought #2' }).count()).toBe(0);
      const box = await chip.boundingBox();
      expect(box!.width).toBeGreaterThanOrEqual(44);
      expect(box!.height).toBeGreaterThanOrEqual(44);
      await page.screenshot({ path: shotPath(`assistant-citations-${colorScheme}`) });
      await chip.click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Thought #1' }).waitFor();
      expect(await dialog.textContent()).toContain('moving to Leeds');
      await page.close();
    });
});
