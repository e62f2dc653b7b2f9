import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import {
  Id,
  IsoDateTime,
  LocalDate,
  MAX_AUDIO_BASE64_CHARS,
  StoredCategory,
  TimezoneOffset,
  queryInt,
} from './common';
import { Conversation, Message, MessageType } from './assistant';
import { Insight } from './insights';
import { IntegrationSettings, IntegrationType, Provider } from './integrations';
import { MAX_CONTENT_LENGTH, MAX_TAG_LENGTH, MAX_TAGS, Thought, ThoughtFormat } from './thoughts';

/* Your data is yours: export, import (auth orchestrates; each service gives and takes its part). */

/** Limits of an import, said in the messages when they are passed and in the Your data card. */
export const IMPORT_LIMITS = {
  /** The uploaded zip. */
  bytes: 200 * 1024 * 1024,
  /** Files (of any kind) in the zip. */
  files: 20_000,
  /** One note file (Markdown, text, JSON or XML note). */
  fileBytes: 1024 * 1024,
  /** One data file of a whole-journal export (thoughts.json, Journal.json, an .enex). */
  dataFileBytes: 256 * 1024 * 1024,
  /** One audio file. */
  audioBytes: 10 * 1024 * 1024,
  /** Everything read out of the zip, uncompressed (files that are not notes are not read). */
  totalBytes: 1024 * 1024 * 1024,
  /** Thoughts (notes, entries) in one import. */
  items: 100_000,
  /** Conversations in one import. */
  conversations: 10_000,
} as const;

/** Megabytes of a byte limit, for messages. */
export const inMegabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** An export or import in progress or done. */
export const TransferStatus = z.enum([
  'queued',
  'running',
  'ready',
  'done',
  'failed',
  'downloaded',
  'expired',
]);
export type TransferStatus = z.infer<typeof TransferStatus>;

export const TransferIdParams = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'Invalid id' }),
});
export type TransferIdParams = z.infer<typeof TransferIdParams>;

export const TransferStarted = z.object({ id: z.string() });
export type TransferStarted = z.infer<typeof TransferStarted>;

export const ExportProgress = z.object({
  status: TransferStatus,
  /** 0..100. */
  progress: z.number().int().min(0).max(100),
  expiresAt: IsoDateTime.nullable(),
});
export type ExportProgress = z.infer<typeof ExportProgress>;

/** The kinds of export an import recognises. */
export const ImportFormat = z.enum([
  'haven',
  'obsidian',
  'logseq',
  'joplin',
  'dayone',
  'keep',
  'evernote',
  'notion',
  'simplenote',
  'textbundle',
  'html',
  'jrnl',
  'notes',
]);
export type ImportFormat = z.infer<typeof ImportFormat>;

/** How the Your data card names each format. */
export const IMPORT_FORMAT_NAMES: Record<ImportFormat, string> = {
  haven: 'a Haven export',
  obsidian: 'an Obsidian vault',
  logseq: 'a Logseq graph',
  joplin: 'a Joplin export',
  dayone: 'a Day One journal',
  keep: 'a Google Keep export',
  evernote: 'an Evernote export',
  notion: 'a Notion export',
  simplenote: 'a Simplenote export',
  textbundle: 'Bear or Ulysses TextBundles',
  html: 'HTML notes (Apple Notes exporters, web pages)',
  jrnl: 'a jrnl journal',
  notes: 'a folder of notes',
};

/** What became of one file (or one entry of a journal file) of an import. */
export const ImportOutcome = z.enum(['imported', 'split', 'duplicate', 'skipped', 'failed']);
export type ImportOutcome = z.infer<typeof ImportOutcome>;

/** One line of the import report. */
export const ImportReportLine = z.object({
  file: z.string(),
  outcome: ImportOutcome,
  /** The line a problem is on, when it has one. */
  line: z.number().int().positive().optional(),
  /** Why it was skipped, failed or split, or where its date came from when it had none. */
  reason: z.string().optional(),
});
export type ImportReportLine = z.infer<typeof ImportReportLine>;

