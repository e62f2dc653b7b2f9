import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import {
  AudioData,
  CacheBuster,
  CaptureCategory,
  Id,
  IdParams,
  IsoDateTime,
  LocalDate,
  queryInt,
  MAX_ID,
  noNul,
  Ok,
  StoredCategory,
  TimezoneOffset,
  userText,
} from './common';

/** Longest thought, in characters. */
export const MAX_CONTENT_LENGTH = 10_000;

/** Most tags one thought may carry. */
export const MAX_TAGS = 20;
/** Longest tag, in characters. */
export const MAX_TAG_LENGTH = 40;

/**
 * A thought's tags: trimmed, none blank, at most 20 of at most 40 characters. Duplicates are dropped
 * case-insensitively (the first spelling wins), matching the edit dialog's "duplicates are ignored".
 */
export const Tags = z
  .array(
    noNul(
      z
        .string()
        .trim()
        .min(1, { error: 'Tags cannot be blank' })
        .max(MAX_TAG_LENGTH, { error: `Tags must be at most ${MAX_TAG_LENGTH} characters` }),
    ),
  )
  .max(MAX_TAGS, { error: `At most ${MAX_TAGS} tags` })
  .transform((tags) => {
    const seen = new Set<string>();
    return tags.filter((tag) => {
      const key = tag.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });
export type Tags = z.infer<typeof Tags>;

/** How a thought's content is written (see `Thought.format`). */
export const ThoughtFormat = z.enum(['text', 'markdown']);
export type ThoughtFormat = z.infer<typeof ThoughtFormat>;

/** A thought as the API returns it (content decrypted, voice marker already stripped). */
export const Thought = z.object({
  id: Id,
  /** Display text: the leading microphone marker of voice entries is removed by the service. */
  content: z.string(),
  /** When it was recorded, ISO with `Z`. */
  date: IsoDateTime,
  /** The user's own calendar day for the thought, which is what day views group by. */
  localDate: LocalDate,
  /**
   * The writer's offset when it was saved (`Date.getTimezoneOffset()`: minutes, positive west of
   * UTC), or null when unknown (older and some imported thoughts).
   */
  timezoneOffset: TimezoneOffset.nullable(),
  tags: z.array(z.string()),
  isVoice: z.boolean(),
  category: StoredCategory,
  /** Whether audio is stored with it (the audio itself is never in list answers). */
  hasAudio: z.boolean(),
  /**
   * How the content is written: `text` as typed or said (shown as typed), `markdown` for notes
   * imported from Markdown apps (shown rendered, without raw HTML).
   */
  format: ThoughtFormat,
});
export type Thought = z.infer<typeof Thought>;

/** True when the instant, seen from the writer's offset, falls on a day of the years 1..9999. */
function localYearIn(clientDate: string, timezoneOffset: number): boolean {
  const local = new Date(Date.parse(clientDate) - timezoneOffset * 60_000);
  const year = local.getUTCFullYear();
  return Number.isFinite(local.getTime()) && year >= 1 && year <= 9999;
}

/**
 * POST /api/thoughts. `clientDate` and `timezoneOffset` let the server compute the user's localDate.
 * The content's `#tags` (as imports read them) are saved as tags too, after the ones in `tags`.
 */
export const CreateThoughtBody = z
  .object({
    /** May be empty only for a voice entry that sends audio: the server transcribes it then. */
    content: noNul(
      z
        .string()
        .trim()
        .max(MAX_CONTENT_LENGTH, { error: `Thoughts are limited to ${MAX_CONTENT_LENGTH} characters` }),
    ).default(''),
    category: CaptureCategory.default('personal'),
    isVoice: z.boolean().default(false),
    audioData: AudioData.nullish(),
    clientDate: IsoDateTime.optional(),
    timezoneOffset: TimezoneOffset.optional(),
    tags: Tags.optional(),
    /**
     * Makes the save idempotent: a retry with the same key (after a lost answer, or from the offline
     * queue) answers the thought already saved instead of saving another.
     */
    clientKey: z
      .string()
      .regex(/^[\w-]{8,64}$/, { error: 'clientKey must be 8 to 64 letters, digits, - or _' })
      .optional(),
  })
  .refine((b) => b.content.length > 0 || (b.isVoice && !!b.audioData), {
    error: 'Please say or enter some text before submitting',
    path: ['content'],
  })
  .refine((b) => b.clientDate === undefined || localYearIn(b.clientDate, b.timezoneOffset ?? 0), {
    error: "The thought's local date must fall between the years 1 and 9999",
    path: ['clientDate'],
  });
export type CreateThoughtBody = z.infer<typeof CreateThoughtBody>;

/** PATCH /api/thoughts/:id: only the fields that changed, at least one. */
export const UpdateThoughtBody = z
  .strictObject({
    content: userText('Thought content cannot be empty').optional(),
    category: CaptureCategory.optional(),
    tags: Tags.optional(),
  })
  .refine((b) => b.content !== undefined || b.category !== undefined || b.tags !== undefined, {
    error: 'Provide at least one of content, category or tags',
  });
export type UpdateThoughtBody = z.infer<typeof UpdateThoughtBody>;

/** GET /api/thoughts?date=yyyy-MM-dd&t=. */
export const ByDayQuery = z.object({ date: LocalDate, t: CacheBuster });
export type ByDayQuery = z.infer<typeof ByDayQuery>;

/** GET /api/thoughts/all?t=. */
export const AllQuery = z.object({ t: CacheBuster });
export type AllQuery = z.infer<typeof AllQuery>;

/**
 * GET /api/thoughts/range: the insights views send `start`/`end`, the timeline month view
 * `startDate`/`endDate`. Both become `{ start, end }` (inclusive days, start not after end).
 */
export const RangeQuery = z
  .object({
    start: LocalDate.optional(),
    end: LocalDate.optional(),
    startDate: LocalDate.optional(),
    endDate: LocalDate.optional(),
    t: CacheBuster,
  })
  .transform((q, ctx) => {
    const start = q.start ?? q.startDate;
    const end = q.end ?? q.endDate;
    if (start === undefined || end === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'Provide start and end (or startDate and endDate) as yyyy-MM-dd',
        path: [start === undefined ? 'start' : 'end'],
      });
      return z.NEVER;
    }
    // yyyy-MM-dd strings compare in calendar order.
    if (start > end) {
      ctx.addIssue({
        code: 'custom',
        message: 'The start date must not be after the end date',
        path: ['start'],
      });
      return z.NEVER;
    }
    return { start, end };
  });
