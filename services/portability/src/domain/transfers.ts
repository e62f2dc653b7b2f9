import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import {
  IMPORT_CONTENT_TYPES,
  IMPORT_LIMITS,
  ImportReportLine,
  inMegabytes,
  type ExportProgress,
  type ImportFormat,
  type ImportProgress,
} from '@haven/contracts/portability';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { AppError, conflict, notFound, unsupportedMediaType } from '@haven/kit/errors';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import {
  claimDownload,
  findOwnedTransfer,
  insertTransfer,
  markDownloaded,
  releaseDownload,
  renewDownload,
  reportOf,
} from '../db/transfers.repository';
import type { BlobStore } from './blob-store';
import { reportContext } from './contexts';
/** Encryption context of an import's report lines (file names say a lot). */
export { reportContext };

export const TRANSFER_MESSAGES = {
  notFound: 'Export not found',
  importNotFound: 'Import not found',
  notReady: 'The export is not ready yet',
  downloading: 'This export is already being downloaded',
  gone: 'This export has expired or was already downloaded. Please export again.',
  tooLarge: `The file is larger than ${inMegabytes(IMPORT_LIMITS.bytes)}, the import limit`,
  notZip: 'Please choose a .zip file',
  reportNotReady: 'The report is ready once the import has ended',
};

const newId = () => randomBytes(12).toString('base64url');

/**
 * How long a download holds its export without renewing (it renews three times as often while it
 * streams): the wait, after a replica died mid-download, before the export can be downloaded again.
 */
const DOWNLOAD_CLAIM_SECONDS = 90;

interface TransferDeps {
  db: Db;
  uow: UnitOfWork;
  blobs: BlobStore;
  cipher: FieldCipher;
}

/** Exports and imports as their owner sees them; another user's is not found (404). */
export function createTransfers(deps: TransferDeps) {
  return { ...createExports(deps), ...createImports(deps) };
}
export type Transfers = ReturnType<typeof createTransfers>;

/** The user's transfer `id` of this kind; another user's is not found (404). */
async function owned(db: Db, userId: number, id: string, kind: 'export' | 'import') {
  const row = await findOwnedTransfer(db, userId, id, kind);
  if (!row) throw notFound(kind === 'export' ? TRANSFER_MESSAGES.notFound : TRANSFER_MESSAGES.importNotFound);
  return row;
}

const expired = (row: { expiresAt: Date | null }) => row.expiresAt !== null && row.expiresAt < new Date();

/** An export's start, progress and download. */
function createExports({ db, uow, blobs }: Omit<TransferDeps, 'cipher'>) {
  return {
    async startExport(userId: number): Promise<{ id: string }> {
      const id = newId();
      await uow.run(async (tx, emit) => {
        await insertTransfer(tx, { id, userId, kind: 'export' });
        await emit('data.export', { userId, transferId: id, step: 1 });
      });
      return { id };
    },

    async exportStatus(userId: number, id: string): Promise<ExportProgress> {
      const row = await owned(db, userId, id, 'export');
      return {
        status: row.status === 'ready' && expired(row) ? 'expired' : (row.status as ExportProgress['status']),
        progress: row.progress,
        expiresAt: row.expiresAt?.toISOString() ?? null,
      };
    },

    /**
     * Streams the zip from shared storage (any replica can), then marks it downloaded and deletes
     * it. The download holds the export while it streams, so a second one at the same time is
     * refused (409) rather than given the zip too. A download cut off half-way lets go of it: the
     * export can be downloaded again (at once, or once the claim of a replica that died lapses).
     */
    async download(userId: number, id: string, res: Response): Promise<void> {
      const row = await owned(db, userId, id, 'export');
      if (row.status === 'downloaded' || row.status === 'expired' || expired(row))
        throw new AppError(410, 'gone', TRANSFER_MESSAGES.gone);
      if (row.status !== 'ready' || !row.blobId) throw conflict(TRANSFER_MESSAGES.notReady);
      if (!(await claimDownload(db, id, DOWNLOAD_CLAIM_SECONDS)))
        throw conflict(TRANSFER_MESSAGES.downloading);
      // Renewed while it streams; should a renewal (or the release below) fail, the claim lapses.
      const renewal = setInterval(
        () => void renewDownload(db, id, DOWNLOAD_CLAIM_SECONDS).catch(() => {}),
        (DOWNLOAD_CLAIM_SECONDS * 1000) / 3,
      ).unref();
      try {
        const blob = await blobs.open(row.blobId);
        if (!blob) throw new AppError(410, 'gone', TRANSFER_MESSAGES.gone);
        res.status(200);
        res.setHeader('content-type', 'application/zip');
        res.setHeader('content-length', String(blob.size));
        setAttachment(res, `haven-export-${row.createdAt.toISOString().slice(0, 10)}.zip`);
        await pipeline(blob.stream(), res);
      } catch (err) {
        await releaseDownload(db, id).catch(() => {});
        throw err;
      } finally {
        clearInterval(renewal);
      }
      // Every byte was handed to the connection: the export is taken.
      if (await markDownloaded(db, id)) await blobs.remove(row.blobId);
    },
  };
}

