import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { and, eq, lt } from 'drizzle-orm';
import { IMPORT_LIMITS, type ExportProgress, type ImportProgress } from '@haven/contracts/portability';
import type { Db } from '@haven/kit/db';
import { AppError, conflict, notFound } from '@haven/kit/errors';
import type { Logger } from '@haven/kit/logger';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import { dataTransfers } from '../../db/schema';
import type { TransferFiles } from './files';

export const TRANSFER_MESSAGES = {
  notFound: 'Export not found',
  importNotFound: 'Import not found',
  notReady: 'The export is not ready yet',
  gone: 'This export has expired or was already downloaded. Please export again.',
  tooLarge: `The file is larger than ${IMPORT_LIMITS.bytes / 1024 / 1024} MB`,
  notZip: 'Please choose a .zip file',
};

const newId = () => randomBytes(12).toString('base64url');

/** Exports and imports: their rows and files, never another user's (404). */
export function createTransfers({
  db,
  uow,
  files,
  log,
}: {
  db: Db;
  uow: UnitOfWork;
  files: TransferFiles;
  log: Logger;
}) {
  async function owned(userId: number, id: string, kind: 'export' | 'import') {
    const [row] = await db
      .select()
      .from(dataTransfers)
      .where(and(eq(dataTransfers.id, id), eq(dataTransfers.userId, userId), eq(dataTransfers.kind, kind)));
    if (!row)
      throw notFound(kind === 'export' ? TRANSFER_MESSAGES.notFound : TRANSFER_MESSAGES.importNotFound);
    return row;
  }
  const expired = (row: { expiresAt: Date | null }) => row.expiresAt !== null && row.expiresAt < new Date();

  return {
    async startExport(userId: number): Promise<{ id: string }> {
      const id = newId();
      await uow.run(async (tx, emit) => {
        await tx.insert(dataTransfers).values({ id, userId, kind: 'export' });
        await emit('data.export', { userId, transferId: id });
      });
      return { id };
    },

    async exportStatus(userId: number, id: string): Promise<ExportProgress> {
      const row = await owned(userId, id, 'export');
      return {
        status: row.status === 'ready' && expired(row) ? 'expired' : (row.status as ExportProgress['status']),
        progress: row.progress,
        expiresAt: row.expiresAt?.toISOString() ?? null,
      };
    },

    /** Streams the zip, decrypting it; then it is deleted: an export is downloaded once. */
    async download(userId: number, id: string, res: Response): Promise<void> {
      const row = await owned(userId, id, 'export');
      if (row.status === 'downloaded' || row.status === 'expired' || expired(row))
        throw new AppError(410, 'gone', TRANSFER_MESSAGES.gone);
      if (row.status !== 'ready' || !row.iv || !row.tag) throw conflict(TRANSFER_MESSAGES.notReady);
      // Claimed first, so two downloads at once cannot both read it.
      const [claimed] = await db
        .update(dataTransfers)
        .set({ status: 'downloaded' })
        .where(and(eq(dataTransfers.id, id), eq(dataTransfers.status, 'ready')))
        .returning();
      if (!claimed) throw new AppError(410, 'gone', TRANSFER_MESSAGES.gone);
      res.status(200);
      res.setHeader('content-type', 'application/zip');
      res.setHeader(
        'content-disposition',
        `attachment; filename="haven-export-${row.createdAt.toISOString().slice(0, 10)}.zip"`,
      );
      res.setHeader('cache-control', 'no-store');
      try {
        await pipeline(createReadStream(files.pathOf(id)), files.decrypter(id, row.iv, row.tag), res);
      } finally {
        await files.remove(id);
      }
    },

    /** Stores the uploaded zip (encrypted, at most the size limit) and queues its import. */
    async startImport(userId: number, req: Request): Promise<{ id: string }> {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!['application/zip', 'application/x-zip-compressed', 'application/octet-stream'].includes(type))
        throw new AppError(415, 'unsupported_media_type', TRANSFER_MESSAGES.notZip);
      if (Number(req.headers['content-length'] ?? 0) > IMPORT_LIMITS.bytes)
        throw new AppError(413, 'payload_too_large', TRANSFER_MESSAGES.tooLarge);
      const id = newId();
      const { iv, cipher } = files.encrypter(id);
      let size = 0;
      const limit = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > IMPORT_LIMITS.bytes)
            return done(new AppError(413, 'payload_too_large', TRANSFER_MESSAGES.tooLarge));
          done(null, chunk);
        },
      });
      try {
        await pipeline(req, limit, cipher, createWriteStream(files.pathOf(id)));
      } catch (err) {
        await files.remove(id);
        throw err;
      }
      if (size === 0) {
        await files.remove(id);
        throw new AppError(400, 'bad_request', TRANSFER_MESSAGES.notZip);
      }
      await uow.run(async (tx, emit) => {
        await tx
          .insert(dataTransfers)
          .values({ id, userId, kind: 'import', iv, tag: cipher.getAuthTag().toString('base64') });
        await emit('data.import', { userId, transferId: id });
      });
      return { id };
    },

    async importStatus(userId: number, id: string): Promise<ImportProgress> {
      const row = await owned(userId, id, 'import');
      return {
        status: row.status as ImportProgress['status'],
        progress: row.progress,
        imported: row.result?.imported ?? 0,
        skipped: row.result?.skipped ?? 0,
        errors: row.result?.errors ?? [],
      };
    },

    /** Exports never downloaded within 24 hours are deleted. */
    async removeExpired(): Promise<void> {
      const old = await db
        .update(dataTransfers)
        .set({ status: 'expired' })
        .where(and(eq(dataTransfers.status, 'ready'), lt(dataTransfers.expiresAt, new Date())))
        .returning();
      for (const row of old) await files.remove(row.id);
      if (old.length) log.info({ count: old.length }, 'expired exports deleted');
    },
  };
}
export type Transfers = ReturnType<typeof createTransfers>;
