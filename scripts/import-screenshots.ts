/**
 * `npx tsx scripts/import-screenshots.ts`: starts the whole product (PGlite), signs a user up,
 * imports real exports of other apps from ../shared/corpora/import-real (read in place: Evernote
 * tasks, a checklist, a table, a Day One journal), and saves each imported entry, opened in full on
 * its day of the timeline, at 390×844 in light and dark to test-results/screens/, for a person to
 * look at; then uploads a real Joplin JEX (its members tarred as Joplin tars them) through the Your
 * data card and saves the card with its result. Not a test.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ImportProgress } from '../contracts/src/portability';
import { zipEntries } from '../services/portability/test/support/probe-zips';
import { tarOfFolder } from '../services/portability/test/support/tar';
import { filesUnder } from '../services/portability/src/domain/import/formats/labelled.test-support';
import { phonePage, startSignedInProduct } from '../test/e2e/harness';

const REAL = path.join(import.meta.dirname, '..', '..', 'shared', 'corpora', 'import-real');
const out = path.join(import.meta.dirname, '..', 'test-results', 'screens');
mkdirSync(out, { recursive: true });

/** The uploads, one zip each. */
const uploads: Array<{ name: string; files: string[] }> = [
  {
    name: 'evernote',
    files: ['enex/joplin/tasks.enex', 'enex/yarle/test-checklist.enex', 'enex/yarle/test-table.enex'],
  },
  { name: 'dayone', files: ['dayone/ergebnis/Journal.json'] },
];

const env = await startSignedInProduct({
  username: 'iris',
  email: 'iris@example.com',
  password: 'correct horse',
  name: 'Iris',
});
/** Every thought of the user, with its id. */
const allThoughts = async () =>
  (await (
    await fetch(`${env.product.url}/api/thoughts/range?start=1000-01-01&end=2999-12-31`, {
      headers: { cookie: env.cookieHeader },
    })
  ).json()) as Array<{ id: number; localDate: string; content: string }>;

/** The first entry of a day opened in full on the timeline, light and dark, saved as `name-scheme.png`. */
async function shootOpened(name: string, localDate: string) {
  for (const scheme of ['light', 'dark'] as const) {
    const { context, page } = await phonePage(env.browser, env.product.url, scheme, { cookie: env.cookie });
    await page.goto(`/timeline?date=${localDate}`);
    await page.waitForLoadState('networkidle');
    const more = page.getByRole('button', { name: 'Show more' }).first();
    if (await more.count()) await more.click();
    await page.waitForTimeout(300);
    const file = path.join(out, `${name}-${scheme}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
    await context.close();
  }
}

try {
  /** The thoughts each upload brought, by upload name. */
  const brought = new Map<string, Awaited<ReturnType<typeof allThoughts>>>();
  for (const upload of uploads) {
    const before = new Set((await allThoughts()).map((t) => t.id));
    const zip = await zipEntries(
      upload.files.map((file) => ({ name: path.basename(file), data: readFileSync(path.join(REAL, file)) })),
    );
    const started = await fetch(`${env.product.url}/api/account/import`, {
      method: 'POST',
      headers: { cookie: env.cookieHeader, 'content-type': 'application/zip' },
      body: new Uint8Array(zip),
    });
    const { id } = (await started.json()) as { id: string };
    let progress: ImportProgress;
    do {
      await new Promise((r) => setTimeout(r, 300));
      progress = (await (
        await fetch(`${env.product.url}/api/account/import/${id}`, { headers: { cookie: env.cookieHeader } })
      ).json()) as ImportProgress;
    } while (progress.status !== 'done' && progress.status !== 'failed');
    console.log(
      `${upload.name}: ${progress.status}, ${progress.imported} imported, ${progress.failed} failed`,
    );
    brought.set(
      upload.name,
      (await allThoughts()).filter((t) => !before.has(t.id)),
    );
  }
  const wanted = [
    { name: 'import-evernote-tasks', upload: 'evernote', text: /Here is a simple test/ },
    { name: 'import-evernote-checklist', upload: 'evernote', text: /- \[x\] / },
    { name: 'import-evernote-table', upload: 'evernote', text: /\|\s*---/ },
    { name: 'import-dayone', upload: 'dayone', text: /\n\n- \[ \] / },
  ];
  for (const shot of wanted) {
    const thought = brought.get(shot.upload)?.find((t) => shot.text.test(t.content));
    if (!thought) {
      console.warn(`${shot.name}: no imported thought matches ${shot.text}`);
      continue;
    }
    await shootOpened(shot.name, thought.localDate);
  }
  // An Apple Notes export as the exporters write one (made here: the corpus holds none), its photo inline.
  const applePage = (title: string, body: string) =>
    `<html><head><meta charset="utf-8"><title>${title}</title></head><body><div><h1>${title}</h1></div>${body}</body></html>`;
  const apple = await zipEntries([
    {
      name: 'iCloud/Notes/Sunday market.html',
      data: Buffer.from(
        applePage(
          'Sunday market',
          '<div>Bought <b>figs</b> and bread from the stall by the fountain. #market</div><div><br></div>' +
            '<ul><li>Figs</li><li>Sourdough</li><li>Goat cheese</li></ul><div><br></div>' +
            `<div><img src="data:image/jpeg;base64,${'/9j/4AAQSkZJRg'.repeat(5000)}"></div>` +
            '<div>Next week: ask about the <i>honey</i>.</div>',
        ),
      ),
    },
  ]);
  const appleThought = await (async () => {
    const before = new Set((await allThoughts()).map((t) => t.id));
    await fetch(`${env.product.url}/api/account/import`, {
      method: 'POST',
      headers: { cookie: env.cookieHeader, 'content-type': 'application/zip' },
      body: new Uint8Array(apple),
    });
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 300));
      const fresh = (await allThoughts()).find((t) => !before.has(t.id));
      if (fresh) return fresh;
    }
    throw new Error('the Apple Notes page was not imported');
  })();
  console.log(JSON.stringify(appleThought.content));
  await shootOpened('import-apple-notes', appleThought.localDate);

  const jexFolder = path.join(REAL, 'joplin/notesnook-jex/03_10_2022');
  const jex = await tarOfFolder(jexFolder, filesUnder(jexFolder));
  for (const scheme of ['light', 'dark'] as const) {
    const { context, page } = await phonePage(env.browser, env.product.url, scheme, { cookie: env.cookie });
    await page.goto('/settings');
    await page
      .getByLabel('Zip file to import')
      .setInputFiles({ name: '03_10_2022.jex', mimeType: 'application/octet-stream', buffer: jex });
    await page.getByText('Import finished').first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(300);
    const file = path.join(out, `import-jex-${scheme}.png`);
    // The card and its result, without the toast over them.
    await page
      .getByRole('button', { name: /close|dismiss/i })
      .first()
      .click();
    await page.getByRole('link', { name: /Download report/ }).scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await page.screenshot({ path: file });
    console.log(
      file,
      await page
        .getByText(/^Imported|duplicates skipped/)
        .first()
        .textContent(),
    );
    await context.close();
  }
} finally {
  await env.stop();
}
