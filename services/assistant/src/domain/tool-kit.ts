import { z } from 'zod';
import { EventMoment } from '@haven/contracts/calendar';
import type { Connections } from '@haven/contracts/workspace';
import type { FoundEntry } from './find-entries';
import type { SeenItem } from './proposals';
import type { ReplyInput, ReplySources } from './reply-types';
import type { ToolSource } from './tool-results';

/*
 * What every tool of a reply is made of (see reply-tools.ts, which lists them by name): its
 * description, what it reads, when it is offered, its zod parameters and its runner, and what a
 * runner may use while it runs.
 */

export const DraftArgs = z.object({
  to: z.string().max(500).optional(),
  subject: z.string().min(1).max(300),
  body: z.string().min(1).max(10_000),
});
export const EventArgs = z.object({
  title: z.string().min(1).max(300),
  start: EventMoment,
  end: EventMoment,
  location: z.string().max(300).optional(),
});
export type DraftArgs = z.infer<typeof DraftArgs>;
export type EventArgs = z.infer<typeof EventArgs>;

/** What decides whether a tool is offered in a reply. */
export interface Offer {
  /** The user lets the model read their thoughts. */
  thoughts: boolean;
  /** Which kinds of account are connected (null: the integrations service did not answer). */
  connected: Connections | null;
}

/** What a tool's runner may use: the reply's sources and input, and the runner's records. */
export interface ToolContext {
  sources: ReplySources;
  input: ReplyInput;
  /** Wraps a reading tool's items (see `envelope`) and keeps what they say. */
  read<T extends { id: string | number }>(
    items: T[],
    seenOf: (item: T) => Omit<SeenItem, 'source'>,
    extra?: Record<string, unknown>,
  ): string;
  /** The answer of a tool whose account is not connected. */
  notConnected(): string;
  /** Entries the reply cites: their chip numbers (#n), in order. */
  cite(entries: FoundEntry[]): number[];
  drafts: DraftArgs[];
  events: EventArgs[];
  /** The 'Calendar integration used' badge: a connected calendar was read. */
  calendarRead(): void;
}

/** One tool; its name is the key it is listed under (see `TOOLS`). */
export interface Tool<A extends z.ZodType = z.ZodType> {
  description: string;
  /** What it reads; none for tools that only propose. */
  source?: ToolSource;
  /** Whether it is offered (always when absent). */
  offered?: (offer: Offer) => boolean;
  parameters: A;
  run(args: z.infer<A>, ctx: ToolContext): Promise<string>;
}

/** A tool, its runner's arguments typed by its parameters. */
export const tool = <A extends z.ZodType>(t: Tool<A>): Tool => t as unknown as Tool;
