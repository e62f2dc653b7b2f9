import { z } from 'zod';

/** Largest id a row can have: ids are Postgres `integer` columns, so anything bigger is a 404 waiting to be a 500. */
export const MAX_ID = 2_147_483_647;

const LOCAL_DATE_FORMAT = /^\d{4}-\d{2}-\d{2}$/;

/** True when a `yyyy-MM-dd` string names a day that exists (2025-02-29 and 2025-13-01 do not). */
export function isRealLocalDate(value: string): boolean {
  if (!LOCAL_DATE_FORMAT.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  if (y === undefined || m === undefined || d === undefined) return false;
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A calendar day as `yyyy-MM-dd` (the thought date format), checked to be a real date. */
export const LocalDate = z
  .string()
  .regex(LOCAL_DATE_FORMAT, { error: 'Dates must use the yyyy-MM-dd format', abort: true })
  .refine(isRealLocalDate, { error: 'Not a real calendar date' });
export type LocalDate = z.infer<typeof LocalDate>;

/** An ISO-8601 timestamp such as `2025-01-05T18:00:00.000Z` (an explicit offset is also accepted). */
export const IsoDateTime = z.iso.datetime({ offset: true, error: 'Expected an ISO date-time' });
export type IsoDateTime = z.infer<typeof IsoDateTime>;

/** A row id as it appears in a JSON body or answer. */
export const Id = z.number().int().positive().max(MAX_ID);
export type Id = z.infer<typeof Id>;

/** A row id taken from a path segment: digits only (no `1e3`, `0x10`, ` 7`), turned into a number. */
export const IdParam = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, { error: 'Id must be a positive integer', abort: true })
  .transform(Number)
  .pipe(Id);
export type IdParam = z.infer<typeof IdParam>;

/** A row id in a JSON body where some callers send it as a string (e.g. from a route param). */
export const IdValue = z.union([Id, IdParam]);
export type IdValue = z.infer<typeof IdValue>;

/** Path params of routes shaped `/.../:id`. */
export const IdParams = z.object({ id: IdParam });
export type IdParams = z.infer<typeof IdParams>;

/** An integer query parameter in [min, max]; accepts the string form from a URL or a number from a typed caller. */
export function queryInt(min: number, max: number) {
  return z
    .union([z.number(), z.string().regex(/^-?\d{1,10}$/, { error: 'Expected a whole number', abort: true })])
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/** The `t={timestamp}` cache-buster some GET calls add; accepted and ignored. */
export const CacheBuster = z.union([z.string().max(32), z.number()]).optional();

/** The usual small answer of a command: `{ success, message? }`. */
export const Ok = z.object({ success: z.boolean(), message: z.string().optional() });
export type Ok = z.infer<typeof Ok>;

/** Categories the capture, edit and insight views offer. */
export const CaptureCategory = z.enum(['personal', 'professional', 'creative']);
export type CaptureCategory = z.infer<typeof CaptureCategory>;

/** Every category a stored thought may carry (older entries use the last three). */
export const StoredCategory = z.enum([
  'personal',
  'professional',
  'creative',
  'priorities',
  'habits',
  'mental_health',
]);
export type StoredCategory = z.infer<typeof StoredCategory>;

/** The capture category a stored one is shown as (spec section 3: priorities→personal, habits→professional, mental_health→creative). */
export function displayCategory(category: string): CaptureCategory {
  switch (category) {
    case 'professional':
    case 'habits':
      return 'professional';
    case 'creative':
    case 'mental_health':
      return 'creative';
    default:
      return 'personal';
  }
}

/** What a field with a NUL character is told: Postgres text cannot hold one, and no person types it. */
export const NUL_MESSAGE = 'Text must not contain NUL characters';

/** Refuses the NUL character in any user text (it would fail in the database as a 500). */
export function noNul<T extends z.ZodString>(schema: T) {
  return schema.refine((v) => !v.includes('\u0000'), { error: NUL_MESSAGE });
}

/** Trimmed user text of 1..10000 characters (thought content, chat messages, classification input). */
export function userText(emptyMessage: string) {
  return noNul(
    z
      .string()
      .trim()
      .min(1, { error: emptyMessage })
      .max(10_000, { error: 'Text must be at most 10000 characters' }),
  );
}

/** 10 MB of audio, as base64 characters: ceil(10 * 1024 * 1024 / 3) * 4. */
export const MAX_AUDIO_BASE64_CHARS = 13_981_016;

const DATA_URL_PREFIX = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,/;
const BASE64_BODY = /^[A-Za-z0-9+/]*={0,2}$/;

/** Splits audio data into its optional `data:` URL mime type and the bare base64 text. */
export function audioDataParts(value: string): { mimeType: string | undefined; base64: string } {
  const prefix = DATA_URL_PREFIX.exec(value)?.[0];
  if (prefix === undefined) return { mimeType: undefined, base64: value };
  return { mimeType: prefix.slice('data:'.length, prefix.indexOf(';')), base64: value.slice(prefix.length) };
}

/**
 * Recorded audio as base64 (padding optional), optionally as a `data:audio/webm;codecs=opus;base64,...` URL (what a
 * browser FileReader produces). At most 10 MB decoded.
 */
export const AudioData = z.string().superRefine((value, ctx) => {
  const { base64 } = audioDataParts(value);
  if (base64.length > MAX_AUDIO_BASE64_CHARS) {
    ctx.addIssue({ code: 'custom', message: 'Audio must be at most 10 MB' });
  } else if (base64.length === 0 || base64.length % 4 === 1 || !BASE64_BODY.test(base64)) {
    ctx.addIssue({ code: 'custom', message: 'Audio must be base64 encoded' });
  }
});
export type AudioData = z.infer<typeof AudioData>;

/** Minutes as `Date.prototype.getTimezoneOffset()` reports them (UTC−14:00 .. UTC+14:00). */
export const TimezoneOffset = z.number().int().min(-840).max(840);
export type TimezoneOffset = z.infer<typeof TimezoneOffset>;
