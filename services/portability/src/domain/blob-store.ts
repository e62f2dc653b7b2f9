import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import {
  addChunk,
  chunksBetween,
  completeBlob,
  createBlob,
  deleteBlob,
  findBlob,
} from '../db/blobs.repository';
import { contextOf } from './contexts';

/** Bytes per stored chunk: what one read or write of a file holds in memory at a time. */
export const CHUNK_BYTES = 512 * 1024;

/** Decrypted chunks a reader keeps (4 MiB): enough for a zip's small entries read in order. */
const CACHED_CHUNKS = 8;

/** A stored file as readers see it. */
export interface StoredBlob {
  id: string;
  size: number;
  /** Bytes [start, end) of the file. */
  readRange(start: number, end: number): Promise<Buffer>;
  /** The whole file as a stream, a chunk at a time, with backpressure. */
  stream(): Readable;
}

/**
 * Files kept in PostgreSQL, which every replica shares (so any replica can serve a download or
 * continue an import another one started), in encrypted chunks of 512 KiB: a chunk's position is
 * bound into its encryption, so chunks cannot be swapped, and any byte range can be read without
 * reading the rest, which is what a zip reader needs.
 */
export function createBlobStore({ db, cipher }: { db: Db; cipher: FieldCipher }) {
  const decrypt = (blobId: string, seq: number, dataEnc: string) =>
    cipher.decryptBytes(dataEnc, contextOf(blobId, seq));

  return {
    /**
     * A writable for a new file of `userId`: chunks are stored as they fill. `id` is known at once;
     * the file is readable once `finish` has been emitted (`complete` is set then).
     */
    async writer(userId: number): Promise<{ id: string; stream: Writable; size: () => number }> {
      const id = randomBytes(12).toString('base64url');
      await createBlob(db, id, userId, CHUNK_BYTES);
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let seq = 0;
      let size = 0;
      const flush = async (all: boolean) => {
        while (pendingBytes >= CHUNK_BYTES || (all && pendingBytes > 0)) {
          const joined = Buffer.concat(pending);
          const chunk = joined.subarray(0, CHUNK_BYTES);
          const rest = joined.subarray(chunk.length);
          pending = rest.length ? [rest] : [];
          pendingBytes = rest.length;
          await addChunk(db, id, seq, cipher.encryptBytes(chunk, contextOf(id, seq)));
          seq++;
        }
      };
      const stream = new Writable({
        highWaterMark: CHUNK_BYTES,
        write(data: Buffer, _enc, done) {
          pending.push(data);
          pendingBytes += data.length;
          size += data.length;
          flush(false).then(() => done(), done);
        },
        final(done) {
          flush(true)
            .then(() => completeBlob(db, id, size))
            .then(() => done(), done);
        },
      });
      return { id, stream, size: () => size };
    },

    /** A complete stored file, or undefined. */
    async open(id: string): Promise<StoredBlob | undefined> {
      const row = await findBlob(db, id);
      if (!row?.complete) return undefined;
      const { size, chunkSize } = row;
      // Decrypted chunks lately read: a zip reader reads many small ranges close together.
      const recent = new Map<number, Promise<Buffer>>();
      const chunk = (seq: number): Promise<Buffer> => {
        let got = recent.get(seq);
        if (got) {
          recent.delete(seq);
        } else {
          got = chunksBetween(db, id, seq, seq).then(([c]) => {
            if (!c) throw new Error(`Chunk ${seq} of file ${id} is missing`);
            return decrypt(id, seq, c.dataEnc);
          });
          got.catch(() => recent.delete(seq));
        }
        recent.set(seq, got);
        if (recent.size > CACHED_CHUNKS) recent.delete(recent.keys().next().value!);
        return got;
      };
      return {
        id,
        size,
        async readRange(start, end) {
          if (end <= start) return Buffer.alloc(0);
          const first = Math.floor(start / chunkSize);
          const last = Math.floor((end - 1) / chunkSize);
          const parts: Buffer[] = [];
          for (let seq = first; seq <= last; seq++) parts.push(await chunk(seq));
          const joined = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
          const offset = start - first * chunkSize;
          return joined.subarray(offset, offset + (end - start));
        },
        stream() {
          const count = Math.ceil(size / chunkSize);
          let seq = 0;
          return new Readable({
            highWaterMark: 1,
            objectMode: false,
            read() {
              if (seq >= count) return void this.push(null);
              const at = seq++;
              chunksBetween(db, id, at, at).then(
                ([chunk]) =>
                  chunk
                    ? this.push(decrypt(id, at, chunk.dataEnc))
                    : this.destroy(new Error('Missing chunk')),
                (err: Error) => this.destroy(err),
              );
            },
          });
        },
      };
    },

    remove: (id: string) => deleteBlob(db, id),
  };
}
export type BlobStore = ReturnType<typeof createBlobStore>;
