import {
  IMPORT_LIMITS,
  ImportedConversationItem,
  ImportedThought,
  assistantPortabilityContract,
  thoughtsPortabilityContract,
  type ImportCountsSoFar,
  type ImportReportLine,
} from '@haven/contracts/portability';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import type { InternalClients } from '@haven/kit/internal-client';
import type { Logger } from '@haven/kit/logger';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import { addReportLines, findForStep, updateAtStep, type TransferRow } from '../../db/transfers.repository';
import type { BlobStore } from '../blob-store';
import { reportContext } from '../transfers';
import { detectFormat } from './formats/index';
import { ImportLimitError, type ImportItem, type ImportSource, type ItemPosition } from './source';
import { openZipSource } from './zip-source';

/** How long one step works before it queues the next behind other users' work. */
export const STEP_MS = 3000;
/** Thoughts sent to the thoughts service at once, and the audio bytes one batch may carry. */
const BATCH_ITEMS = 200;
const BATCH_AUDIO_BYTES = 6 * 1024 * 1024;
const CONVERSATION_BATCH = 50;

export interface ImportDeps {
  db: Db;
  uow: UnitOfWork;
  blobs: BlobStore;
  cipher: FieldCipher;
  internal: InternalClients;
  log: Logger;
  /** Overrides STEP_MS (tests make steps short to cross replicas). */
  stepMs?: number;
}

type Payload = { userId: number; transferId: string; step: number };

const mimeOf = (file: string) => {
  const ext = file.split('.').pop()?.toLowerCase() ?? 'webm';
  return `audio/${ext === 'mp3' ? 'mpeg' : ext === 'm4a' ? 'mp4' : ext}`;
};

/**
 * One step of an import. The first step reads the whole zip once without writing anything (the
 * limits are checked there: a zip that passes one fails nothing and imports nothing); every step
 * then imports from where the last one stopped, for about STEP_MS, and queues the next. Each batch
 * is written with a key per item, and the cursor, counts and report lines after it are saved in
 * one transaction: a step that dies half-way is taken again from the cursor, and what the batch had
 * already written is found by its keys and counted as imported, never as a duplicate.
 */
export async function runImportStep(deps: ImportDeps, payload: Payload): Promise<void> {
  const { db, blobs } = deps;
  const row = await findForStep(db, payload.transferId, payload.userId, payload.step);
  if (!row || row.kind !== 'import') return;
  if (row.status !== 'queued' && row.status !== 'running') {
    if (row.blobId) await blobs.remove(row.blobId);
    return;
  }
  const save = (patch: Parameters<typeof updateAtStep>[3]) => updateAtStep(db, row.id, row.step, patch);

  try {
    const blob = row.blobId ? await blobs.open(row.blobId) : undefined;
    if (!blob) throw new ImportLimitError('The uploaded file is gone; please import it again');
    const source = await openZipSource(blob);
    const reader = detectFormat(source.entries);
    if (!reader)
      throw new ImportLimitError(
        'The zip holds no notes this app can read (Markdown or text files, or an export of Haven, Day One, Google Keep or Evernote); nothing was imported',
      );
    let total = row.total;
    if (total === null) {
      await save({ status: 'running', format: reader.format, progress: 1 });
      total = await firstPass(source, reader.read(source, { now: row.createdAt }), () => save({}));
      await save({ total });
    }
    await importFrom(deps, row, source, reader.read.bind(reader), total);
  } catch (err) {
    if (!(err instanceof ImportLimitError)) throw err;
    await finish(deps, row, 'failed', err.message);
  }
}

/** Ends an import: its state, and the upload deleted whatever the outcome. */
export async function finish(
  deps: Pick<ImportDeps, 'db' | 'blobs' | 'log'>,
  row: Pick<TransferRow, 'id' | 'step' | 'blobId' | 'counts'>,
  status: 'done' | 'failed',
  message: string | null,
): Promise<void> {
  await updateAtStep(deps.db, row.id, row.step, { status, progress: 100, message, blobId: null });
  if (row.blobId) await deps.blobs.remove(row.blobId);
  deps.log.info({ transferId: row.id, status, ...row.counts }, 'import ended');
}

