import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { thoughtsInternalContract } from '@haven/contracts/internal';
import {
  assistantPortabilityContract,
  insightsPortabilityContract,
  integrationsPortabilityContract,
  thoughtsPortabilityContract,
  type ExportedConversation,
  type ExportedThought,
} from '@haven/contracts/portability';
import type { Db } from '@haven/kit/db';
import type { InternalClients } from '@haven/kit/internal-client';
import type { Logger } from '@haven/kit/logger';
import { findForStep, updateAtStep } from '../db/transfers.repository';
import type { BlobStore } from './blob-store';
import { conversationMarkdown, dayMarkdown, slug } from './markdown';

/** How long an export waits to be downloaded. */
export const EXPORT_TTL_MS = 24 * 3_600_000;
const PAGE = 200;

const extensionOf = (mime: string) => mime.split('/')[1]?.split(/[;+]/)[0]?.replace('mpeg', 'mp3') || 'bin';
const README = `Your Haven data

thoughts.json        every thought: text, time, day, category, tags, voice; audio files in audio/
insights.json        the daily, weekly and monthly insights
conversations.json   your conversations with the assistant, with every message
integrations.json    which accounts you connected, their settings and rules (never their tokens)
YYYY/MM/*.md         your thoughts, one Markdown file per day
conversations/*.md   each conversation as Markdown

Import this zip on the Settings page of Haven to bring everything back.
`;

/**
 * Builds a user's export: each service gives its part through its internal API, page by page, and
 * the zip is streamed into shared storage (encrypted chunks) as it is made, so even a large account
 * is never held in memory at once (one page of thoughts, one month of days). Only the job of the
 * transfer's current step builds; a step taken over by the reconciler starts afresh.
 */
export async function buildExport(
  deps: { db: Db; internal: InternalClients; blobs: BlobStore; log: Logger },
  { userId, transferId, step }: { userId: number; transferId: string; step: number },
): Promise<void> {
  const { db, blobs } = deps;
  const row = await findForStep(db, transferId, userId, step);
  if (!row || row.kind !== 'export' || (row.status !== 'queued' && row.status !== 'running')) return;
  // A file an earlier, interrupted step began is not finished: start again.
  if (row.blobId) await blobs.remove(row.blobId);
  const thoughts = deps.internal('thoughts', thoughtsPortabilityContract)(userId);
  const thoughtReads = deps.internal('thoughts', thoughtsInternalContract)(userId);
  const conversations = deps.internal('assistant', assistantPortabilityContract)(userId);
  const insights = deps.internal('insights', insightsPortabilityContract)(userId);
  const integrations = deps.internal('integrations', integrationsPortabilityContract)(userId);
  const setProgress = async (progress: number) => {
    if (!(await updateAtStep(db, transferId, step, { progress: Math.min(99, Math.round(progress)) })))
      throw new Error('The export was taken over by a later step');
  };

  const file = await blobs.writer(userId);
  await updateAtStep(db, transferId, step, { status: 'running', progress: 0, blobId: file.id });
  const total = (await thoughtReads.stats({ query: { start: '0001-01-01', end: '9999-12-31' } })).body.count;

  const zip = new ZipFile();
  const written = pipeline(zip.outputStream, file.stream);
  // Awaited at the end; a failure half-way surfaces there (or the step's own error comes first).
  written.catch(() => undefined);

  /** One entry, written with backpressure; resolves once the zip has taken all of it. */
  async function entry(
    name: string,
    write: (put: (chunk: string | Buffer) => Promise<void>) => Promise<void>,
  ) {
    const pass = new PassThrough();
    zip.addReadStream(pass, name);
    const put = async (chunk: string | Buffer) => {
      if (!pass.write(chunk)) await once(pass, 'drain');
    };
    await write(put);
    pass.end();
    await once(pass, 'end');
  }

  zip.addBuffer(Buffer.from(README), 'README.txt');

  // thoughts.json, page by page; the audio files after it; the days they span.
  let done = 0;
  let first = '9999-12-31';
  let last = '0001-01-01';
  let anyAudio = false;
  await entry('thoughts.json', async (put) => {
    await put('[');
    let after = 0;
    let sep = '\n';
    for (;;) {
      const page = (await thoughts.exportThoughts({ query: { after, limit: PAGE } })).body;
      for (const t of page.thoughts) {
        const { audio, ...rest } = t;
        const record = { ...rest, audioFile: audio ? `audio/${t.id}.${extensionOf(audio.mimeType)}` : null };
        if (audio) anyAudio = true;
        if (t.localDate < first) first = t.localDate;
        if (t.localDate > last) last = t.localDate;
        await put(`${sep}${JSON.stringify(record)}`);
        sep = ',\n';
      }
      done += page.thoughts.length;
      await setProgress((done / Math.max(total, 1)) * 50);
      if (page.next === null) break;
      after = page.next;
    }
    await put('\n]\n');
  });

  if (anyAudio) {
    let after = 0;
    for (;;) {
      const page = (await thoughts.exportThoughts({ query: { after, limit: 20 } })).body;
      for (const t of page.thoughts)
        if (t.audio)
          await entry(`audio/${t.id}.${extensionOf(t.audio.mimeType)}`, (put) =>
            put(Buffer.from(t.audio!.data, 'base64')),
          );
      if (page.next === null) break;
      after = page.next;
    }
  }

  // One Markdown file per day, read a month at a time.
  if (done > 0) {
    let month = first.slice(0, 7);
    const lastMonth = last.slice(0, 7);
    let daysDone = 0;
    while (month <= lastMonth) {
      const [y, m] = month.split('-').map(Number) as [number, number];
      const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
      const inMonth = (await thoughtReads.range({ query: { start: `${month}-01`, end } })).body;
      const byDay = new Map<string, ExportedThought[]>();
      for (const t of inMonth)
        byDay.set(t.localDate, [...(byDay.get(t.localDate) ?? []), { ...t, audio: null }]);
      for (const [day, list] of byDay)
        await entry(`${day.slice(0, 4)}/${day.slice(5, 7)}/${day}.md`, (put) => put(dayMarkdown(day, list)));
      daysDone += inMonth.length;
      await setProgress(50 + (daysDone / Math.max(done, 1)) * 25);
      month = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 7);
    }
  }

  // conversations.json, then one Markdown file per conversation (read again, a page at a time).
  const conversationPages = async (each: (c: ExportedConversation) => Promise<void>) => {
    let after = 0;
    for (;;) {
      const page = (await conversations.exportConversations({ query: { after, limit: 50 } })).body;
      for (const c of page.conversations) await each(c);
      if (page.next === null) return;
      after = page.next;
    }
  };
  await entry('conversations.json', async (put) => {
    await put('[');
    let sep = '\n';
    await conversationPages(async (c) => {
      await put(`${sep}${JSON.stringify(c)}`);
      sep = ',\n';
    });
    await put('\n]\n');
  });
  await setProgress(85);
  await conversationPages((c) =>
    entry(`conversations/${c.id}-${slug(c.title)}.md`, (put) => put(conversationMarkdown(c))),
  );
  await setProgress(90);
  await entry('insights.json', async (put) =>
    put(JSON.stringify((await insights.exportInsights()).body, null, 1)),
  );
  await entry('integrations.json', async (put) =>
    put(JSON.stringify((await integrations.exportIntegrations()).body, null, 1)),
  );
  zip.end();
  await written;
  await updateAtStep(db, transferId, step, {
    status: 'ready',
    progress: 100,
    expiresAt: new Date(Date.now() + EXPORT_TTL_MS),
  });
  deps.log.info({ transferId, thoughts: done }, 'export ready');
}