export type RangeQuery = z.infer<typeof RangeQuery>;

/** Most ids one `/api/thoughts/ids` call may ask for. */
export const MAX_IDS = 200;

/** GET /api/thoughts/ids?ids=1,2,3: 1..200 positive ids, duplicates dropped, order kept. */
export const IdsQuery = z.object({
  ids: z
    .string()
    .max(MAX_IDS * 11)
    .transform((raw, ctx) => {
      const parts = raw.split(',').map((p) => p.trim());
      const ids: number[] = [];
      for (const part of parts) {
        const id = /^[1-9]\d{0,9}$/.test(part) ? Number(part) : NaN;
        if (!(id <= MAX_ID)) {
          ctx.addIssue({
            code: 'custom',
            message: 'ids must be a comma-separated list of positive integers',
          });
          return z.NEVER;
        }
        ids.push(id);
      }
      const unique = [...new Set(ids)];
      if (unique.length > MAX_IDS) {
        ctx.addIssue({ code: 'custom', message: `At most ${MAX_IDS} ids per request` });
        return z.NEVER;
      }
      return unique;
    }),
});
export type IdsQuery = z.infer<typeof IdsQuery>;

/** GET /api/thoughts/tags?t=. */
export const TagsQuery = z.object({ t: CacheBuster });
export type TagsQuery = z.infer<typeof TagsQuery>;

/** One of the user's tags and how many of their thoughts carry it (any letter case). */
export const TagCount = z.object({ tag: z.string(), count: z.number().int().positive() });
export type TagCount = z.infer<typeof TagCount>;

