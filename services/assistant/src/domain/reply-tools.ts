import { z } from 'zod';
import { EventMoment } from '@haven/contracts/calendar';
import { linksIn } from '@haven/contracts/link-policy';
import type { Connections } from '@haven/contracts/workspace';
import type { ToolSpec } from '@haven/kit/llm';
import { contentWords, findEntries, type FoundEntry } from './find-entries';
import type { SeenItem } from './proposals';
import type { ReplyInput, ReplySources } from './reply-types';
import { envelope, type ToolSource } from './tool-results';

/*
 * The tools a model may call in a reply, each written once in TOOLS: its name, description, what it
 * reads (its source), when it is offered, its zod parameters and its runner. The specs the model is
 * offered, the sources and the dispatch all come from that one list. The runner of one reply runs
 * them for one user and keeps what they read (to judge the reply's proposals and links against),
 * what they proposed and the entries they cited. Reading tools answer in the untrusted-data
 * envelope (see tool-results.ts).
 */

const SearchArgs = z.object({
  query: z.string().min(1).max(200),
  limit: z.number().int().min(1).max(30).optional(),
  start: z.iso.date().optional(),
  end: z.iso.date().optional(),
});
const DayArgs = z.object({ start: z.iso.date(), end: z.iso.date().optional() });
const NoArgs = z.object({});
const NotionArgs = z.object({ query: z.string().trim().min(1).max(200) });
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

/** The tool's answer when the question did not need what it reads (see `aiReply`). */
export const NOT_NEEDED = JSON.stringify({
  source: 'haven',
  status: "Not run: the user's question does not ask for this.",
});
const addressOf = (fromFull: string) =>
  (/<([^>]+)>/.exec(fromFull)?.[1] ?? (fromFull.includes('@') ? fromFull : '')).trim().toLowerCase();
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

export interface Tool<A extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /** What it reads; none for tools that only propose. */
  source?: ToolSource;
  /** Whether it is offered (always when absent). */
  offered?: (offer: Offer) => boolean;
  parameters: A;
  run(args: z.infer<A>, ctx: ToolContext): Promise<string>;
}

/** A tool, its runner's arguments typed by its parameters. */
const tool = <A extends z.ZodType>(t: Tool<A>): Tool => t as unknown as Tool;

/** Found entries as a tool gives them: id, citation, day, and a short excerpt as `content`. */
const entryItems = (entries: FoundEntry[], numbers: number[]) =>
  entries.map((e, i) => ({
    id: e.thought.id,
    cite: `#${numbers[i]}`,
    date: e.thought.localDate,
    category: e.thought.category,
    tags: e.thought.tags,
    content: e.excerpt,
  }));

