import { IMPORT_LIMITS, inMegabytes } from '@haven/contracts/portability';
import { sandboxStarted } from '@haven/kit/sandbox';
import type { StoredBlob } from '../../blob-store';
import { detectFormat } from '../formats/index';
import {
  ImportLimitError,
  type ImportItem,
  type ImportSource,
  type ReadOptions,
  type SourceEntry,
} from '../source';
import { isTar, openTarSource } from '../tar-source';
import { openZipSource } from '../zip-source';
import {
  SANDBOX_BATCH_AUDIO,
  SANDBOX_BATCH_ITEMS,
  type ChildMessage,
  type ParentMessage,
  type SandboxItem,
  type StartMessage,
} from './protocol';

/**
 * The sandbox's side: a child process with a small heap and no secrets that opens the uploaded zip
 * (its bytes asked of the service by range), finds its format and reads it, sending what it reads
 * to the service. Whatever a hostile file makes a parser do here (run out of stack or memory,
 * spin, abort the process), the service that started it goes on serving everyone.
 */

const send = (message: ChildMessage) =>
  new Promise<void>((resolve, reject) =>
    process.send!(message, undefined, {}, (err) => (err ? reject(err) : resolve())),
  );

let nextRange = 0;
const ranges = new Map<number, { resolve: (data: Buffer) => void; reject: (err: Error) => void }>();
/** Batches the service will take before it asks for more: one being written, one read ahead. */
let credit = 2;
let wantMore: (() => void) | null = null;
let started = false;

