import { deleteOrphanBlobs } from '../db/blobs.repository';
import { claimStalled, expireExports, findForStep, updateAtStep } from '../db/transfers.repository';
import { buildExport } from './export';
import { finish, runImportStep, type ImportDeps } from './import/run';

type Step = { userId: number; transferId: string; step: number };

/** A transfer this many minutes without moving has lost its job (a step moves every few seconds). */
export const STALLED_MINUTES = 2;
/** Stalls in a row after which a transfer is failed rather than tried again. */
const MAX_STALLS = 5;

/** Errors BullMQ gives a job whose worker died too often: the reconciler takes those over. */
const isStall = (error: Error) => /stalled/i.test(error.message);

/** The workers' side of exports and imports: steps, failures, and what the sweeps do. */
export function createPortability(deps: ImportDeps) {
  const { db, blobs, log } = deps;

  async function failStep(payload: Step, message: string) {
    const row = await findForStep(db, payload.transferId, payload.userId, payload.step);
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return;
    if (row.kind === 'import') return finish(deps, row, 'failed', message);
    await updateAtStep(db, row.id, row.step, { status: 'failed', message, blobId: null });
    if (row.blobId) await blobs.remove(row.blobId);
  }

  return {
    buildExport: (payload: Step) => buildExport(deps, payload),
    importStep: (payload: Step) => runImportStep(deps, payload),

    async failExport(payload: Step, error: Error) {
      if (isStall(error)) return;
      log.error({ transferId: payload.transferId, err: error }, 'export failed');
      await failStep(payload, 'The export could not be made. Please try again.');
    },

    /** After the last attempt: failed with the reason, keeping the counts of what was written. */
    async failImport(payload: Step, error: Error) {
      if (isStall(error)) return;
      log.error({ transferId: payload.transferId, err: error }, 'import failed');
      await failStep(
        payload,
        `The import stopped: ${error.message.slice(0, 300)}. What it had imported stays; importing the same zip again adds only the rest.`,
      );
    },

    /**
     * Transfers whose job was lost or keeps dying get their next step queued (payloads returned);
     * after MAX_STALLS in a row one is failed instead, its counts kept.
     */
    async stalled(kind: 'export' | 'import'): Promise<Step[]> {
      const claimed = await claimStalled(db, kind, STALLED_MINUTES);
      const retry: Step[] = [];
      for (const row of claimed) {
        const payload = { userId: row.userId, transferId: row.id, step: row.step };
        if (row.stalls > MAX_STALLS)
          await failStep(payload, `The ${kind} stopped unexpectedly ${MAX_STALLS} times. Please try again.`);
        else retry.push(payload);
      }
      return retry;
    },

    /** Exports not downloaded in a day, and files no transfer needs, are deleted. */
    async sweep() {
      const expired = await expireExports(db);
      for (const id of expired) await blobs.remove(id);
      const orphans = await deleteOrphanBlobs(db, 60);
      if (expired.length || orphans) log.info({ expired: expired.length, orphans }, 'transfer files deleted');
    },
  };
}
export type Portability = ReturnType<typeof createPortability>;
