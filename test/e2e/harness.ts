import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { startAllInOne, type AllInOne } from '../../scripts/all-in-one';

/** The machine's Chromium; Playwright cannot download its own here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The phone the product is designed for. */
export const PHONE = { width: 390, height: 844 };

/**
 * The whole product as `npm start` runs it (embedded PGlite in a temp folder, the machine's Redis
 * under a private key prefix) on a free port.
 */
export async function startProduct(
  env: Record<string, string> = {},
): Promise<AllInOne & { dataDir: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'haven-e2e-'));
  const productEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATA_DIR: dataDir,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `e2e${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    ...env,
  };
  const app = await startAllInOne(productEnv, { port: 0 });
  return {
    ...app,
    dataDir,
    async stop() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A fresh phone-sized page; `colorScheme` lets a test look at dark mode. */
export async function phonePage(
  browser: Browser,
  baseURL: string,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: PHONE, deviceScaleFactor: 1, colorScheme });
  return { context, page: await context.newPage() };
}

/** Screenshots land in test-results/ (not committed) for a person to look at. */
export function shotPath(name: string): string {
  return path.join(import.meta.dirname, '..', '..', 'test-results', `${name}.png`);
}