export const TOOLS: readonly Tool[] = [
  tool({
    name: 'search_thoughts',
    description:
      "Searches the user's journal thoughts by words (content or tags), optionally within a period of the user's days (start, end: yyyy-MM-dd). Answers the best-ranked entries, each with its day, a short excerpt and a citation (#n) to write in the answer.",
    source: 'thoughts',
    offered: (o) => o.thoughts,
    parameters: SearchArgs,
    async run(a, ctx) {
      const range = a.start ? { start: a.start, end: a.end ?? a.start } : null;
      const words = contentWords(a.query);
      const found = await findEntries(
        ctx.sources.search,
        ctx.input.userId,
        words.length ? words : a.query.split(/\s+/).slice(0, 6),
        range,
        { max: a.limit ?? 20 },
      );
      const numbers = ctx.cite(found);
      return ctx.read(entryItems(found, numbers), (t) => ({
        text: found.find((e) => e.thought.id === t.id)!.thought.content,
      }));
    },
  }),
  tool({
    name: 'thoughts_on',
    description:
      "The user's thoughts of one day, or of a range of days (yyyy-MM-dd, the user's days), oldest first, each with a citation (#n) to write in the answer.",
    source: 'thoughts',
    offered: (o) => o.thoughts,
    parameters: DayArgs,
    async run(a, ctx) {
      const found = await ctx.sources.range(ctx.input.userId, a.start, a.end ?? a.start);
      const entries = found.map((thought) => ({ thought, excerpt: thought.content, score: 1 }));
      const numbers = ctx.cite(entries);
      return ctx.read(entryItems(entries, numbers), (t) => ({ text: t.content }));
    },
  }),
  tool({
    name: 'email_digest',
    description:
      "The user's recent inbox from their connected mail account: sender, subject, snippet, date, whether it is new and whether it seems to need a reply. Read-only.",
    source: 'gmail',
    parameters: NoArgs,
    async run(_, ctx) {
      const digest = await ctx.sources.digest(ctx.input.userId, ctx.input.timezoneOffset);
      if (!digest.connected) return ctx.notConnected();
      const emails = digest.emails.map(
        ({ id, from, fromFull, subject, snippet, date, isNew, needsReply }) => ({
          id,
          from: fromFull || from,
          subject,
          snippet,
          date,
          isNew,
          needsReply,
        }),
      );
      return ctx.read(
        emails,
        (e) => ({ text: `${e.subject}\n${e.snippet}`, from: { address: addressOf(e.from), name: e.from } }),
        { connected: true, stats: digest.stats },
      );
    },
  }),
  tool({
    name: 'list_waiting_for_answer',
    description:
      "Threads where the user wrote last, asked something, and has had no answer for their setting's number of days (default 3): whom they wrote to, the subject and how many days ago, longest waiting first, at most 20. Read-only; the e-mail digest offers a nudge for each.",
    source: 'gmail',
    parameters: NoArgs,
    async run(_, ctx) {
      const answer = await ctx.sources.waiting(ctx.input.userId);
      if (!answer.connected) return ctx.notConnected();
      const threads = answer.threads.slice(0, 20).map(({ threadId, to, subject, since, days }) => ({
        id: threadId,
        waitingFor: to,
        subject,
        lastWrote: since,
        days,
      }));
      // The user's own mail: the names and subjects are what they wrote to.
      return ctx.read(threads, (t) => ({ text: `${t.waitingFor}\n${t.subject}` }), {
        connected: true,
        afterDays: answer.days,
      });
    },
  }),
  tool({
    name: 'calendar_invitations',
    description:
      'Upcoming calendar invitations the user has not answered yet, from their connected calendar. Read-only.',
    source: 'calendar',
    parameters: NoArgs,
    async run(_, ctx) {
      const answer = await ctx.sources.invitations(ctx.input.userId);
      if (!answer.connected) return ctx.notConnected();
      ctx.calendarRead();
      const invitations = answer.events.map((e) => ({
        id: e.id,
        title: e.summary,
        when: e.start.dateTime ?? e.start.date,
        location: e.location ?? undefined,
        organizer: e.organizer?.email
          ? `${e.organizer.displayName ?? ''} <${e.organizer.email}>`.trim()
          : e.organizer?.displayName,
      }));
      return ctx.read(
        invitations,
        (e) => ({
          text: `${e.title}\n${e.location ?? ''}`,
          from: e.organizer ? { address: addressOf(e.organizer), name: e.organizer } : undefined,
        }),
        { connected: true },
      );
    },
  }),
  tool({
    name: 'slack_mentions',
    description:
      "Recent Slack messages that mention the user or were sent to them directly, with whether they still need the user's reply. Read-only.",
    source: 'slack',
    offered: (o) => Boolean(o.connected?.messages),
    parameters: NoArgs,
    async run(_, ctx) {
      const answer = await ctx.sources.slackMentions(ctx.input.userId);
      if (!answer.connected) return ctx.notConnected();
      const messages = answer.items.map(({ id, kind, channel, from, text, at, needsReply }) => ({
        id,
        kind,
        channel,
        from,
        text,
        at,
        needsReply,
      }));
      return ctx.read(messages, (m) => ({ text: `${m.from}\n${m.text}` }), { connected: true });
    },
  }),
  tool({
    name: 'search_notion',
    description:
      "Searches the user's Notion pages by text: titles, links and a short excerpt of the best matches. Read-only.",
    source: 'notion',
    offered: (o) => Boolean(o.connected?.documents),
    parameters: NotionArgs,
    async run(a, ctx) {
      const answer = await ctx.sources.notionSearch(ctx.input.userId, a.query);
      if (!answer.connected) return ctx.notConnected();
      return ctx.read(answer.pages, (p) => ({ text: `${p.title}\n${p.url}\n${p.excerpt ?? ''}` }), {
        connected: true,
      });
    },
  }),
  tool({
    name: 'draft_email',
    description: 'Prepares an e-mail draft for the user to review and send themselves. It sends nothing.',
    parameters: DraftArgs,
    async run(a, ctx) {
      ctx.drafts.push(a);
      return JSON.stringify({
        source: 'haven',
        status: 'Draft ready for the user to review. Nothing was sent.',
      });
    },
  }),
  tool({
    name: 'propose_event',
    description: 'Proposes a calendar event for the user to review and add themselves. It creates nothing.',
    parameters: EventArgs,
    async run(a, ctx) {
      ctx.events.push(a);
      return JSON.stringify({
        source: 'haven',
        status: 'Event proposed for the user to review. Nothing was created.',
      });
    },
  }),
];

const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

/** The specs of the tools offered in a reply, in TOOLS' order. */
export const offeredTools = (offer: Offer): ToolSpec[] =>
  TOOLS.filter((t) => t.offered?.(offer) ?? true).map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));

/** What a tool reads (undefined for proposing tools and unknown names). */
export const sourceOf = (name: string): ToolSource | undefined => BY_NAME.get(name)?.source;

/** Runs the tools of one reply and keeps what they read, proposed and cited. */
export function createToolRunner(sources: ReplySources, input: ReplyInput) {
  const used = new Set<string>();
  let calendarRead = false;
  const drafts: DraftArgs[] = [];
  const events: EventArgs[] = [];
  /** What the tools read, to judge the proposals against. */
  const seen: SeenItem[] = [];
  const seenLinks = new Set<string>();
  /** The thoughts the tools handed to the model, in order: chip #n is references[n - 1]. */
  const references: number[] = [];

  async function run(name: string, args: unknown): Promise<string> {
    used.add(name);
    const found = BY_NAME.get(name);
    if (!found) return JSON.stringify({ source: 'haven', error: `No tool named ${name}` });
    const source = found.source;
    const ctx: ToolContext = {
      sources,
      input,
      read(items, seenOf, extra) {
        const wrapped = envelope(name, source!, items, extra);
        for (const item of wrapped.items) {
          const kept = { source: source!, ...seenOf(item) };
          seen.push(kept);
          for (const link of linksIn(kept.text)) seenLinks.add(link);
        }
        return wrapped.text;
      },
      notConnected: () => JSON.stringify({ source, tool: name, connected: false }),
      cite(entries) {
        return entries.map((e) => {
          const at = references.indexOf(e.thought.id);
          if (at >= 0) return at + 1;
          references.push(e.thought.id);
          return references.length;
        });
      },
      drafts,
      events,
      calendarRead: () => {
        calendarRead = true;
      },
    };
    return found.run(found.parameters.parse(args), ctx);
  }

  return {
    run,
    /** The tools that ran. */
    used,
    /** What the reading tools read, and the links in it. */
    seen,
    seenLinks,
    drafts,
    events,
    references,
    /** The 'Calendar integration used' badge: a connected calendar was read (a proposed event is not). */
    calendarRead: () => calendarRead,
  };
}
