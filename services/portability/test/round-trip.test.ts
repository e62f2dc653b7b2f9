import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import type { Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@haven/auth/db/schema';
import { hashPassword } from '@haven/auth/domain/secrets';
import type { ExportProgress, ImportProgress } from '@haven/contracts/portability';
import type { Thought } from '@haven/contracts/thoughts';
import { until } from '@haven/kit/testing';
import { transfers as transfersTable } from '../src/db/schema';
import { claimDownload, expireExports } from '../src/db/transfers.repository';
import { createBlobStore } from '../src/domain/blob-store';
import { createTransfers, TRANSFER_MESSAGES } from '../src/domain/transfers';
import { startEveryService } from '../../../test/support/stack';
import { unzip, zipOf } from '../../../test/support/zip';
import { tarOf } from './support/tar';

describe('export and import', () => {
  let everything: Awaited<ReturnType<typeof startEveryService>>;
  let stack: Awaited<ReturnType<typeof startEveryService>>['stack'];
  let seq = 0;
  let lastImport = '';

  beforeAll(async () => {
    everything = await startEveryService();
    stack = everything.stack;
  });
  afterAll(async () => {
    await everything?.stop();
  });

  async function newUser(n = ++seq): Promise<number> {
    const [row] = await stack
      .get('auth')
      .deps.db.insert(users)
      .values({
        username: `porter${n}`,
        email: `porter${n}@example.com`,
        passwordHash: await hashPassword('secret-pass'),
      })
      .returning();
    return row!.id;
  }
  /** A call as the gateway makes it, to the service that owns the path. */
  const as =
    (service: 'auth' | 'portability') =>
    (userId: number, path: string, init: RequestInit = {}) =>
      fetch(stack.get(service).url + path, {
        ...init,
        headers: { ...stack.headers(service, userId), ...(init.headers as Record<string, string>) },
      });
  const auth = as('auth');
  const port = as('portability');
  const thoughtsOf = async (userId: number) =>
    ((await stack.call('thoughts', userId, 'GET', '/api/thoughts/all')).body as Thought[])
      .map(({ content, date, localDate, category, tags, isVoice, hasAudio, format }) => ({
        content,
        date,
        localDate,
        category,
        tags,
        isVoice,
        hasAudio,
        format,
      }))
      .sort((a, b) => a.date.localeCompare(b.date));

  async function exportOf(userId: number): Promise<{ id: string; zip: Buffer }> {
    const id = await readyExport(userId);
    const download = await port(userId, `/api/account/export/${id}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    return { id, zip: Buffer.from(await download.arrayBuffer()) };
  }

  /** Where an export stands, as its owner asks. */
  const exportStatus = async (userId: number, id: string) =>
    ((await (await port(userId, `/api/account/export/${id}`)).json()) as ExportProgress).status;

  /** Starts an export and waits until its zip is ready; its id. */
  async function readyExport(userId: number): Promise<string> {
    const started = await port(userId, '/api/account/export', { method: 'POST' });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    await until(
      async () => (await exportStatus(userId, id)) === 'ready',
      // 10,000 thoughts on a busy machine take a while; a stuck export still fails.
      60_000,
      'export ready',
    );
    return id;
  }

  async function importOf(userId: number, zip: Buffer): Promise<ImportProgress> {
    const started = await port(userId, '/api/account/import', {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: new Uint8Array(zip),
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    lastImport = id;
    let progress: ImportProgress | undefined;
    await until(
      async () => {
        progress = (await (await port(userId, `/api/account/import/${id}`)).json()) as ImportProgress;
        return progress.status === 'done' || progress.status === 'failed';
      },
      20_000,
      'import finished',
    );
    return progress!;
  }

  it('exports everything to a zip, downloadable once, and imports it back into a new account', async () => {
    const n = ++seq;
    const me = await newUser(n);
    const seeds = [
      {
        content: 'Planted tomatoes with Sam.',
        category: 'personal',
        tags: ['garden', 'family'],
        clientDate: '2025-03-09T14:05:00.000Z',
      },
      {
        content: 'Ship the review before Thursday.',
        category: 'professional',
        tags: ['work'],
        clientDate: '2025-03-10T09:00:00.000Z',
      },
      {
        content: 'A story told through voicemails.',
        category: 'creative',
        tags: [],
        clientDate: '2025-04-01T20:30:00.000Z',
        isVoice: true,
        audioData: `data:audio/webm;base64,${Buffer.from('fake audio bytes').toString('base64')}`,
      },
    ];
    for (const s of seeds)
      expect(
        (
          await stack.call('thoughts', me, 'POST', '/api/thoughts', {
            timezoneOffset: 0,
            isVoice: false,
            ...s,
          })
        ).status,
      ).toBe(201);
    const { id: conversationId } = (
      await stack.call('assistant', me, 'POST', '/api/conversations', { title: 'Garden plans' })
    ).body as { id: number };
    await stack.call('assistant', me, 'POST', `/api/conversations/${conversationId}/messages`, {
      content: 'When should I plant beans?',
      type: 'user',
    });
    const consent = (
      await stack.call('integrations', me, 'POST', '/api/integrations/google/auth', { type: 'email' })
    ).body as { authUrl: string };
    const back = new URL((await fetch(consent.authUrl, { redirect: 'manual' })).headers.get('location')!);
    await stack.call('integrations', me, 'POST', '/api/integrations/google/auth-complete', {
      type: 'email',
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
    });
    const before = await thoughtsOf(me);

    const { id, zip } = await exportOf(me);
    const files = await unzip(zip);
    const exported = JSON.parse(files.get('thoughts.json')!.toString()) as Array<Record<string, unknown>>;
    expect(
      exported.map(({ content, date, localDate, category, tags, isVoice }) => ({
        content,
        date,
        localDate,
        category,
        tags,
        isVoice,
      })),
    ).toEqual(before.map(({ hasAudio: _h, format: _f, ...t }) => t));
    const voice = exported.find((t) => t.isVoice)!;
    expect(files.get(voice.audioFile as string)!.toString()).toBe('fake audio bytes');
    expect(files.get('2025/03/2025-03-09.md')!.toString()).toMatch(
      /^# Sunday, 9 March 2025[\s\S]*## 14:05 UTC · personal · #garden #family\n\nPlanted tomatoes with Sam\./,
    );
    const chats = JSON.parse(files.get('conversations.json')!.toString()) as Array<{
      title: string;
      messages: unknown[];
    }>;
    expect(chats).toEqual([
      expect.objectContaining({
        title: 'Garden plans',
        messages: expect.arrayContaining([
          expect.objectContaining({ content: 'When should I plant beans?' }),
        ]),
      }),
    ]);
    expect(
      [...files.keys()].some((f) => f.startsWith('conversations/') && f.endsWith('-garden-plans.md')),
    ).toBe(true);
    const integrations = files.get('integrations.json')!.toString();
    expect(JSON.parse(integrations)).toEqual([
      expect.objectContaining({ provider: 'google', type: 'email' }),
    ]);
    expect(integrations).not.toMatch(/token|ya29|refresh/i);
    expect(files.has('insights.json')).toBe(true);

    // Once: the file is gone after the download. Never another user's. (The server records the
    // download once the last byte has left, which can be a moment after the client has it all.)
    await until(async () => (await exportStatus(me, id)) === 'downloaded', 5_000, 'download recorded');
    expect((await port(me, `/api/account/export/${id}/download`)).status).toBe(410);
    const stranger = await newUser();
    expect((await port(stranger, `/api/account/export/${id}`)).status).toBe(404);
    expect((await port(stranger, `/api/account/export/${id}/download`)).status).toBe(404);

    // The account is deleted, registered again with the same address, and the zip imported into it:
    // the same thoughts, dates, categories and tags, the audio and the conversation.
    expect(
      (
        await auth(me, '/api/user', {
          method: 'DELETE',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ password: 'secret-pass' }),
        })
      ).status,
    ).toBe(200);
    await until(
      async () =>
        (
          await stack
            .get('auth')
            .deps.db.select()
            .from(users)
            .where(sql`id = ${me}`)
        ).length === 0,
      20_000,
      'the account deleted',
    );
    expect(await thoughtsOf(me)).toEqual([]);
    const again = await newUser(n);
    const imported = await importOf(again, zip);
    expect(imported).toMatchObject({
      status: 'done',
      format: 'haven',
      imported: 3,
      conversations: 1,
      duplicates: 0,
      failed: 0,
      errors: [],
    });
    expect(await thoughtsOf(again)).toEqual(before);
    const conversations = (await stack.call('assistant', again, 'GET', '/api/conversations')).body as Array<{
      title: string;
    }>;
    expect(conversations.map((c) => c.title)).toEqual(['Garden plans']);
    // Importing the same zip twice adds nothing.
    expect(await importOf(again, zip)).toMatchObject({
      status: 'done',
      imported: 0,
      conversations: 0,
      duplicates: 4,
    });
    expect(await thoughtsOf(again)).toHaveLength(3);
    expect((await port(stranger, '/api/account/import/nope-nope-nope')).status).toBe(404);
  });

  it('gives the zip to one download at a time, and lets go of it when a download is cut off', async () => {
    const me = await newUser();
    const id = await readyExport(me);
    const download = () => port(me, `/api/account/export/${id}/download`);
    const { deps } = stack.get('portability');
    const domain = createTransfers({
      db: deps.db,
      uow: deps.uow,
      blobs: createBlobStore({ db: deps.db, cipher: deps.cipher }),
      cipher: deps.cipher,
    });

    // A phone on a bad link: it takes the first bytes of the zip, then nothing more.
    let started!: () => void;
    const firstBytes = new Promise<void>((resolve) => (started = resolve));
    const stalled = Object.assign(
      new Writable({
        highWaterMark: 1,
        write(_chunk, _encoding, _done) {
          started(); // and never done: the connection stays full
        },
      }),
      { status: () => stalled, setHeader: () => stalled },
    );
    const first = domain.download(me, id, stalled as unknown as Response);
    await firstBytes;

    // A second download meanwhile (a double tap, or someone else holding the session) gets nothing.
    const second = await download();
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ message: TRANSFER_MESSAGES.downloading });

    // The first is cut off: the export is let go, not lost.
    stalled.destroy(new Error('connection lost'));
    await expect(first).rejects.toThrow();
    expect(await exportStatus(me, id)).toBe('ready');

    // A replica that died mid-download leaves its claim: it holds the export until it lapses.
    expect(await claimDownload(deps.db, id, 60)).toBe(true);
    expect((await download()).status).toBe(409);
    await deps.db
      .update(transfersTable)
      .set({ downloadingUntil: sql`now() - interval '1 second'` })
      .where(eq(transfersTable.id, id));
    const whole = await download();
    expect(whole.status).toBe(200);
    expect((await unzip(Buffer.from(await whole.arrayBuffer()))).has('thoughts.json')).toBe(true);
    await until(async () => (await exportStatus(me, id)) === 'downloaded', 5_000, 'download recorded');
    expect((await download()).status).toBe(410);
  });

  it('expires an export left a day, but not while a download streams it', async () => {
    const me = await newUser();
    const id = await readyExport(me);
    const { deps } = stack.get('portability');
    await deps.db
      .update(transfersTable)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(transfersTable.id, id));
    expect(await claimDownload(deps.db, id, 60)).toBe(true);
    expect(await expireExports(deps.db)).toEqual([]);
    const [held] = await deps.db.select().from(transfersTable).where(eq(transfersTable.id, id));
    expect(held).toMatchObject({ status: 'ready', blobId: expect.any(String) });

    // The download's claim lapsed (its replica died): the export expires, and its file is named.
    await deps.db
      .update(transfersTable)
      .set({ downloadingUntil: sql`now() - interval '1 second'` })
      .where(eq(transfersTable.id, id));
    expect(await expireExports(deps.db)).toContain(held!.blobId);
    expect(await exportStatus(me, id)).toBe('expired');
    expect((await port(me, `/api/account/export/${id}/download`)).status).toBe(410);
  });

  it('imports a folder of Markdown and text notes, a note with broken front matter too, the report saying what was not understood', async () => {
    const me = await newUser();
    const zip = await zipOf({
      'journal/2025-03-09.md': 'Long walk by the river. #health #gratitude\n',
      'journal/Walk.md':
        '---\ndate: 2025-02-01T07:30:00Z\ntags: [outdoors, morning]\ncategory: personal\n---\nSunrise over the hills.\n',
      'journal/broken.md': '---\ndate: 2025-01-01\ntags: [unclosed\n---\nNever lost to its front matter.\n',
      'notes.txt': 'Plain text idea from a phone.',
      'journal/photo.png': 'not really a png',
      '.obsidian/workspace.md': 'not a note',
      '__MACOSX/journal/._Walk.md': 'resource fork',
    });
    const result = await importOf(me, zip);
    const first = lastImport;
    expect(result).toMatchObject({ status: 'done', imported: 4, failed: 0, duplicates: 0 });
    expect(result.skipped).toBeGreaterThanOrEqual(1);
    expect(result.errors).toEqual([]);
    const thoughts = await thoughtsOf(me);
    expect(thoughts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          content: expect.stringContaining('Long walk by the river. #health #gratitude'),
          localDate: '2025-03-09',
          tags: ['health', 'gratitude'],
          format: 'markdown',
        }),
        expect.objectContaining({
          content: expect.stringMatching(/^# Walk\n\nSunrise over the hills\.$/),
          date: '2025-02-01T07:30:00.000Z',
          tags: ['outdoors', 'morning'],
        }),
        expect.objectContaining({
          content: expect.stringContaining('Never lost to its front matter.'),
          localDate: '2025-01-01',
        }),
        expect.objectContaining({
          content: expect.stringContaining('Plain text idea from a phone.'),
          localDate: '2024-06-01',
          format: 'text',
        }),
      ]),
    );
    expect(await importOf(me, zip)).toMatchObject({ imported: 0, duplicates: 4 });

    // The report names every file with what became of it.
    const report = await port(me, `/api/account/import/${lastImport}/report`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toMatch(/^text\/csv/);
    const csv = await report.text();
    expect(csv.split('\n')[0]).toBe('file,outcome,line,reason');
    expect(csv).toMatch(/^journal\/Walk\.md,duplicate,/m);
    expect(csv).toMatch(/^journal\/photo\.png,skipped,/m);
    expect(csv).toMatch(/^journal\/broken\.md,duplicate,/m);
    // The first import's report says what of the broken note was not understood.
    const firstReport = await (await port(me, `/api/account/import/${first}/report`)).text();
    expect(firstReport).toMatch(/^journal\/broken\.md,imported,[^\n]*front matter/m);
  });

  it('imports a Joplin JEX uploaded as Joplin wrote it (a tar), with its tags', async () => {
    const me = await newUser();
    const id = (n: number) => String(n).repeat(32);
    const meta = (lines: string[], type: number) => `${lines.join('\n')}\ntype_: ${type}`;
    const jex = await tarOf({
      [`${id(1)}.md`]: `Packing list\n\nPassport, charger, a good book.\n\n${meta(
        [`id: ${id(1)}`, `parent_id: ${id(4)}`, 'created_time: 2022-05-11T01:43:42.226Z', 'is_todo: 0'],
        1,
      )}`,
      [`${id(2)}.md`]: `travel\n\n${meta([`id: ${id(2)}`, 'created_time: 2022-05-11T01:45:23.062Z'], 5)}`,
      [`${id(3)}.md`]: meta([`id: ${id(3)}`, `note_id: ${id(1)}`, `tag_id: ${id(2)}`], 6),
      [`${id(4)}.md`]: `Trips\n\n${meta([`id: ${id(4)}`, 'created_time: 2022-05-11T01:40:00.000Z'], 2)}`,
      [`resources/${id(5)}.png`]: 'not really a png',
    });
    const result = await importOf(me, jex);
    expect(result).toMatchObject({ status: 'done', format: 'joplin', imported: 1, failed: 0 });
    expect(await thoughtsOf(me)).toEqual([
      expect.objectContaining({
        content: expect.stringMatching(/^# Packing list\n\nPassport, charger, a good book\.$/),
        date: '2022-05-11T01:43:42.226Z',
        tags: ['travel'],
      }),
    ]);
  });

  it('imports a jrnl journal, each entry a thought at its date and time, a malformed entry reported at its line', async () => {
    const me = await newUser();
    const zip = await zipOf({
      'jrnl/journal.txt':
        '[2024-01-30 09:00] Morning run. *\nFive km by the river @health\n\n' +
        '[2024-02-30 10:00] No such day\nlost with it\n' +
        '[2024-01-31 09:15:00 PM] Late thought.\n',
    });
    const result = await importOf(me, zip);
    expect(result).toMatchObject({ status: 'done', format: 'jrnl', imported: 2, failed: 1 });
    expect(result.errors).toEqual([
      expect.objectContaining({
        file: 'jrnl/journal.txt',
        line: 4,
        message: expect.stringMatching(/not a date/),
      }),
    ]);
    expect(await thoughtsOf(me)).toEqual([
      expect.objectContaining({
        content: 'Morning run.\n\nFive km by the river @health',
        date: '2024-01-30T09:00:00.000Z',
        localDate: '2024-01-30',
        tags: ['health'],
        format: 'text',
      }),
      expect.objectContaining({ content: 'Late thought.', date: '2024-01-31T21:15:00.000Z' }),
    ]);
  });

  it('refuses what is not a zip, and a zip without notes, clearly', async () => {
    const me = await newUser();
    const wrongType = await port(me, '/api/account/import', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(wrongType.status).toBe(415);
    expect(((await wrongType.json()) as { message: string }).message).toBe('Please choose a .zip file');
    expect(await importOf(me, Buffer.from('definitely not a zip'))).toMatchObject({
      status: 'failed',
      message: 'The file is not a zip archive',
      imported: 0,
    });
    const empty = await importOf(me, await zipOf({ 'photo.jpg': 'jpeg' }));
    expect(empty).toMatchObject({ status: 'failed', message: expect.stringMatching(/no notes/) });
    const rows = await stack
      .get('thoughts')
      .deps.db.execute(sql`select count(*)::int as n from thoughts.thoughts where user_id = ${me}`);
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
    // Nothing of a failed upload stays stored.
    const blobs = await stack
      .get('portability')
      .deps.db.execute(sql`select count(*)::int as n from portability.blobs where user_id = ${me}`);
    expect((blobs as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
  });

  it('exports 10,000 thoughts page by page, the process growing by less than 150 MB', async () => {
    const me = await newUser();
    for (let i = 0; i < 10_000; i += 500) {
      const items = Array.from({ length: 500 }, (_, k) => {
        const date = new Date(Date.UTC(2024, 0, 1) + (i + k) * 93 * 60_000);
        return {
          key: `seed-${i + k}-xxxxxx`,
          content: `Thought ${i + k}: a few lines about the day and plans for tomorrow.`,
          date: date.toISOString(),
          localDate: date.toISOString().slice(0, 10),
          category: 'personal',
          tags: ['garden'],
          isVoice: false,
        };
      });
      const res = await fetch(`${stack.get('thoughts').url}/internal/import/thoughts`, {
        method: 'POST',
        headers: { ...stack.headers('thoughts', me, 'portability'), 'content-type': 'application/json' },
        body: JSON.stringify({ items }),
      });
      expect(res.status).toBe(200);
    }
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const { zip } = await exportOf(me);
      const files = await unzip(zip);
      expect((JSON.parse(files.get('thoughts.json')!.toString()) as unknown[]).length).toBe(10_000);
      expect([...files.keys()].filter((f) => /^\d{4}\/\d{2}\/.+\.md$/.test(f)).length).toBeGreaterThan(600);
    } finally {
      clearInterval(sampler);
    }
    expect((peak - base) / 2 ** 20).toBeLessThan(150);
  }, 90_000);
});