/** POST /api/analyze-content. */
export const AnalyzeContentBody = z.object({ text: userText('Text cannot be empty') });
export type AnalyzeContentBody = z.infer<typeof AnalyzeContentBody>;

/** Whether the text reads as a thought to save or a request to the assistant. */
export const AnalyzeContentAnswer = z.object({ type: z.enum(['thought', 'chat']) });
export type AnalyzeContentAnswer = z.infer<typeof AnalyzeContentAnswer>;

/** Longest search text, in characters. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * GET /api/thoughts/search?q=&tag=&cursor=&limit=. The spec's rule: a thought matches when its
 * content or any tag holds `q` as a case-insensitive substring (curly quotes read as straight ones,
 * accents ignored); a `tag` requires that tag (any letter case) and takes precedence over `q`. Neither
 * lists every thought, newest first ('All Thoughts (n)').
 */
export const SearchQuery = z.object({
  q: noNul(
    z
      .string()
      .trim()
      .max(MAX_SEARCH_LENGTH, { error: `Search text is limited to ${MAX_SEARCH_LENGTH} characters` }),
  ).default(''),
  tag: noNul(
    z
      .string()
      .trim()
      .max(MAX_TAG_LENGTH, { error: `Tags must be at most ${MAX_TAG_LENGTH} characters` }),
  ).optional(),
  /** The `nextCursor` of the previous page, as given. */
  cursor: z.string().max(200).optional(),
  limit: queryInt(1, 50).default(20),
  t: CacheBuster,
});
export type SearchQuery = z.infer<typeof SearchQuery>;

/** A matched span of `thought.content`: UTF-16 offsets [start, end) of the text as returned. */
export const Highlight = z.object({ start: z.number().int().min(0), end: z.number().int().min(0) });
export type Highlight = z.infer<typeof Highlight>;

/**
 * Why a thought is in the results, best first: the text as a whole-word phrase, all its words as
 * whole words (or their stems), the text inside other words or tags, an exact tag, by meaning (a
 * model found it alike, without the words), or simply recent (no search text).
 */
export const MatchKind = z.enum(['phrase', 'words', 'substring', 'tag', 'meaning', 'recent']);
export type MatchKind = z.infer<typeof MatchKind>;

export const SearchHit = z.object({
  thought: Thought,
  match: MatchKind,
  /** Where the search text is in the content (empty for a tag-only or meaning match). */
  highlights: z.array(Highlight),
  /** The thought's tags that hold the search text (or equal the tag searched). */
  matchedTags: z.array(z.string()),
});
export type SearchHit = z.infer<typeof SearchHit>;

/**
 * Whether search by meaning took part: `off` (no embeddings model on this server: words only),
 * `on`, or `down` (the model did not answer this time: words only).
 */
export const MeaningStatus = z.enum(['off', 'on', 'down']);
export type MeaningStatus = z.infer<typeof MeaningStatus>;

/** One page of search results. */
export const SearchPage = z.object({
  hits: z.array(SearchHit),
  /** How many thoughts match in all (the 'Search Results (n)' count). */
  total: z.number().int().min(0),
  /** Cursor of the next page, or null on the last. */
  nextCursor: z.string().nullable(),
  meaning: MeaningStatus,
});
export type SearchPage = z.infer<typeof SearchPage>;

/** GET /api/thoughts/:id/related?limit=. */
export const RelatedQuery = z.object({ limit: queryInt(1, 20).default(5), t: CacheBuster });
export type RelatedQuery = z.infer<typeof RelatedQuery>;

/** The thoughts most like one thought: by meaning with a model, by shared rare words without. */
export const RelatedAnswer = z.object({
  basis: z.enum(['meaning', 'words']),
  hits: z.array(SearchHit),
});
export type RelatedAnswer = z.infer<typeof RelatedAnswer>;

/** GET /api/thoughts/on-this-day?date=yyyy-MM-dd: the same month and day in earlier years. */
export const OnThisDayQuery = z.object({ date: LocalDate, t: CacheBuster });
export type OnThisDayQuery = z.infer<typeof OnThisDayQuery>;