/** A download's name, and that it is not to be kept by caches. */
function setAttachment(res: Response, filename: string): void {
  res.setHeader('content-disposition', `attachment; filename="${filename}"`);
  res.setHeader('cache-control', 'no-store');
}

/** An import's upload, progress and report. */
function createImports({ db, uow, blobs, cipher }: TransferDeps) {
  const readLine = (transferId: string, lineEnc: string) =>
    ImportReportLine.parse(JSON.parse(cipher.decrypt(lineEnc, reportContext(transferId))));

  return {
    /**
     * Streams the uploaded zip into shared storage (encrypted, a chunk at a time, at most the
     * import limit) and queues its import. An upload cut off or over the limit leaves nothing.
     */
    async startImport(userId: number, req: Request): Promise<{ id: string }> {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!IMPORT_CONTENT_TYPES.includes(type)) throw unsupportedMediaType(TRANSFER_MESSAGES.notZip);
      if (Number(req.headers['content-length'] ?? 0) > IMPORT_LIMITS.bytes)
        throw new AppError(413, 'payload_too_large', TRANSFER_MESSAGES.tooLarge);
      const blobId = await storeUpload(blobs, userId, req);
      const id = newId();
      await uow.run(async (tx, emit) => {
        await insertTransfer(tx, { id, userId, kind: 'import', blobId });
        await emit('data.import', { userId, transferId: id, step: 1 });
      });
      return { id };
    },

    async importStatus(userId: number, id: string): Promise<ImportProgress> {
      const row = await owned(db, userId, id, 'import');
      const problems = await reportOf(db, id, { problemsOnly: true, limit: 100 });
      return {
        status: row.status as ImportProgress['status'],
        progress: row.progress,
        format: (row.format as ImportFormat | null) ?? null,
        message: row.message,
        ...row.counts,
        errors: problems.map((p) => {
          const line = readLine(id, p.lineEnc);
          return { file: line.file, line: line.line, message: line.reason ?? line.outcome };
        }),
      };
    },

    /** The report as CSV, once the import has ended. */
    async report(userId: number, id: string, res: Response): Promise<void> {
      const row = await owned(db, userId, id, 'import');
      if (row.status !== 'done' && row.status !== 'failed') throw conflict(TRANSFER_MESSAGES.reportNotReady);
      res.status(200);
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      setAttachment(res, `haven-import-report-${row.createdAt.toISOString().slice(0, 10)}.csv`);
      res.write('file,outcome,line,reason\n');
      if (row.message) res.write(`${csvCell('(the whole import)')},failed,,${csvCell(row.message)}\n`);
      for (const { lineEnc } of await reportOf(db, id)) {
        const line = readLine(id, lineEnc);
        if (!res.write(`${[line.file, line.outcome, line.line, line.reason].map(csvCell).join(',')}\n`))
          await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    },
  };
}

/**
 * The upload streamed into shared storage, at most the import limit: its blob's id. An upload
 * refused (too large, empty, cut off) leaves nothing.
 */
async function storeUpload(blobs: BlobStore, userId: number, req: Request): Promise<string> {
  const blob = await blobs.writer(userId);
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
    await pipeline(req, limit, blob.stream);
    if (size === 0) throw new AppError(400, 'bad_request', TRANSFER_MESSAGES.notZip);
  } catch (err) {
    await blobs.remove(blob.id);
    throw err;
  }
  return blob.id;
}

/** A value as a CSV cell: quoted when it holds a quote, comma or line break. */
function csvCell(v: string | number | undefined): string {
  const text = v === undefined ? '' : String(v);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
