import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import { IsoDateTime } from './common';

/* Slack (team messaging) and Notion (documents): what the Assist screen and the assistant read. */

/** A Slack message that mentions the user or was sent to them directly. */
export const SlackItem = z.object({
  id: z.string(),
  kind: z.enum(['mention', 'dm']),
  /** `#channel` for a mention, the sender's name for a direct message. */
  channel: z.string(),
  from: z.string(),
  text: z.string(),
  at: IsoDateTime,
  permalink: z.string().optional(),
  /** The user has not answered after it. */
  needsReply: z.boolean(),
});
export type SlackItem = z.infer<typeof SlackItem>;

/** A Notion page the integration can see. */
export const NotionPage = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  lastEdited: IsoDateTime,
  /** The first lines of its text (search results only). */
  excerpt: z.string().optional(),
});
export type NotionPage = z.infer<typeof NotionPage>;

export const SlackAnswer = z.object({ connected: z.boolean(), items: z.array(SlackItem) });
export type SlackAnswer = z.infer<typeof SlackAnswer>;
export const NotionAnswer = z.object({ connected: z.boolean(), pages: z.array(NotionPage) });
export type NotionAnswer = z.infer<typeof NotionAnswer>;

/** Whether this server has the provider's client id and secret: the panel offers no Connect otherwise. */
const Configured = { configured: z.boolean().default(true) };

/** GET /api/assist/more: the 'More Integrations' panel. */
export const MoreAnswer = z.object({
  slack: SlackAnswer.extend(Configured),
  notion: NotionAnswer.extend(Configured),
});
export type MoreAnswer = z.infer<typeof MoreAnswer>;

/** GET /api/notion/pages?q=: pages to choose where 'Save to Notion' writes. */
export const NotionSearchQuery = z.object({ q: z.string().trim().max(200).optional() });
export type NotionSearchQuery = z.infer<typeof NotionSearchQuery>;

/** POST /api/notion/pages: an insight or a conversation saved as a page. */
export const NotionPageDraft = z.object({
  title: z
    .string()
    .trim()
    .min(1, { error: 'Please enter a title for the page' })
    .max(200, { error: 'Title must be at most 200 characters' }),
  content: z
    .string()
    .trim()
    .min(1, { error: 'There is nothing to save' })
    .max(100_000, { error: 'Content must be at most 100000 characters' }),
});
export type NotionPageDraft = z.infer<typeof NotionPageDraft>;

export const CreatedPage = z.object({ id: z.string(), url: z.string() });
export type CreatedPage = z.infer<typeof CreatedPage>;

/**
 * Routes of the integrations service for Slack and Notion. 409: not connected (or, for saving, no
 * page chosen yet); 502: the provider failed.
 */
export const workspaceContract = defineContract({
  more: {
    method: 'GET',
    path: '/api/assist/more',
    responses: { 200: MoreAnswer, 401: ErrorBody },
    summary: 'Slack messages waiting for a reply and recent Notion pages, from the synced cache.',
  },
  notionPages: {
    method: 'GET',
    path: '/api/notion/pages',
    query: NotionSearchQuery,
    responses: { 200: NotionAnswer, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 502: ErrorBody },
    summary: 'Pages the Notion integration can see, best matches first (to pick where pages are saved).',
  },
  saveToNotion: {
    method: 'POST',
    path: '/api/notion/pages',
    body: NotionPageDraft,
    responses: { 201: CreatedPage, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 502: ErrorBody },
    summary: "Creates a page under the page chosen in the Notion integration's settings.",
  },
});

/** GET /internal/notion/search?q=. */
export const NotionToolQuery = z.object({ q: z.string().trim().min(1).max(200) });
export type NotionToolQuery = z.infer<typeof NotionToolQuery>;

/** Which accounts are connected (the assistant offers a provider's tools only then). */
export const Connections = z.object({
  email: z.boolean(),
  calendar: z.boolean(),
  messages: z.boolean(),
  documents: z.boolean(),
});
export type Connections = z.infer<typeof Connections>;
