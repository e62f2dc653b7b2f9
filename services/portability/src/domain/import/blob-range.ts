import { Readable } from 'node:stream';
import type { StoredBlob } from '../blob-store';

/** The largest range read from storage at once. */
const READ_PIECE = 256 * 1024;

/** Bytes [start, end) of a stored upload as a stream, read from storage a piece at a time as asked. */
export function rangeStream(blob: StoredBlob, start: number, end: number): Readable {
  let at = start;
  return new Readable({
    read() {
      if (at >= end) return void this.push(null);
      const to = Math.min(end, at + READ_PIECE);
      blob.readRange(at, to).then(
        (data) => {
          at = to;
          this.push(data);
        },
        (err: Error) => this.destroy(err),
      );
    },
  });
}
