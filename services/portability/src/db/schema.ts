import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type { ImportCountsSoFar } from '@haven/contracts/portability';
import { outboxTable } from '@haven/kit/outbox-table';

/** Everything the portability service stores lives in its own Postgres schema. */
export const portabilitySchema = pgSchema('portability');

export const outbox = outboxTable(portabilitySchema);

/**
 * Files (an uploaded zip, a built export) in the database every replica shares, in encrypted
 * chunks: any replica can serve or read any file, and nothing lies on a container's disk.
 */
export const blobs = portabilitySchema.table('blobs', {
  id: text('id').primaryKey(),
  userId: integer('user_id').notNull(),
  /** Bytes in all, once complete. */
  size: integer('size').notNull().default(0),
  /** Bytes of every chunk but the last (random reads find their chunk by it). */
  chunkSize: integer('chunk_size').notNull(),
  complete: boolean('complete').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A chunk of a blob, encrypted with its position bound in (chunks cannot be swapped or moved). */
export const blobChunks = portabilitySchema.table(
  'blob_chunks',
  {
    blobId: text('blob_id')
      .notNull()
      .references(() => blobs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    dataEnc: text('data_enc').notNull(),
  },
  (t) => [primaryKey({ columns: [t.blobId, t.seq] })],
);

export const EMPTY_COUNTS: ImportCountsSoFar = {
  imported: 0,
  split: 0,
  duplicates: 0,
  skipped: 0,
  failed: 0,
  undated: 0,
  conversations: 0,
};

/**
 * An export or an import. `step` numbers its jobs: the job carrying the current step is the one
 * that may work on it (an older one, replayed or late, finds another step and does nothing).
 */
export const transfers = portabilitySchema.table(
  'transfers',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id').notNull(),
    kind: text('kind').$type<'export' | 'import'>().notNull(),
    status: text('status').notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    step: integer('step').notNull().default(1),
    /** The upload (import) or the zip made (export); deleted when no longer needed. */
    blobId: text('blob_id'),
    /** Import: what the zip was found to be. */
    format: text('format'),
    /** Why the whole transfer failed. */
    message: text('message'),
    /** Import: the items the first pass found (progress is measured against it), null before. */
    total: integer('total'),
    /** Import: where the next step goes on (entry and item of the zip), null before the first. */
    cursor: jsonb('cursor').$type<{ entry: number; item: number; done: number }>(),
    counts: jsonb('counts').$type<ImportCountsSoFar>().notNull().default(EMPTY_COUNTS),
    /** Steps queued again by the reconciler without the transfer having moved (a stuck job). */
    stalls: integer('stalls').notNull().default(0),
    /**
     * Import: entries of the zip the sandbox could not read within its limits, with the reason
     * reported; they are never read again.
     */
    quarantine: jsonb('quarantine').$type<Array<[number, string]>>().notNull().default([]),
    /**
     * Import: the entry a step is reading, and how many runs in a row died on it. Cleared when a
     * step ends; found set when a step starts, it means the last run's process died there.
     */
    attempt: jsonb('attempt').$type<{ entry: number; deaths: number }>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * Export: a download holds the zip until then (renewed while it streams), so a second one is
     * refused; a claim left by a replica that died mid-download lapses on its own.
     */
    downloadingUntil: timestamp('downloading_until', { withTimezone: true }),
  },
  (t) => [
    index('transfers_user_idx').on(t.userId),
    index('transfers_open_idx')
      .on(t.status, t.updatedAt)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/**
 * The import report, a line per file (or journal entry), encrypted: file names say a lot.
 * `problem` marks lines the status answer lists (failed files).
 */
export const reportLines = portabilitySchema.table(
  'report_lines',
  {
    id: serial('id').primaryKey(),
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    problem: boolean('problem').notNull().default(false),
    lineEnc: text('line_enc').notNull(),
  },
  (t) => [index('report_lines_transfer_idx').on(t.transferId, t.id)],
);
