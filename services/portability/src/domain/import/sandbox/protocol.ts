import type { ImportFormat, ImportedThought } from '@haven/contracts/portability';
import type { ImportItem, ItemPosition } from '../source';

/**
 * What the import service and its sandbox (a child process that reads the uploaded zip) say to
 * each other over the IPC channel. The sandbox holds no secret and no connection: it asks the
 * service for the zip's bytes by range, and answers with items a batch at a time, at most two
 * batches ahead of what the service has taken ('more' gives one back), so the service never holds
 * more than two batches of what it parsed beside the one it writes.
 */

/** The first message: what to do, over which zip. */
export interface StartMessage {
  type: 'start';
  /** `count`: the first pass (limits checked, items counted); `read`: items from `resume` on. */
  mode: 'count' | 'read';
  /** The zip's size in bytes. */
  size: number;
  /** The import's own time, ISO (the date of notes that have none). */
  now: string;
  resume?: ItemPosition;
  /** Entries not to read, each with the reason reported for it. */
  quarantined: Array<[number, string]>;
  /** Count mode: the items counted before `resume` (the limits are of the whole zip). */
  counted: number;
}

/** An item as the sandbox sends it: a thought's audio (a Haven export's) already read. */
export type SandboxItem = ImportItem & {
  audio?: ImportedThought['audio'];
  /** Why the thought's audio was left out, when it was. */
  audioNote?: string;
};

export type ParentMessage =
  | StartMessage
  /** A batch was taken: one more may be sent. */
  | { type: 'more' }
  | { type: 'range'; id: number; data?: Uint8Array; error?: string };

export type ChildMessage =
  | { type: 'range'; id: number; start: number; end: number }
  | { type: 'format'; format: ImportFormat }
  /** The sandbox starts reading entry `entry` (the watchdog and the quarantine follow it). */
  | { type: 'entry'; entry: number; name: string; counted?: number }
  /** Still at work (the first pass says so now and then, as it sends no items). */
  | { type: 'alive' }
  | { type: 'items'; items: SandboxItem[] }
  | { type: 'counted'; total: number }
  | { type: 'done' }
  /** A limit of the whole import was passed: it fails with this message, nothing imported. */
  | { type: 'limit'; message: string }
  /** The reader threw on entry `entry` (null: before any entry). */
  | { type: 'failed'; message: string; entry: number | null };

/** Items per batch, and the audio (base64 characters) after which a batch goes early. */
export const SANDBOX_BATCH_ITEMS = 100;
export const SANDBOX_BATCH_AUDIO = 4 * 1024 * 1024;
