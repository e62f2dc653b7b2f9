import type { ImportReportLine } from '@haven/contracts/portability';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import type { InternalClients } from '@haven/kit/internal-client';
import type { Logger } from '@haven/kit/logger';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import { deleteBlob } from '../../db/blobs.repository';
import { addReportLines, findForStep, updateAtStep, type TransferRow } from '../../db/transfers.repository';
import type { BlobStore } from '../blob-store';
import { reportContext } from '../transfers';
import { ImportBatch } from './batch';
import type { SandboxItem } from './sandbox/protocol';
import {
  couldNotRead,
  countInSandbox,
  readInSandbox,
  sandboxBudgets,
  type SandboxBudget,
  type SandboxRun,
} from './sandbox/sandbox';
import { ImportLimitError } from './source';

/** How long one step works before it queues the next behind other users' work. */
export const STEP_MS = 3000;
/** How long the sandbox may dwell on one entry before the entry is recorded as the one it reads. */
const RECORD_AFTER_MS = 500;

export interface ImportDeps {
  db: Db;
  uow: UnitOfWork;
  blobs: BlobStore;
  cipher: FieldCipher;
  internal: InternalClients;
  log: Logger;
  /** Overrides STEP_MS (tests make steps short to cross replicas). */
  stepMs?: number;
  /** The sandbox's budgets (IMPORT_SANDBOX_HEAP_MB, IMPORT_SANDBOX_TIME_MS). */
  sandbox?: { first: SandboxBudget; retry: SandboxBudget };
}

type Payload = { userId: number; transferId: string; step: number };

/**
 * One step of an import. Every read of the uploaded zip happens in the sandbox, a child process
 * with limits (see sandbox/sandbox.ts). The first step counts the zip's items there without
 * writing anything (the limits are checked there: a zip that passes one fails nothing and imports
 * nothing); every step then imports from where the last one stopped, for about STEP_MS, and queues
 * the next. Each batch is written with a key per item, and the cursor, counts and report lines
 * after it are saved in one transaction: a step that dies half-way is taken again from the cursor,
 * and what the batch had already written is found by its keys and counted as imported, never as a
 * duplicate. A step whose process died is taken again once with a smaller sandbox; if it dies again
 * on the same entry, that entry is quarantined (reported, never read again): never a restart loop.
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
  const tracker = await beginAttempt(deps, row);
  try {
    const blob = row.blobId ? await blobs.open(row.blobId) : undefined;
    if (!blob) throw new ImportLimitError('The uploaded file is gone; please import it again');
    const run: SandboxRun = {
      blob,
      now: row.createdAt,
      quarantined: new Map(row.quarantine),
      budget: tracker.budget,
      onEntry: (entry) => tracker.reading(entry),
    };
    let total = row.total;
    if (total === null) {
      await save({ status: 'running', progress: 1 });
      const counted = await countInSandbox(run, () => save({}));
      total = counted.total;
      run.quarantined = counted.quarantined;
      row.quarantine = [...counted.quarantined];
      await save({ total, format: counted.format, quarantine: row.quarantine, attempt: tracker.record() });
    }
    await importFrom(deps, row, readInSandbox(run, row.cursor ?? undefined, row.id), total, tracker);
  } catch (err) {
    if (!(err instanceof ImportLimitError)) throw err;
    await finish(deps, row, 'failed', err.message);
  } finally {
    await tracker.stop();
  }
}

/** What a step knows of the entry it reads, kept in the row so that a death is charged to it. */
interface AttemptTracker {
  budget: SandboxBudget;
  /** The sandbox started an entry: recorded once it has kept the sandbox busy for a moment. */
  reading(entry: number): void;
  /** The attempt as it is to be saved now (after progress: no deaths yet at this entry). */
  record(): { entry: number; deaths: number };
  stop(): Promise<void>;
}

/**
 * Starts a step's attempt. An attempt found set means the last run of this import died before its
 * step ended, while reading that entry: the first such death gives the step the smaller retry
 * budget; the second quarantines the entry (one failed report line, never read again).
 */
