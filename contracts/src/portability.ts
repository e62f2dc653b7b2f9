import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import { Id, IsoDateTime, LocalDate, StoredCategory, queryInt } from './common';
import { Conversation, Message, MessageType } from './assistant';
import { Insight } from './insights';
import { IntegrationSettings, IntegrationType, Provider } from './integrations';
import { Thought } from './thoughts';

/* Your data is yours: export, import (auth orchestrates; each service gives and takes its part). */

/** Limits of an import, said in the messages when they are passed. */
export const IMPORT_LIMITS = {
  /** The gateway's body limit. */
  bytes: 15 * 1024 * 1024,
  files: 20_000,
  /** One note file (Markdown or text). */
  fileBytes: 1024 * 1024,
} as const;

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

/** A problem with one file of an import, named by file (and line when it has one). */
export const ImportError = z.object({
  file: z.string(),
  line: z.number().int().positive().optional(),
  message: z.string(),
});
export type ImportError = z.infer<typeof ImportError>;

export const ImportProgress = z.object({
  status: TransferStatus,
  progress: z.number().int().min(0).max(100),
  imported: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  errors: z.array(ImportError),
});
export type ImportProgress = z.infer<typeof ImportProgress>;

/** Public routes (auth service). The import body is the zip itself (`application/zip`). */
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

/** A thought to import: the same shape, without the server's id. */
export const ImportedThought = z.object({
  content: z.string().max(10_000),
  date: IsoDateTime,
  localDate: LocalDate,
  category: StoredCategory,
  tags: z.array(z.string().max(100)).max(50),
  isVoice: z.boolean(),
  audio: z
    .object({ mimeType: z.string().max(100), data: z.string() })
    .nullable()
    .optional(),
});
export type ImportedThought = z.infer<typeof ImportedThought>;

export const ImportBatch = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item).max(500) });
export const ImportCounts = z.object({ imported: z.number().int(), skipped: z.number().int() });
export type ImportCounts = z.infer<typeof ImportCounts>;

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
  createdAt: IsoDateTime,
  messages: z
    .array(z.object({ type: MessageType, content: z.string().max(10_000), createdAt: IsoDateTime }))
    .max(5000),
});
export type ImportedConversation = z.infer<typeof ImportedConversation>;

export const ExportedIntegration = z.object({
  provider: Provider,
  type: IntegrationType,
  settings: IntegrationSettings.omit({ error: true }),
  contextualRules: z.string().nullable(),
  createdAt: IsoDateTime,
});
export type ExportedIntegration = z.infer<typeof ExportedIntegration>;

/** The internal routes auth calls to export and import (one service, one part). */
export const thoughtsPortabilityContract = defineContract({
  exportThoughts: {
    method: 'GET',
    path: '/internal/export/thoughts',
    query: PageQuery,
    responses: { 200: ThoughtPage },
    callers: ['auth'],
    summary: 'The next page of the user’s thoughts by id, with audio.',
  },
  importThoughts: {
    method: 'POST',
    path: '/internal/import/thoughts',
    body: ImportBatch(ImportedThought),
    responses: { 200: ImportCounts },
    callers: ['auth'],
    summary: 'Adds thoughts, skipping any with the same content and time as one the user has.',
  },
});

export const insightsPortabilityContract = defineContract({
  exportInsights: {
    method: 'GET',
    path: '/internal/export/insights',
    responses: { 200: z.array(Insight) },
    callers: ['auth'],
  },
});

export const assistantPortabilityContract = defineContract({
  exportConversations: {
    method: 'GET',
    path: '/internal/export/conversations',
    query: PageQuery,
    responses: { 200: ConversationPage },
    callers: ['auth'],
  },
  importConversations: {
    method: 'POST',
    path: '/internal/import/conversations',
    body: ImportBatch(ImportedConversation),
    responses: { 200: ImportCounts },
    callers: ['auth'],
    summary: 'Adds conversations with their messages, skipping one with the same title and start.',
  },
});

export const integrationsPortabilityContract = defineContract({
  exportIntegrations: {
    method: 'GET',
    path: '/internal/export/integrations',
    responses: { 200: z.array(ExportedIntegration) },
    callers: ['auth'],
    summary: 'Provider, type, settings and rules: never tokens.',
  },
});
