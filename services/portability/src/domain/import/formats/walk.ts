import { IMPORT_LIMITS, inMegabytes } from '@haven/contracts/portability';
import type { ImportItem, ImportSource, ReadOptions, SourceEntry } from '../source';

type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An item as a reader makes it, before it is given its file and position. */
export type ItemBody = Without<ImportItem, 'at' | 'file'>;

/** What a reader makes of one entry: its items in order (at least one). */
export type EntryReader = (
  entry: SourceEntry,
  index: number,
) => Iterable<ItemBody> | AsyncIterable<ItemBody> | Promise<Iterable<ItemBody>>;

/**
 * Every entry's items in entry order, each with its position. With `resume`, entries before
 * `resume.entry` are never passed to `readEntry` and the first `resume.item` items of that entry are
 * dropped (a streamed journal file is parsed from its start again, but gives nothing twice). A
 * quarantined entry is not read: it gives one failed item, the last of its entry.
 */
export async function* walkEntries(
  source: ImportSource,
  options: ReadOptions,
  readEntry: EntryReader,
): AsyncGenerator<ImportItem> {
  const first = options.resume?.entry ?? 0;
  for (let index = first; index < source.entries.length; index++) {
    const entry = source.entries[index]!;
    const skip = index === first ? (options.resume?.item ?? 0) : 0;
    const quarantined = options.quarantined?.get(index);
    if (quarantined !== undefined) {
      yield {
        kind: 'problem',
        outcome: 'failed',
        reason: quarantined,
        at: { entry: index, item: skip },
        file: entry.name,
        endsEntry: true,
      };
      continue;
    }
    options.onEntry?.(index);
    let item = 0;
    for await (const body of await readEntry(entry, index)) {
      if (item >= skip) yield { ...body, at: { entry: index, item }, file: entry.name } as ImportItem;
      else options.onSkip?.();
      item++;
    }
  }
}

/** One skipped problem: the usual answer for a file that is not a note. */
export const skipped = (reason: string): ItemBody[] => [{ kind: 'problem', outcome: 'skipped', reason }];

/** One failed problem, with its line when it has one. */
export const failed = (reason: string, line?: number): ItemBody[] => [
  { kind: 'problem', outcome: 'failed', reason, ...(line ? { line } : {}) },
];

/** A note over the size limit of one note: reported, not read (the rest of the import goes on). */
export const tooLarge = (): ItemBody[] =>
  failed(
    `The note is larger than ${inMegabytes(IMPORT_LIMITS.fileBytes)}, the limit of one note; it was not imported`,
  );
