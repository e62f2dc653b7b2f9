/** What a reply is asked with, what it may read, and what it answers (reply.ts writes it). */
import type { CalendarAnswer } from '@haven/contracts/calendar';
import type { InternalInsightAnswer } from '@haven/contracts/internal';
import type { EmailDigest, WaitingAnswer } from '@haven/contracts/mail';
import type { Thought } from '@haven/contracts/thoughts';
import type { Connections, NotionAnswer, SlackAnswer } from '@haven/contracts/workspace';
import type { SearchThoughts } from './find-entries';

/** What a reply may read, for one user, through other services' internal APIs. */
export interface ReplySources {
  /** GET /internal/thoughts/search: by words or phrase, within a period, best first. */
  search: SearchThoughts;
  range(userId: number, start: string, end: string): Promise<Thought[]>;
  includeThoughtContent(userId: number): Promise<boolean>;
  /** The user's e-mail digest, from the integrations service's cache (`connected: false` when none). */
  digest(userId: number, timezoneOffset: number): Promise<EmailDigest>;
  /** Threads where the user asked something and has waited the setting's days for an answer. */
  waiting(userId: number): Promise<WaitingAnswer>;
  /** Calendar invitations awaiting the user's answer. */
  invitations(userId: number): Promise<CalendarAnswer>;
  /** Which kinds of account are connected (a provider's tools are offered only then). */
  connections(userId: number): Promise<Connections>;
  /** Recent Slack mentions and direct messages, with whether the user answered. */
  slackMentions(userId: number): Promise<SlackAnswer>;
  /** Notion pages matching `q`, with a short excerpt. */
  notionSearch(userId: number, q: string): Promise<NotionAnswer>;
  /** The insight of the week starting on `weekStart` (queued for generation when none is current). */
  weeklyInsight(userId: number, weekStart: string): Promise<InternalInsightAnswer>;
  /** Those of `addresses` the user has written to from a connected mail account. */
  knownContacts(userId: number, addresses: string[]): Promise<string[]>;
}

export interface ReplyInput {
  userId: number;
  question: string;
  /** The conversation so far, oldest first, ending with the question. */
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
  /** The browser's getTimezoneOffset() when the question was asked. */
  timezoneOffset: number;
  /** When the question is asked (an evaluation fixes it); now when absent. */
  at?: Date;
}

export interface ReplyOutput {
  content: string;
  metadata: Record<string, unknown>;
  used: { email?: boolean; calendar?: boolean };
}
