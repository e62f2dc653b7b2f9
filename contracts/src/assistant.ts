import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import {
  AudioData,
  CacheBuster,
  Id,
  IdParams,
  IdValue,
  IsoDateTime,
  LocalDate,
  noNul,
  Ok,
  TimezoneOffset,
  queryInt,
  userText,
} from './common';

/** Title used when none (or a blank one) is given. */
export const DEFAULT_CONVERSATION_TITLE = 'New Conversation';

/** A saved conversation with the assistant. */
export const Conversation = z.object({
  id: Id,
  title: z.string(),
  createdAt: IsoDateTime,
  /** Moves forward with every message, so lists sort by it (newest first). */
  updatedAt: IsoDateTime,
  /** The card's badge: e-mail words in the title or latest three messages, or a reply that used the mail tools. */
  emailUsed: z.boolean(),
  /** The card's badge: a reply read the user's connected calendar. */
  calendarUsed: z.boolean(),
});
export type Conversation = z.infer<typeof Conversation>;

/**
 * POST /api/conversations. The capture dialog also posts its chat-type entry here with the thought
 * payload fields; when `content` is present the service stores it as the first user message (and
 * the assistant is asked to reply), so the SPA can go straight to `/conversations/{id}`.
 */
export const CreateConversationBody = z.object({
  title: noNul(z.string().trim().max(200, { error: 'Title must be at most 200 characters' }))
    .optional()
    .transform((t) => (t ? t : DEFAULT_CONVERSATION_TITLE)),
  content: userText('Message cannot be empty').optional(),
  isVoice: z.boolean().optional(),
  audioData: AudioData.nullish(),
  clientDate: IsoDateTime.optional(),
  timezoneOffset: TimezoneOffset.optional(),
});
export type CreateConversationBody = z.infer<typeof CreateConversationBody>;

/** Who wrote a message. */
export const MessageType = z.enum(['user', 'assistant']);
export type MessageType = z.infer<typeof MessageType>;

/** One message of a conversation. */
export const Message = z.object({
  id: Id,
  conversationId: Id,
  type: MessageType,
  content: z.string(),
  createdAt: IsoDateTime,
  /** Free-form details, e.g. which tools (email, calendar) the assistant used for this reply. */
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type Message = z.infer<typeof Message>;

/**
 * POST /api/conversations/:id/messages: users only ever post their own messages. A voice message may
 * come without text when the browser recognised none: the server transcribes its audio when it can.
 */
export const CreateMessageBody = z
  .object({
    content: noNul(z.string().trim().max(10_000, { error: 'Text must be at most 10000 characters' })),
    type: z.literal('user'),
    audioData: AudioData.nullish(),
    /** The browser's `getTimezoneOffset()`, so "today" and "yesterday" mean the user's days. */
    timezoneOffset: TimezoneOffset.optional(),
  })
  .refine((m) => m.content.length > 0 || !!m.audioData, {
    error: 'Message cannot be empty',
    path: ['content'],
  });
export type CreateMessageBody = z.infer<typeof CreateMessageBody>;

/** GET /api/conversations/:id/messages?limit=: without a limit all messages; with one, the latest `limit`. Oldest first either way. */
export const MessagesQuery = z.object({
  limit: queryInt(1, 200).optional(),
  t: CacheBuster,
});
export type MessagesQuery = z.infer<typeof MessagesQuery>;

/** POST /api/assistant/query: ask for a reply to the latest user message of a conversation. */
export const AssistantQueryBody = z.object({
  query: userText('Query cannot be empty'),
  conversationId: IdValue,
  timezoneOffset: TimezoneOffset.optional(),
});
export type AssistantQueryBody = z.infer<typeof AssistantQueryBody>;

/** 202 answer: the reply will arrive as an assistant message (poll the messages). */
export const AssistantQueryAnswer = z.object({ status: z.literal('accepted') });
export type AssistantQueryAnswer = z.infer<typeof AssistantQueryAnswer>;

/**
 * POST /api/assistant/weekly-review: opens the review of the week (Monday to Sunday) containing
 * `date`, a conversation in which the assistant walks through the weekly insight (its citations, the
 * mood line, open suggestions) and next week's invitations. One review per week: asking again
 * answers the same conversation.
 */
export const WeeklyReviewBody = z.object({
  date: LocalDate,
  timezoneOffset: TimezoneOffset.optional(),
});
export type WeeklyReviewBody = z.infer<typeof WeeklyReviewBody>;

/** Public routes of the assistant service. Another user's conversation id answers 404. */
export const assistantContract = defineContract({
  list: {
    method: 'GET',
    path: '/api/conversations',
    responses: { 200: z.array(Conversation), 401: ErrorBody },
    summary: 'The user conversations, most recently updated first.',
  },
  create: {
    method: 'POST',
    path: '/api/conversations',
    body: CreateConversationBody,
    responses: { 201: Conversation, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 429: ErrorBody },
  },
  get: {
    method: 'GET',
    path: '/api/conversations/:id',
    params: IdParams,
    responses: { 200: Conversation, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  },
  remove: {
    method: 'DELETE',
    path: '/api/conversations/:id',
    params: IdParams,
    responses: { 200: Ok, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
    summary: 'Deletes the conversation and its messages.',
  },
  listMessages: {
    method: 'GET',
    path: '/api/conversations/:id/messages',
    params: IdParams,
    query: MessagesQuery,
    responses: { 200: z.array(Message), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  },
  createMessage: {
    method: 'POST',
    path: '/api/conversations/:id/messages',
    params: IdParams,
    body: CreateMessageBody,
    responses: {
      201: Message,
      400: ErrorBody,
      401: ErrorBody,
      404: ErrorBody,
      413: ErrorBody,
      429: ErrorBody,
    },
  },
  query: {
    method: 'POST',
    path: '/api/assistant/query',
    body: AssistantQueryBody,
    responses: { 202: AssistantQueryAnswer, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
    summary:
      'Queues assistant.reply for the latest user message (idempotent: asking twice for the same message is one job).',
  },
  weeklyReview: {
    method: 'POST',
    path: '/api/assistant/weekly-review',
    body: WeeklyReviewBody,
    responses: { 200: Conversation, 201: Conversation, 400: ErrorBody, 401: ErrorBody },
    summary:
      'Opens the review of the week containing `date` (201), or answers the one already opened (200); ' +
      'the assistant writes its walk-through as the first reply.',
  },
});