/** Counts the items (limits checked as they come), writing nothing. */
async function firstPass(
  source: ImportSource,
  items: AsyncIterable<ImportItem>,
  heartbeat: () => Promise<unknown>,
): Promise<number> {
  let thoughts = 0;
  let conversations = 0;
  let count = 0;
  let beat = Date.now();
  const sizes = new Map(source.entries.map((e) => [e.name, e.size]));
  for await (const item of items) {
    count++;
    if (item.kind === 'thought' && ++thoughts > IMPORT_LIMITS.items)
      throw new ImportLimitError(
        `The zip holds more than ${IMPORT_LIMITS.items} notes or thoughts, the limit of one import; nothing was imported`,
      );
    if (item.kind === 'conversation' && ++conversations > IMPORT_LIMITS.conversations)
      throw new ImportLimitError(
        `The zip holds more than ${IMPORT_LIMITS.conversations} conversations, the limit of one import; nothing was imported`,
      );
    if (item.kind === 'thought' && item.audioFile) {
      if ((sizes.get(item.audioFile) ?? 0) > IMPORT_LIMITS.dataFileBytes)
        throw new ImportLimitError(
          `"${item.audioFile}" is not an audio file this app made; nothing was imported`,
        );
    }
    if (Date.now() - beat > 5000) {
      beat = Date.now();
      await heartbeat();
    }
  }
  return count;
}

type ThoughtItem = Extract<ImportItem, { kind: 'thought' }>;
type Pending =
  | { item: ThoughtItem; send: ImportedThought; note?: string; audioBytes: number }
  | { item: Extract<ImportItem, { kind: 'conversation' }>; send: ImportedConversationItem };

