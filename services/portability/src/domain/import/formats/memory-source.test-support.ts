import { Readable } from 'node:stream';
import { ImportLimitError, type ImportItem, type ImportSource, type ReadOptions } from '../source';
import type { FormatReader } from '../source';

/** An ImportSource over in-memory files (zip order = insertion order), recording what was read. */
export function memorySource(
  files: Record<string, string | Buffer>,
  time = new Date('2020-05-05T10:00:00Z'),
): ImportSource & { reads: string[] } {
  const data = new Map(Object.entries(files).map(([k, v]) => [k, Buffer.isBuffer(v) ? v : Buffer.from(v)]));
  const reads: string[] = [];
  const get = (name: string, max: number) => {
    const buf = data.get(name);
    if (!buf) throw new Error(`No entry ${name}`);
    reads.push(name);
    if (buf.length > max) throw new ImportLimitError(`${name} is larger than ${max} bytes`);
    return buf;
  };
  return {
    reads,
    entries: [...data].map(([name, buf]) => ({ name, size: buf.length, time })),
    read: async (name, max) => get(name, max),
    stream(name, max) {
      const buf = get(name, Infinity);
      // Small chunks, so values and multi-byte characters straddle chunk boundaries.
      async function* chunks() {
        for (let i = 0; i < buf.length; i += 1000) {
          if (i + 1000 > max) throw new ImportLimitError(`${name} is larger than ${max} bytes`);
          yield buf.subarray(i, i + 1000);
        }
      }
      return Readable.from(chunks());
    },
  };
}

/** Every item a reader gives for a source. */
export async function readAll(
  reader: FormatReader,
  source: ImportSource,
  options: Partial<ReadOptions> = {},
) {
  const items: ImportItem[] = [];
  for await (const item of reader.read(source, { now: new Date('2026-01-15T09:00:00Z'), ...options }))
    items.push(item);
  return items;
}

/** The thoughts among items. */
export const thoughtsOf = (items: ImportItem[]) => items.flatMap((i) => (i.kind === 'thought' ? [i] : []));

/** The problems among items. */
export const problemsOf = (items: ImportItem[]) => items.flatMap((i) => (i.kind === 'problem' ? [i] : []));