async function beginAttempt(deps: ImportDeps, row: TransferRow): Promise<AttemptTracker> {
  const budgets = deps.sandbox ?? sandboxBudgets(192, 20_000);
  const died = row.attempt;
  let entry = died?.entry ?? row.cursor?.entry ?? 0;
  let deaths = died ? died.deaths + 1 : 0;
  if (died && deaths >= 2) {
    row.quarantine = [
      ...row.quarantine.filter(([e]) => e !== died.entry),
      [died.entry, couldNotRead('the import stopped while reading it, twice')],
    ];
    deps.log.warn({ transferId: row.id, entry: died.entry }, 'import entry quarantined after two deaths');
    deaths = 0;
  }
  await updateAtStep(deps.db, row.id, row.step, { attempt: { entry, deaths }, quarantine: row.quarantine });
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<unknown> = Promise.resolve();
  return {
    budget: deaths > 0 ? budgets.retry : budgets.first,
    reading(next) {
      clearTimeout(timer);
      if (next === entry) return;
      timer = setTimeout(() => {
        [entry, deaths] = [next, 0];
        const attempt = { entry, deaths };
        writing = writing.then(() => updateAtStep(deps.db, row.id, row.step, { attempt }).catch(() => false));
      }, RECORD_AFTER_MS);
    },
    record: () => ({ entry, deaths: 0 }),
    async stop() {
      clearTimeout(timer);
      await writing;
    },
  };
}

/** Imports from the cursor for about a step's time; then queues the next step, or finishes. */
async function importFrom(
  deps: ImportDeps,
  row: TransferRow,
  items: AsyncGenerator<SandboxItem>,
  total: number,
  tracker: AttemptTracker,
): Promise<void> {
  const started = Date.now();
  const batch = new ImportBatch(deps.internal, row, { ...row.counts });
  let done = row.cursor?.done ?? 0;
  let last: SandboxItem | undefined;
  const save = (next: 'continue' | 'step' | 'finish') =>
    saveBatch(deps, row, batch, { last, done, total, next, attempt: tracker.record() });
  // Leaving the loop early (a step's time is up, or an error) ends the generator: its sandbox stops.
  for await (const item of items) {
    last = item;
    done++;
    batch.add(item);
    if (!batch.full) continue;
    const timeUp = Date.now() - started >= (deps.stepMs ?? STEP_MS);
    await save(timeUp ? 'step' : 'continue');
    if (timeUp) return;
  }
  await save('finish');
  await finish(deps, row, 'done', null);
}

/**
 * Writes the batch, then saves cursor, counts and report lines together (and queues the next
 * step when asked), in one transaction. A step that ends clears its attempt.
 */
async function saveBatch(
  deps: ImportDeps,
  row: TransferRow,
  batch: ImportBatch,
  at: {
    last: SandboxItem | undefined;
    done: number;
    total: number;
    next: 'continue' | 'step' | 'finish';
    attempt: { entry: number; deaths: number };
  },
): Promise<void> {
  const lines: ImportReportLine[] = await batch.write();
  const { last, done, total, next } = at;
  const cursor = !last
    ? row.cursor
    : last.endsEntry
      ? { entry: last.at.entry + 1, item: 0, done }
      : { entry: last.at.entry, item: last.at.item + 1, done };
  const sealed = lines.map((line) => ({
    transferId: row.id,
    userId: row.userId,
    problem: line.outcome === 'failed',
    lineEnc: deps.cipher.encrypt(JSON.stringify(line), reportContext(row.id)),
  }));
  const progress = Math.min(99, 1 + Math.floor((98 * done) / Math.max(total, 1)));
  await deps.uow.run(async (tx, emit) => {
    const moved = await updateAtStep(tx, row.id, row.step, {
      status: 'running',
      counts: batch.counts,
      cursor,
      progress,
      attempt: next === 'continue' ? at.attempt : null,
      ...(next === 'step' ? { step: row.step + 1, stalls: 0 } : {}),
    });
    if (!moved) throw new Error('The import was taken over by a later step');
    await addReportLines(tx, sealed);
    if (next === 'step')
      await emit('data.import', { userId: row.userId, transferId: row.id, step: row.step + 1 });
  });
  row.counts = { ...batch.counts };
  row.cursor = cursor;
}

/**
 * Ends an import: its state, and the upload deleted whatever the outcome, in one transaction, so an
 * import seen as ended has no upload left.
 */
export async function finish(
  deps: Pick<ImportDeps, 'db' | 'log'>,
  row: Pick<TransferRow, 'id' | 'step' | 'blobId' | 'counts'>,
  status: 'done' | 'failed',
  message: string | null,
): Promise<void> {
  const { blobId } = row;
  await deps.db.transaction(async (tx) => {
    await updateAtStep(tx, row.id, row.step, { status, progress: 100, message, blobId: null });
    if (blobId) await deleteBlob(tx, blobId);
  });
  deps.log.info({ transferId: row.id, status, ...row.counts }, 'import ended');
}