/** A problem with one file of an import, named by file (and line when it has one). */
export const ImportError = z.object({
  file: z.string(),
  line: z.number().int().positive().optional(),
  message: z.string(),
});
export type ImportError = z.infer<typeof ImportError>;

/** Counts of an import so far (they survive restarts of the worker). */
export const ImportCountsSoFar = z.object({
  /** Notes or thoughts written (a split note counts once). */
  imported: z.number().int().nonnegative(),
  /** Of those, notes longer than a thought, kept as several parts. */
  split: z.number().int().nonnegative(),
  /** Already there (same text, date and title). */
  duplicates: z.number().int().nonnegative(),
  /** Files that are not notes (images, PDFs, settings), or hold nothing to import. */
  skipped: z.number().int().nonnegative(),
  /** Files with a problem, named in `errors`. */
  failed: z.number().int().nonnegative(),
  /** Imported notes without a date of their own, put on the import day. */
  undated: z.number().int().nonnegative(),
  conversations: z.number().int().nonnegative(),
});
export type ImportCountsSoFar = z.infer<typeof ImportCountsSoFar>;

export const ImportProgress = ImportCountsSoFar.extend({
  status: TransferStatus,
  progress: z.number().int().min(0).max(100),
  /** What the zip was found to be, once known. */
  format: ImportFormat.nullable(),
  /** Why the whole import failed (a limit, not a zip, an internal failure), else null. */
  message: z.string().nullable(),
  /** The first problems by file (the whole list is in the report). */
  errors: z.array(ImportError).max(100),
});
export type ImportProgress = z.infer<typeof ImportProgress>;

/** The body types an import's zip may be sent as (browsers name a .zip differently). */
export const IMPORT_CONTENT_TYPES: ReadonlyArray<string> = [
  'application/zip',
  'application/x-zip-compressed',
  'application/octet-stream',
];