/** Imports from the cursor for about a step's time; then queues the next step, or finishes. */
async function importFrom(
  deps: ImportDeps,
  row: TransferRow,
  source: ImportSource,
  read: (source: ImportSource, options: { now: Date; resume?: ItemPosition }) => AsyncIterable<ImportItem>,
  total: number,
): Promise<void> {
  const { uow, cipher } = deps;
  const started = Date.now();
  const counts: ImportCountsSoFar = { ...row.counts };
  let done = row.cursor?.done ?? 0;
  const thoughts = deps.internal('thoughts', thoughtsPortabilityContract)(row.userId);
  const chats = deps.internal('assistant', assistantPortabilityContract)(row.userId);
  const keyOf = (at: ItemPosition) => `${row.id}-${at.entry}-${at.item}`;
  const byName = new Map(source.entries.map((e) => [e.name, e]));

  let batch: Pending[] = [];
  let lines: ImportReportLine[] = [];
  let audioBytes = 0;
  let last: ItemPosition | undefined;

  const report = (line: ImportReportLine) => lines.push(line);

  /** Writes the batch, then saves cursor, counts and report lines together (and the next step). */
  async function commit(next: 'continue' | 'step' | 'finish') {
    const notes = batch.filter((p) => p.item.kind === 'thought') as Array<
      Extract<Pending, { send: ImportedThought }>
    >;
    const convos = batch.filter((p) => p.item.kind === 'conversation') as Array<
      Extract<Pending, { send: ImportedConversationItem }>
    >;
    if (notes.length) {
      const { results } = (await thoughts.importThoughts({ body: { items: notes.map((p) => p.send) } })).body;
      notes.forEach((p, i) => {
        const { item } = p;
        const whole = !item.part || item.part.n === item.part.of;
        const duplicate = results[i] === 'duplicate';
        if (!whole) return;
        if (duplicate) counts.duplicates++;
        else {
          counts.imported++;
          if (item.part) counts.split++;
          if (item.dateSource === 'import-day') counts.undated++;
        }
        report({
          file: item.file,
          outcome: duplicate ? 'duplicate' : item.part ? 'split' : 'imported',
          reason: duplicate
            ? 'Already there (same text, date and title)'
            : [
                item.part ? `Longer than a thought: kept as ${item.part.of} parts` : undefined,
                p.note,
                dateNote(item),
              ]
                .filter(Boolean)
                .join('; ') || undefined,
        });
      });
    }
    for (let i = 0; i < convos.length; i += CONVERSATION_BATCH) {
      const part = convos.slice(i, i + CONVERSATION_BATCH);
      const { results } = (await chats.importConversations({ body: { items: part.map((p) => p.send) } }))
        .body;
      part.forEach((p, n) => {
        if (results[n] === 'duplicate') counts.duplicates++;
        else counts.conversations++;
        report({
          file: p.item.file,
          outcome: results[n] === 'duplicate' ? 'duplicate' : 'imported',
          reason: `Conversation "${p.send.title.slice(0, 80)}"${results[n] === 'duplicate' ? ' already there' : ''}`,
        });
      });
    }
    const cursor = last ? { entry: last.entry, item: last.item + 1, done } : row.cursor;
    const sealed = lines.map((line) => ({
      transferId: row.id,
      userId: row.userId,
      problem: line.outcome === 'failed',
      lineEnc: cipher.encrypt(JSON.stringify(line), reportContext(row.id)),
    }));
    const progress = Math.min(99, 1 + Math.floor((98 * done) / Math.max(total, 1)));
    await uow.run(async (tx, emit) => {
      const moved = await updateAtStep(tx, row.id, row.step, {
        status: 'running',
        counts,
        cursor,
        progress,
        ...(next === 'step' ? { step: row.step + 1, stalls: 0 } : {}),
      });
      if (!moved) throw new Error('The import was taken over by a later step');
      await addReportLines(tx, sealed);
      if (next === 'step')
        await emit('data.import', { userId: row.userId, transferId: row.id, step: row.step + 1 });
    });
    row.counts = counts;
    batch = [];
    lines = [];
    audioBytes = 0;
  }

  for await (const item of read(source, { now: row.createdAt, resume: row.cursor ?? undefined })) {
    last = item.at;
    done++;
    if (item.kind === 'problem') {
      if (item.outcome === 'failed') counts.failed++;
      else counts.skipped++;
      report({ file: item.file, outcome: item.outcome, line: item.line, reason: item.reason });
    } else if (item.kind === 'conversation') {
      const send = ImportedConversationItem.safeParse({ ...item.conversation, key: keyOf(item.at) });
      if (send.success) batch.push({ item, send: send.data });
      else failed(item.file, send.error.issues[0]!);
    } else {
      const pending = await thoughtOf(item);
      if (pending) {
        batch.push(pending);
        audioBytes += pending.audioBytes;
      }
    }
    if (batch.length >= BATCH_ITEMS || audioBytes >= BATCH_AUDIO_BYTES || lines.length >= 500) {
      const timeUp = Date.now() - started >= (deps.stepMs ?? STEP_MS);
      await commit(timeUp ? 'step' : 'continue');
      if (timeUp) return;
    }
  }
  await commit('finish');
  await finish(deps, row, 'done', null);

  function failed(file: string, issue: { path: PropertyKey[]; message: string }) {
    counts.failed++;
    report({ file, outcome: 'failed', reason: `${issue.path.join('.') || 'value'}: ${issue.message}` });
  }

  /** The thought to send (its audio read, within its limit), or undefined when it cannot be one. */
  async function thoughtOf(item: ThoughtItem): Promise<Extract<Pending, { item: ThoughtItem }> | undefined> {
    let audio: ImportedThought['audio'] = null;
    let note: string | undefined;
    if (item.audioFile) {
      const entry = byName.get(item.audioFile);
      if (!entry) note = `Its audio file ${item.audioFile} is not in the zip: imported without it`;
      else if (entry.size > IMPORT_LIMITS.audioBytes)
        note = `Its audio is larger than ${IMPORT_LIMITS.audioBytes / 1024 / 1024} MB: imported without it`;
      else
        audio = {
          mimeType: mimeOf(item.audioFile),
          data: (await source.read(item.audioFile, IMPORT_LIMITS.audioBytes)).toString('base64'),
        };
    }
    const send = ImportedThought.safeParse({ ...item.thought, key: keyOf(item.at), audio });
    if (!send.success) {
      failed(item.file, send.error.issues[0]!);
      return undefined;
    }
    return { item, send: send.data, note, audioBytes: audio?.data.length ?? 0 };
  }
}

function dateNote(item: Extract<ImportItem, { kind: 'thought' }>): string | undefined {
  if (item.dateSource === 'import-day') return 'No date found: put on the import day';
  if (item.dateSource === 'zip-time') return "Dated by the file's time in the zip";
  return undefined;
}
