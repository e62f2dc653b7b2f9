import type { Readable } from 'node:stream';
import type { ImportFormat, ImportOutcome, ImportedConversation } from '@haven/contracts/portability';
import type { StoredCategory } from '@haven/contracts/common';
import type { ThoughtFormat } from '@haven/contracts/thoughts';

/**
 * The meeting point of the zip reader (the orchestrator's side: limits, storage, resumption) and the
 * format readers (one per app people leave with). Format readers never see storage or the database:
 * they read entries through an `ImportSource` and yield `ImportItem`s in a deterministic order.
 */

/** One file of the uploaded zip (directories are left out; names were checked safe already). */
export interface SourceEntry {
  /** Path inside the zip, `/`-separated, never absolute, never with `..`. */
  name: string;
  /** Uncompressed size as the zip declares it (reads are capped by real bytes all the same). */
  size: number;
  /** The file's modification time as stored in the zip. */
  time: Date;
}

/** Read access to the zip's entries, every read capped by its uncompressed size. */
export interface ImportSource {
  /** Every file entry, in the zip's order; `entries[i]` is entry index `i`. */
  readonly entries: readonly SourceEntry[];
  /**
   * The whole entry. Past `max` uncompressed bytes it throws an `ImportLimitError` naming the file
   * and the limit (the whole import then fails with that message and imports nothing).
   */
  read(name: string, max: number): Promise<Buffer>;
  /** The entry as a stream that errors with an `ImportLimitError` past `max` bytes. */
  stream(name: string, max: number): Readable;
}

/** An ImportSource of these entries whose reads gather the entry's stream. */
export function sourceOf(entries: readonly SourceEntry[], stream: ImportSource['stream']): ImportSource {
  return {
    entries,
    stream,
    async read(name, max) {
      const chunks: Buffer[] = [];
      for await (const chunk of stream(name, max)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
  };
}

/**
 * The name a file is read under: its own, or, when an earlier file of the archive has that exact
 * name (a zip appended to, a tar with a file written twice), its own with " (2)", " (3)"… before the
 * extension, so every copy is imported or reported, none dropped unseen.
 */
export function distinctName(name: string, taken: { has(name: string): boolean }): string {
  if (!taken.has(name)) return name;
  const slash = name.lastIndexOf('/') + 1;
  const dot = name.lastIndexOf('.');
  const cut = dot > slash ? dot : name.length;
  for (let n = 2; ; n++) {
    const candidate = `${name.slice(0, cut)} (${n})${name.slice(cut)}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A limit of the import was passed: the whole import fails with this message, nothing imported. */
export class ImportLimitError extends Error {
  override name = 'ImportLimitError';
}

/** A thought made from a note, as a format reader gives it. */
export interface NoteThought {
  /** The text as it will be stored, title visible at its top (≤ the thought limit, 10,000 chars). */
  content: string;
  /** The note's title (front matter `title`, first heading, else the file name), or null. */
  title: string | null;
  /** ISO instant with `Z`. */
  date: string;
  /** The calendar day written in the note's own date (notes carry no zone), `YYYY-MM-DD`. */
  localDate: string;
  category: StoredCategory;
  /** At most 20 tags of at most 40 characters, first spelling of each (case-insensitive) kept. */
  tags: string[];
  isVoice: boolean;
  format: ThoughtFormat;
}

/** Where a thought's date came from. */
export type DateSource = 'metadata' | 'file-name' | 'zip-time' | 'import-day';

/** Position of an item: the entry it came from and its ordinal among that entry's items. */
export interface ItemPosition {
  entry: number;
  item: number;
}

export type ImportItem = {
  at: ItemPosition;
  file: string;
  /** The last item of its entry: the next one read is the next entry's first (a skipped file). */
  endsEntry?: true;
} & (
  | {
      kind: 'thought';
      thought: NoteThought;
      dateSource: DateSource;
      /** Set on the parts of a note too long for one thought. */
      part?: { n: number; of: number };
      /** A Haven export's audio file for this thought (an entry name), read by the orchestrator. */
      audioFile?: string | null;
      /** What of the note could not be read though it was imported (its front matter), for the report. */
      note?: string;
    }
  | { kind: 'conversation'; conversation: ImportedConversation }
  | {
      /** A file (or journal entry) that yields nothing: not a note, empty, or malformed. */
      kind: 'problem';
      outcome: Extract<ImportOutcome, 'skipped' | 'failed'>;
      line?: number;
      reason: string;
    }
);

export interface ReadOptions {
  /** The import's own time: the date of notes that have none at all ("import day"). */
  now: Date;
  /** Start at this position: entries before `entry` are not read at all. */
  resume?: ItemPosition;
  /** Entries not to read at all (they stopped the sandbox before), each with why: one failed item each. */
  quarantined?: ReadonlyMap<number, string>;
  /** Told before an entry is read (the sandbox's watchdog and quarantine follow it). */
  onEntry?: (index: number) => void;
  /**
   * Told of work that yields no item: each item dropped because it comes before `resume` (skipping
   * a journal is work too), each entry of a reader's first pass (Joplin's tags). The sandbox's
   * watchdog hears of it.
   */
  onSkip?: () => void;
}

/** A format: how to recognise it from the entry names, and how to read its items. */
export interface FormatReader {
  format: ImportFormat;
  /** Items in a deterministic order (same zip, same order), each with its position. */
  read(source: ImportSource, options: ReadOptions): AsyncIterable<ImportItem>;
}
