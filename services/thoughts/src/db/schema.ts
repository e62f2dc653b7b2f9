import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgSchema,
  primaryKey,
  smallint,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { outboxTable } from '@haven/kit/outbox-table';
import { instant } from './instant';

/** Everything the thoughts service stores lives in its own Postgres schema; no other service reads it. */
export const thoughtsSchema = pgSchema('thoughts');

export const outbox = outboxTable(thoughtsSchema);

/**
 * Thoughts. Content, audio and tags are encrypted (bound to the owner), so text search happens after
 * decryption; an exact tag is found through `tag_index`, a keyed blind index of the owner's tags.
 */
export const thoughts = thoughtsSchema.table(
  'thoughts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    /** Encrypted; voice entries keep their leading microphone marker inside. */
    contentEnc: text('content_enc').notNull(),
    /** Encrypted audio bytes with their MIME type, or null. */
    audioEnc: text('audio_enc'),
    audioMime: text('audio_mime'),
    isVoice: boolean('is_voice').notNull().default(false),
    category: text('category').notNull().default('personal'),
    /** Encrypted JSON array of the tags as written, or null when there are none. */
    tagsEnc: text('tags_enc'),
    /**
     * One HMAC per tag of `${userId}:${trimmed lower-case tag}` (see domain/tags.ts), keyed from the
     * data key that encrypted `tags_enc`: `@>` finds a tag without decrypting a row.
     */
    tagIndex: text('tag_index')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * Plaintext tags written before tags were encrypted, null once the start-up migration has
     * encrypted them (domain/tag-migration.ts). Never written with a value; a later migration drops it.
     */
    legacyTags: text('tags').array(),
    /** When it was recorded (the client's clock when given). */
    date: instant('date')
      .notNull()
      .default(sql`now()`),
    /** The user's own calendar day, computed from the client's time and offset on create. */
    localDate: date('local_date', { mode: 'string' }).notNull(),
    /**
     * The writer's clock offset when saved, as the browser's `Date.getTimezoneOffset()` (minutes,
     * positive west of UTC), so exports can print the thought's own wall-clock time. Null for
     * thoughts saved before it was kept, or imported without one.
     */
    timezoneOffset: integer('timezone_offset'),
    /**
     * The key a client gave this save (the SPA's offline queue sends one per queued thought), so a
     * save retried after its answer was lost finds the thought it made instead of making another.
     */
    clientKey: text('client_key'),
    /** `text` (typed or said) or `markdown` (an imported note); see the contract's ThoughtFormat. */
    format: text('format').notNull().default('text'),
    /**
     * A keyed hash (blind index) of the owner, the text, the instant and the title (imported notes),
     * so an import finds duplicates with one indexed lookup instead of decrypting the user's
     * thoughts. Set on every save; rows from before it are keyed the first time an import looks.
     */
    dedupeKey: text('dedupe_key'),
    /**
     * The search index of this thought (see domain/search): keyed 32-bit hashes, per user, of its
     * folded words and their stems (`search_words`, whole words and ranking), with each word's count
     * (`search_tf`, same order) and the number of words (`search_len`); its grams are in
     * `search_grams`. Never the text. `search_key` names the key and index version that built them;
     * null (or an old one) means the start-up indexer still has to (re)build this row's entries.
     */
    searchWords: integer('search_words')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    searchTf: smallint('search_tf')
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    searchLen: integer('search_len').notNull().default(0),
    searchKey: text('search_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('thoughts_search_words_idx').using('gin', t.searchWords),
    index('thoughts_user_search_key_idx').on(t.userId, t.searchKey),
    index('thoughts_user_month_day_idx').on(
      t.userId,
      sql`(extract(month from ${t.localDate}))`,
      sql`(extract(day from ${t.localDate}))`,
    ),
    index('thoughts_user_day_idx').on(t.userId, t.localDate),
    index('thoughts_user_date_idx').on(t.userId, t.date),
    index('thoughts_tag_index_idx').using('gin', t.tagIndex),
    uniqueIndex('thoughts_user_client_key').on(t.userId, t.clientKey),
    index('thoughts_user_dedupe_key_idx').on(t.userId, t.dedupeKey),
  ],
);

/**
 * The grams of each thought's search index: keyed 32-bit hashes of every distinct character, bigram
 * and trigram of its folded text and tags, and of each boundary between two words (candidates for a
 * substring). A table of their own, one narrow row per thought with the array kept out of line, so
 * counting a common query's candidates visits a few hundred pages instead of every page of the
 * thoughts. Written with the thought's other index columns, in the same transaction.
 */
export const searchGrams = thoughtsSchema.table(
  'search_grams',
  {
    thoughtId: integer('thought_id')
      .primaryKey()
      .references(() => thoughts.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    grams: integer('grams').array().notNull(),
    /**
     * Spaces, written with each row (see saveGrams) so that it is long enough for PostgreSQL to
     * toast it: only a row over ~2 kB is, and then down to the table's `toast_tuple_target` (128
     * bytes, set in the migration): the spaces compress to a few bytes and the grams (stored
     * EXTERNAL) go out of line. Without them a short thought's grams would stay in the row.
     */
    pad: text('pad'),
  },
  (t) => [index('search_grams_grams_idx').using('gin', t.grams)],
);

/**
 * How many of a user's indexed thoughts hold each word hash (its document frequency), for BM25 and
 * for "related by rare words". Kept in the same transaction as the thoughts' own index columns.
 */
export const searchTerms = thoughtsSchema.table(
  'search_terms',
  {
    userId: integer('user_id').notNull(),
    term: integer('term').notNull(),
    df: integer('df').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.term] })],
);

/** Per user: how many thoughts are indexed and their words in all (BM25's N and average length). */
export const searchStats = thoughtsSchema.table('search_stats', {
  userId: integer('user_id').primaryKey(),
  docs: integer('docs').notNull().default(0),
  words: integer('words').notNull().default(0),
});

/**
 * One embedding per thought, for search by meaning: the vector (float32 bytes) encrypted like the
 * text, with the model that made it and the text hash it was made from (a stale vector is redone).
 */
export const embeddings = thoughtsSchema.table(
  'embeddings',
  {
    thoughtId: integer('thought_id')
      .primaryKey()
      .references(() => thoughts.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    model: text('model').notNull(),
    dims: integer('dims').notNull(),
    /** Encrypted float32 vector bytes. */
    vectorEnc: text('vector_enc').notNull(),
    /** Keyed hash of the text the vector was computed from. */
    sourceKey: text('source_key').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('embeddings_user_model_updated_idx').on(t.userId, t.model, t.updatedAt)],
);