/** Public routes of the thoughts service. Every list is the signed-in user's own thoughts only. */
export const thoughtsContract = defineContract({
  byDay: {
    method: 'GET',
    path: '/api/thoughts',
    query: ByDayQuery,
    responses: { 200: z.array(Thought), 400: ErrorBody, 401: ErrorBody },
    summary: 'Thoughts whose localDate is the given day, oldest first.',
  },
  range: {
    method: 'GET',
    path: '/api/thoughts/range',
    query: RangeQuery,
    responses: { 200: z.array(Thought), 400: ErrorBody, 401: ErrorBody },
    summary: 'Thoughts with localDate in [start, end], oldest first.',
  },
  byIds: {
    method: 'GET',
    path: '/api/thoughts/ids',
    query: IdsQuery,
    responses: { 200: z.array(Thought), 400: ErrorBody, 401: ErrorBody },
    summary: 'The requested thoughts that exist and belong to the user; unknown ids are left out.',
  },
  all: {
    method: 'GET',
    path: '/api/thoughts/all',
    query: AllQuery,
    responses: { 200: z.array(Thought), 401: ErrorBody },
    summary: 'Every thought of the user, newest first (search overlay).',
  },
  search: {
    method: 'GET',
    path: '/api/thoughts/search',
    query: SearchQuery,
    responses: { 200: SearchPage, 400: ErrorBody, 401: ErrorBody },
    summary:
      'Search through the keyed-hash index (the text is decrypted only for candidates): substring matches ranked phrase, whole words (BM25), other substrings, newest first among equals; merged with search by meaning when an embeddings model is configured. Paginated by cursor.',
  },
  related: {
    method: 'GET',
    path: '/api/thoughts/:id/related',
    params: IdParams,
    query: RelatedQuery,
    responses: { 200: RelatedAnswer, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
    summary:
      "The user's thoughts most like this one (by meaning with a model, by shared rare words without).",
  },
  onThisDay: {
    method: 'GET',
    path: '/api/thoughts/on-this-day',
    query: OnThisDayQuery,
    responses: { 200: z.array(Thought), 400: ErrorBody, 401: ErrorBody },
    summary: 'Thoughts written on the same month and day in earlier years, most recent year first.',
  },
  tags: {
    method: 'GET',
    path: '/api/thoughts/tags',
    query: TagsQuery,
    responses: { 200: z.array(TagCount), 400: ErrorBody, 401: ErrorBody },
    summary:
      "The user's tags, most used first, each with how many thoughts carry it (capture suggests them).",
  },
  create: {
    method: 'POST',
    path: '/api/thoughts',
    body: CreateThoughtBody,
    responses: { 201: Thought, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody },
    summary:
      'Saves (encrypted) and emits thought.changed through the outbox. `#tags` in the content are added to `tags`.',
  },
  update: {
    method: 'PATCH',
    path: '/api/thoughts/:id',
    params: IdParams,
    body: UpdateThoughtBody,
    responses: { 200: Thought, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  },
  remove: {
    method: 'DELETE',
    path: '/api/thoughts/:id',
    params: IdParams,
    responses: { 200: Ok, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  },
  audio: {
    method: 'GET',
    path: '/api/thoughts/:id/audio',
    params: IdParams,
    responses: {
      200: z.null(),
      206: z.null(),
      400: ErrorBody,
      401: ErrorBody,
      404: ErrorBody,
      416: ErrorBody,
    },
    summary:
      "A voice thought's recording as bytes of its stored type, with Range support (206 for a byte range, 416 for one past the end); 404 when it has none.",
  },
  analyzeContent: {
    method: 'POST',
    path: '/api/analyze-content',
    body: AnalyzeContentBody,
    responses: { 200: AnalyzeContentAnswer, 400: ErrorBody, 401: ErrorBody },
    summary: 'LLM classification, or the keyword rule when no model is configured or it fails.',
  },
});