process.on('message', (message: ParentMessage) => {
  if (message.type === 'start' && !started) {
    started = true;
    void run(message);
  } else if (message.type === 'more') {
    credit++;
    wantMore?.();
    wantMore = null;
  } else if (message.type === 'range') {
    const waiting = ranges.get(message.id);
    ranges.delete(message.id);
    if (message.error || !message.data) waiting?.reject(new Error(message.error ?? 'no data'));
    else waiting?.resolve(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
  }
});
// The service went away: nothing left to read for.
process.on('disconnect', () => process.exit(0));
sandboxStarted();

/** Bytes asked of the service at once: the zip is read mostly in order, a small range at a time. */
const WINDOW = 1024 * 1024;

/**
 * The stored zip, read through the service. yauzl asks for many small ranges in order (a local
 * header, then the data, file after file); each is served from a window of WINDOW bytes read ahead,
 * so a vault of 10,000 notes costs a few round trips, not 40,000.
 */
function remoteBlob(size: number): StoredBlob {
  const fetchRange = (start: number, end: number) =>
    new Promise<Buffer>((resolve, reject) => {
      const id = nextRange++;
      ranges.set(id, { resolve, reject });
      send({ type: 'range', id, start, end }).catch(reject);
    });
  let window: { start: number; data: Buffer } | null = null;
  return {
    size,
    async readRange(start, end) {
      if (window && start >= window.start && end <= window.start + window.data.length)
        return window.data.subarray(start - window.start, end - window.start);
      if (end - start >= WINDOW) return fetchRange(start, end);
      const data = await fetchRange(start, Math.min(size, start + WINDOW));
      window = { start, data };
      return data.subarray(0, end - start);
    },
  } as StoredBlob;
}

let current: number | null = null;
/** Count mode: the items counted so far (told with each entry, so a death loses no count). */
let total = 0;

let lastAlive = Date.now();
/**
 * Tells the service the sandbox is at work, at most every 200 ms: well inside the shortest watchdog
 * (a retry's, a quarter of the budget's time), on a machine slow enough to stretch the gaps.
 */
function alive() {
  if (Date.now() - lastAlive < 200) return;
  lastAlive = Date.now();
  void send({ type: 'alive' });
}

async function run(start: StartMessage): Promise<void> {
  try {
    const blob = remoteBlob(start.size);
    // A zip, or a tar (Joplin's JEX export).
    const source = (await isTar(blob)) ? await openTarSource(blob) : await openZipSource(blob);
    const reader = detectFormat(source.entries);
    if (!reader)
      throw new ImportLimitError(
        'The zip holds no notes this app can read (Markdown, text or HTML files, TextBundles, or an export of Haven, Obsidian, Logseq, Joplin, Day One, Google Keep, Evernote, Notion, Simplenote, jrnl or an Apple Notes exporter); nothing was imported',
      );
    await send({ type: 'format', format: reader.format });
    const options: ReadOptions = {
      now: new Date(start.now),
      resume: start.resume,
      quarantined: new Map(start.quarantined),
      onEntry: (entry) => {
        current = entry;
        const name = source.entries[entry]!.name;
        void send({ type: 'entry', entry, name, ...(start.mode === 'count' ? { counted: total } : {}) });
      },
      // Going back to `resume` in a journal of 100,000 entries takes a while: the watchdog is told.
      onSkip: alive,
    };
    const items = reader.read(source, options);
    total = start.counted;
    if (start.mode === 'count') await send({ type: 'counted', total: await count(source, items) });
    else await sendItems(source, items);
    await send({ type: 'done' });
    process.exit(0);
  } catch (err) {
    if (err instanceof ImportLimitError) await send({ type: 'limit', message: err.message });
    else await send({ type: 'failed', message: (err as Error)?.message ?? String(err), entry: current });
    process.exit(err instanceof ImportLimitError ? 0 : 1);
  }
}

/**
 * The first pass: every item counted (whatever its kind) and the limits checked as they come, so
 * a forged export of a million items is refused within its first hundred thousand.
 */
async function count(source: ImportSource, items: AsyncIterable<ImportItem>): Promise<number> {
  let conversations = 0;
  const sizes = new Map(source.entries.map((e) => [e.name, e.size]));
  for await (const item of items) {
    if (++total > IMPORT_LIMITS.items)
      throw new ImportLimitError(
        `The zip holds more than ${IMPORT_LIMITS.items} items (notes, entries, thoughts, conversations and other files), the limit of one import; nothing was imported`,
      );
    if (item.kind === 'conversation' && ++conversations > IMPORT_LIMITS.conversations)
      throw new ImportLimitError(
        `The zip holds more than ${IMPORT_LIMITS.conversations} conversations, the limit of one import; nothing was imported`,
      );
    if (
      item.kind === 'thought' &&
      item.audioFile &&
      (sizes.get(item.audioFile) ?? 0) > IMPORT_LIMITS.dataFileBytes
    )
      throw new ImportLimitError(
        `"${item.audioFile}" is not an audio file this app made; nothing was imported`,
      );
    alive();
  }
  return total;
}

const mimeOf = (file: string) => {
  const ext = file.split('.').pop()?.toLowerCase() ?? 'webm';
  return `audio/${ext === 'mp3' ? 'mpeg' : ext === 'm4a' ? 'mp4' : ext}`;
};

/** A Haven export's thought with its audio read (within its limit), or why it is left out. */
async function withAudio(
  source: ImportSource,
  byName: ReadonlyMap<string, SourceEntry>,
  item: ImportItem,
): Promise<SandboxItem> {
  if (item.kind !== 'thought' || !item.audioFile) return item;
  const entry = byName.get(item.audioFile);
  if (!entry)
    return { ...item, audioNote: `Its audio file ${item.audioFile} is not in the zip: imported without it` };
  if (entry.size > IMPORT_LIMITS.audioBytes)
    return {
      ...item,
      audioNote: `Its audio is larger than ${inMegabytes(IMPORT_LIMITS.audioBytes)}: imported without it`,
    };
  const data = (await source.read(item.audioFile, IMPORT_LIMITS.audioBytes)).toString('base64');
  return { ...item, audio: { mimeType: mimeOf(item.audioFile), data } };
}

/**
 * Items in batches. A batch is sent only while the service has credit for it (it holds at most two:
 * one it writes, one read ahead), so the sandbox reads the next while the service writes the last.
 */
async function sendItems(source: ImportSource, items: AsyncIterable<ImportItem>): Promise<void> {
  let batch: SandboxItem[] = [];
  let audio = 0;
  const byName = new Map(source.entries.map((e) => [e.name, e]));
  const flush = async () => {
    while (credit === 0) await new Promise<void>((resolve) => (wantMore = resolve));
    credit--;
    await send({ type: 'items', items: batch });
    batch = [];
    audio = 0;
  };
  for await (const item of items) {
    const sent = await withAudio(source, byName, item);
    batch.push(sent);
    audio += sent.audio?.data.length ?? 0;
    if (batch.length >= SANDBOX_BATCH_ITEMS || audio >= SANDBOX_BATCH_AUDIO) await flush();
  }
  if (batch.length) await flush();
}
