import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
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

/** The internal APIs an export reads, for one user. */
type Reads = ReturnType<typeof readsOf>;
const readsOf = (internal: InternalClients, userId: number) => ({
  thoughts: internal('thoughts', thoughtsPortabilityContract)(userId),
  thoughtReads: internal('thoughts', thoughtsInternalContract)(userId),
  conversations: internal('assistant', assistantPortabilityContract)(userId),
  insights: internal('insights', insightsPortabilityContract)(userId),
  integrations: internal('integrations', integrationsPortabilityContract)(userId),
});

/** Writes one entry of the zip, chunk by chunk with backpressure. */
type AddEntry = (
  name: string,
  write: (put: (chunk: string | Buffer) => Promise<void>) => Promise<void>,
) => Promise<void>;

/** Sets the export's progress (0..99); throws when a later step has taken the export over. */
type SetProgress = (progress: number) => Promise<void>;

/** What thoughts.json held: how many thoughts, the days they span, and whether any has audio. */
interface ThoughtsWritten {
  count: number;
  first: string;
  last: string;
  anyAudio: boolean;
}

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
  const reads = readsOf(deps.internal, userId);
  const setProgress: SetProgress = async (progress) => {
    if (!(await updateAtStep(db, transferId, step, { progress: Math.min(99, Math.round(progress)) })))
      throw new Error('The export was taken over by a later step');
  };

  const file = await blobs.writer(userId);
  await updateAtStep(db, transferId, step, { status: 'running', progress: 0, blobId: file.id });
  const total = (await reads.thoughtReads.stats({ query: { start: '0001-01-01', end: '9999-12-31' } })).body
    .count;
  const thoughts = await writeZip(file.stream, (zip, entry) =>
    writeEntries(reads, zip, entry, { total, setProgress }),
  );
  await updateAtStep(db, transferId, step, {
    status: 'ready',
    progress: 100,
    expiresAt: new Date(Date.now() + EXPORT_TTL_MS),
  });
  deps.log.info({ transferId, thoughts: thoughts.count }, 'export ready');
}

/** Streams a zip into `out` as `fill` adds its entries; resolves once all of it is written. */
async function writeZip<T>(out: Writable, fill: (zip: ZipFile, entry: AddEntry) => Promise<T>): Promise<T> {
  const zip = new ZipFile();
  const written = pipeline(zip.outputStream, out);
  // Awaited at the end; a failure half-way surfaces there (or the step's own error comes first).
  written.catch(() => undefined);
  const filled = await fill(zip, entryWriter(zip));
  zip.end();
  await written;
  return filled;
}

/** Every entry of the export, in order; `total`: the thoughts to write. What thoughts.json held. */
async function writeEntries(
  reads: Reads,
  zip: ZipFile,
  entry: AddEntry,
  { total, setProgress }: { total: number; setProgress: SetProgress },
): Promise<ThoughtsWritten> {
  zip.addBuffer(Buffer.from(README), 'README.txt');
  const thoughts = await writeThoughts(reads, entry, (share) => setProgress(share * 50), total);
  if (thoughts.anyAudio) await writeAudio(reads, entry);
  if (thoughts.count > 0) await writeDays(reads, entry, thoughts, (share) => setProgress(50 + share * 25));
  await writeConversations(reads, entry, setProgress);
  await entry('insights.json', async (put) =>
    put(JSON.stringify((await reads.insights.exportInsights()).body, null, 1)),
  );
  await entry('integrations.json', async (put) =>
    put(JSON.stringify((await reads.integrations.exportIntegrations()).body, null, 1)),
  );
  return thoughts;
}

/** Adds entries to `zip`, each resolved once the zip has taken all of it. */
function entryWriter(zip: ZipFile): AddEntry {
  return async (name, write) => {
    const pass = new PassThrough();
    zip.addReadStream(pass, name);
    const put = async (chunk: string | Buffer) => {
      if (!pass.write(chunk)) await once(pass, 'drain');
    };
    await write(put);
    pass.end();
    await once(pass, 'end');
  };
}

/** thoughts.json, a page at a time; `progress` is told the share of `total` written. */
async function writeThoughts(
  reads: Reads,
  entry: AddEntry,
  progress: (share: number) => Promise<void>,
  total: number,
): Promise<ThoughtsWritten> {
  const out: ThoughtsWritten = { count: 0, first: '9999-12-31', last: '0001-01-01', anyAudio: false };
  await entry('thoughts.json', async (put) => {
    await put('[');
    let after = 0;
    let sep = '\n';
    for (;;) {
      const page = (await reads.thoughts.exportThoughts({ query: { after, limit: PAGE } })).body;
      for (const t of page.thoughts) {
        const { audio, ...rest } = t;
        const record = { ...rest, audioFile: audio ? audioName(t.id, audio.mimeType) : null };
        if (audio) out.anyAudio = true;
        if (t.localDate < out.first) out.first = t.localDate;
        if (t.localDate > out.last) out.last = t.localDate;
        await put(`${sep}${JSON.stringify(record)}`);
        sep = ',\n';
      }
      out.count += page.thoughts.length;
      await progress(out.count / Math.max(total, 1));
      if (page.next === null) break;
      after = page.next;
    }
    await put('\n]\n');
  });
  return out;
}

const audioName = (id: number, mimeType: string) => `audio/${id}.${extensionOf(mimeType)}`;

/** The audio files, read again a few thoughts at a time (they are large). */
async function writeAudio(reads: Reads, entry: AddEntry): Promise<void> {
  let after = 0;
  for (;;) {
    const page = (await reads.thoughts.exportThoughts({ query: { after, limit: 20 } })).body;
    for (const t of page.thoughts)
      if (t.audio) {
        const data = t.audio.data;
        await entry(audioName(t.id, t.audio.mimeType), (put) => put(Buffer.from(data, 'base64')));
      }
    if (page.next === null) return;
    after = page.next;
  }
}

/** One Markdown file per day, read a month at a time; `progress` is told the share written. */
async function writeDays(
  reads: Reads,
  entry: AddEntry,
  thoughts: ThoughtsWritten,
  progress: (share: number) => Promise<void>,
): Promise<void> {
  let month = thoughts.first.slice(0, 7);
  const lastMonth = thoughts.last.slice(0, 7);
  let daysDone = 0;
  while (month <= lastMonth) {
    const [y, m] = month.split('-').map(Number) as [number, number];
    const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const inMonth = (await reads.thoughtReads.range({ query: { start: `${month}-01`, end } })).body;
    const byDay = new Map<string, ExportedThought[]>();
    for (const t of inMonth)
      byDay.set(t.localDate, [...(byDay.get(t.localDate) ?? []), { ...t, audio: null }]);
    for (const [day, list] of byDay)
      await entry(`${day.slice(0, 4)}/${day.slice(5, 7)}/${day}.md`, (put) => put(dayMarkdown(day, list)));
    daysDone += inMonth.length;
    await progress(daysDone / Math.max(thoughts.count, 1));
    month = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 7);
  }
}

/** conversations.json, then one Markdown file per conversation (read again, a page at a time). */
async function writeConversations(reads: Reads, entry: AddEntry, setProgress: SetProgress): Promise<void> {
  const conversationPages = async (each: (c: ExportedConversation) => Promise<void>) => {
    let after = 0;
    for (;;) {
      const page = (await reads.conversations.exportConversations({ query: { after, limit: 50 } })).body;
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
}
