import type { DateSource } from '../source';
import { fromInstant, parseDateValue, type NoteDate } from './dates';

/** A note's date and where it came from. */
export interface ResolvedDate extends NoteDate {
  source: DateSource;
}

/** Keys that name when a note was written, normalised (lower case, no spaces, `_` or `-`), best first. */
const CREATED_KEYS = [
  'created',
  'createdat',
  'createdtime',
  'usercreatedtime',
  'creationdate',
  'datecreated',
  'createdon',
  'creationtime',
  'date',
];
/** Keys that name when a note was last changed: a last resort (the note is at least that old). */
const UPDATED_KEYS = [
  'updated',
  'updatedat',
  'updatedtime',
  'userupdatedtime',
  'modified',
  'modifiedat',
  'modifiedtime',
  'lastmodified',
  'datemodified',
  'lastupdated',
];

const normalise = (key: string) => key.toLowerCase().replace(/[\s_-]/g, '');

/** The first key of `keys` (in that order) present in `meta` whose value is a date. */
function firstDate(meta: Record<string, unknown>, keys: readonly string[]): NoteDate | null {
  const byKey = new Map<string, unknown>();
  for (const [key, value] of Object.entries(meta)) {
    const k = normalise(key);
    if (!byKey.has(k)) byKey.set(k, value);
  }
  for (const key of keys) {
    const value = byKey.get(key);
    if (value === undefined || value === null) continue;
    const date = parseDateValue(Array.isArray(value) ? value[0] : value);
    if (date) return date;
  }
  return null;
}

/** The creation date of a note's metadata (any common key, case-insensitive), or null. */
export const createdDate = (meta: Record<string, unknown>) => firstDate(meta, CREATED_KEYS);

/** The last-change date of a note's metadata, or null. */
export const updatedDate = (meta: Record<string, unknown>) => firstDate(meta, UPDATED_KEYS);

/**
 * The note's date from the best source it has: its creation date in metadata, the date in its file
 * name, its last-change date in metadata, the zip's time for the file, else the import day.
 */
export function resolveDate(found: {
  created?: NoteDate | null;
  fileName?: NoteDate | null;
  updated?: NoteDate | null;
  zipTime?: Date | null;
  now: Date;
}): ResolvedDate {
  if (found.created) return { ...found.created, source: 'metadata' };
  if (found.fileName) return { ...found.fileName, source: 'file-name' };
  if (found.updated) return { ...found.updated, source: 'metadata' };
  const zip = found.zipTime ? fromInstant(found.zipTime) : null;
  if (zip) return { ...zip, source: 'zip-time' };
  return {
    ...(fromInstant(found.now) ?? { date: found.now.toISOString(), localDate: '' }),
    source: 'import-day',
  };
}