/** Public routes (portability service). The import body is the zip itself (`application/zip`). */
export const portabilityContract = defineContract({
  startExport: {
    method: 'POST',
    path: '/api/account/export',
    responses: { 202: TransferStarted, 401: ErrorBody, 429: ErrorBody },
  },
  exportStatus: {
    method: 'GET',
    path: '/api/account/export/:id',
    params: TransferIdParams,
    responses: { 200: ExportProgress, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  },
  download: {
    method: 'GET',
    path: '/api/account/export/:id/download',
    params: TransferIdParams,
    responses: {
      200: z.null(),
      400: ErrorBody,
      401: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
      410: ErrorBody,
    },
    summary: 'The zip, once: it is deleted after this download (or 24 hours after it was made).',
  },
  startImport: {
    method: 'POST',
    path: '/api/account/import',
    responses: { 202: TransferStarted, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  },
  importStatus: {
    method: 'GET',
    path: '/api/account/import/:id',
    params: TransferIdParams,
    responses: { 200: ImportProgress, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  },
  importReport: {
    method: 'GET',
    path: '/api/account/import/:id/report',
    params: TransferIdParams,
    responses: { 200: z.null(), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
    summary: 'The import report as CSV: file, outcome, line, reason (once the import has ended).',
  },
});

// ---- what each service gives and takes ----

/** A thought as exported: every field the user owns, the audio as base64 when it has some. */
export const ExportedThought = Thought.extend({
  audio: z.object({ mimeType: z.string(), data: z.string() }).nullable(),
});
export type ExportedThought = z.infer<typeof ExportedThought>;

export const PageQuery = z.object({
  after: queryInt(0, 2_147_483_647).default(0),
  limit: queryInt(1, 500).default(200),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const ThoughtPage = z.object({ thoughts: z.array(ExportedThought), next: Id.nullable() });
export type ThoughtPage = z.infer<typeof ThoughtPage>;

/**
 * A thought to import: the exported shape without the server's id, plus the import's own key for it
 * (a retried batch writes nothing twice) and the note's title (part of what makes it a duplicate).
 */
export const ImportedThought = z.object({
  /** Unique per item of one import: the same key twice is one thought. */
  key: z.string().regex(/^[\w-]{8,64}$/),
  content: z.string().min(1).max(MAX_CONTENT_LENGTH),
  title: z.string().max(1000).nullable().default(null),
  date: IsoDateTime,
  localDate: LocalDate,
  /** The writer's offset when known (a Haven export carries it); see Thought.timezoneOffset. */
  timezoneOffset: TimezoneOffset.nullable().optional(),
  category: StoredCategory,
  tags: z.array(z.string().min(1).max(MAX_TAG_LENGTH)).max(MAX_TAGS),
  isVoice: z.boolean(),
  format: ThoughtFormat.default('text'),
  audio: z
    .object({ mimeType: z.string().max(100), data: z.string().max(MAX_AUDIO_BASE64_CHARS) })
    .nullable()
    .optional(),
});
export type ImportedThought = z.infer<typeof ImportedThought>;

export const ImportBatch = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item).max(500) });

/** What became of each item of a batch, in order: written (now or by an earlier try) or already there. */
export const ImportResults = z.object({ results: z.array(z.enum(['imported', 'duplicate'])) });
export type ImportResults = z.infer<typeof ImportResults>;

export const ExportedConversation = Conversation.pick({
  id: true,
  title: true,
  createdAt: true,
  updatedAt: true,
}).extend({
  messages: z.array(Message.pick({ type: true, content: true, createdAt: true })),
});
export type ExportedConversation = z.infer<typeof ExportedConversation>;

export const ConversationPage = z.object({
  conversations: z.array(ExportedConversation),
  next: Id.nullable(),
});
export type ConversationPage = z.infer<typeof ConversationPage>;

export const ImportedConversation = z.object({
  title: z.string().max(200),
  /** With the title, what makes it the same conversation as one the user has. */
  createdAt: IsoDateTime,
  messages: z
    .array(z.object({ type: MessageType, content: z.string().max(10_000), createdAt: IsoDateTime }))
    .max(5000),
});
export type ImportedConversation = z.infer<typeof ImportedConversation>;

/** A conversation as an import sends it: with the import's key for it (see ImportedThought.key). */
export const ImportedConversationItem = ImportedConversation.extend({ key: ImportedThought.shape.key });
export type ImportedConversationItem = z.infer<typeof ImportedConversationItem>;

export const ExportedIntegration = z.object({
  provider: Provider,
  type: IntegrationType,
  settings: IntegrationSettings.omit({ error: true }),
  contextualRules: z.string().nullable(),
  createdAt: IsoDateTime,
});
export type ExportedIntegration = z.infer<typeof ExportedIntegration>;

/** The internal routes the portability service calls to export and import (one service, one part). */
export const thoughtsPortabilityContract = defineContract({
  exportThoughts: {
    method: 'GET',
    path: '/internal/export/thoughts',
    query: PageQuery,
    responses: { 200: ThoughtPage },
    callers: ['portability'],
    summary: 'The next page of the user’s thoughts by id, with audio.',
  },
  importThoughts: {
    method: 'POST',
    path: '/internal/import/thoughts',
    body: ImportBatch(ImportedThought),
    responses: { 200: ImportResults },
    callers: ['portability'],
    summary:
      'Adds thoughts, skipping any with the same text, time and title as one the user has; a key already written answers imported.',
  },
});

export const insightsPortabilityContract = defineContract({
  exportInsights: {
    method: 'GET',
    path: '/internal/export/insights',
    responses: { 200: z.array(Insight) },
    callers: ['portability'],
  },
});

export const assistantPortabilityContract = defineContract({
  exportConversations: {
    method: 'GET',
    path: '/internal/export/conversations',
    query: PageQuery,
    responses: { 200: ConversationPage },
    callers: ['portability'],
  },
  importConversations: {
    method: 'POST',
    path: '/internal/import/conversations',
    body: ImportBatch(ImportedConversationItem),
    responses: { 200: ImportResults },
    callers: ['portability'],
    summary: 'Adds conversations with their messages, skipping one with the same title and start.',
  },
});

export const integrationsPortabilityContract = defineContract({
  exportIntegrations: {
    method: 'GET',
    path: '/internal/export/integrations',
    responses: { 200: z.array(ExportedIntegration) },
    callers: ['portability'],
    summary: 'Provider, type, settings and rules: never tokens.',
  },
});
