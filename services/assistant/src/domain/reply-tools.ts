import { z } from 'zod';
import { EventMoment } from '@haven/contracts/calendar';
import { linksIn } from '@haven/contracts/link-policy';
import type { Thought } from '@haven/contracts/thoughts';
import type { ToolSpec } from '@haven/kit/llm';
import type { SeenItem } from './proposals';
import type { ReplyInput, ReplySources } from './reply';
import { envelope, type ToolSource } from './tool-results';

/*
 * The tools a model may call in a reply: their specs and arguments, and the runner that executes
 * them for one user and keeps what they read (to judge the reply's proposals and links against) and
 * what they proposed. Reading tools answer in the untrusted-data envelope (see tool-results.ts).
 */

const SearchArgs = z.object({
  query: z.string().min(1).max(200),
  limit: z.number().int().min(1).max(20).optional(),
});
const DayArgs = z.object({ start: z.iso.date(), end: z.iso.date().optional() });
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

export const THOUGHT_TOOLS: ToolSpec[] = [
  {
    name: 'search_thoughts',
    description: "Searches the user's journal thoughts by words (content or tags).",
    parameters: SearchArgs,
  },
  {
    name: 'thoughts_on',
    description: "The user's thoughts of one day, or of a range of days (yyyy-MM-dd, the user's days).",
    parameters: DayArgs,
  },
];
const NoArgs = z.object({});
export const ACCOUNT_TOOLS: ToolSpec[] = [
  {
    name: 'email_digest',
    description:
      "The user's recent inbox from their connected mail account: sender, subject, snippet, date, whether it is new and whether it seems to need a reply. Read-only.",
    parameters: NoArgs,
  },
  {
    name: 'list_waiting_for_answer',
    description:
      "Threads where the user wrote last, asked something, and has had no answer for their setting's number of days (default 3): whom they wrote to, the subject and how many days ago, longest waiting first, at most 20. Read-only; the e-mail digest offers a nudge for each.",
    parameters: NoArgs,
  },
  {
    name: 'calendar_invitations',
    description:
      'Upcoming calendar invitations the user has not answered yet, from their connected calendar. Read-only.',
    parameters: NoArgs,
  },
];
const NotionArgs = z.object({ query: z.string().trim().min(1).max(200) });
export const SLACK_TOOL: ToolSpec = {
  name: 'slack_mentions',
  description:
    "Recent Slack messages that mention the user or were sent to them directly, with whether they still need the user's reply. Read-only.",
  parameters: NoArgs,
};
export const NOTION_TOOL: ToolSpec = {
  name: 'search_notion',
  description:
    "Searches the user's Notion pages by text: titles, links and a short excerpt of the best matches. Read-only.",
  parameters: NotionArgs,
};
/** Where each reading tool's data comes from. */
export const SOURCE_OF: Partial<Record<string, ToolSource>> = {
  search_thoughts: 'thoughts',
  thoughts_on: 'thoughts',
  email_digest: 'gmail',
  list_waiting_for_answer: 'gmail',
  calendar_invitations: 'calendar',
  slack_mentions: 'slack',
  search_notion: 'notion',
};
/** The tool's answer when the question did not need what it reads (see `aiReply`). */
export const NOT_NEEDED = JSON.stringify({
  source: 'haven',
  status: "Not run: the user's question does not ask for this.",
});
const addressOf = (fromFull: string) =>
  (/<([^>]+)>/.exec(fromFull)?.[1] ?? (fromFull.includes('@') ? fromFull : '')).trim().toLowerCase();
const thoughtItems = (found: Thought[]) =>
  found.map((t) => ({ id: t.id, date: t.localDate, category: t.category, tags: t.tags, content: t.content }));

export const DRAFT_TOOLS: ToolSpec[] = [
  {
    name: 'draft_email',
    description: 'Prepares an e-mail draft for the user to review and send themselves. It sends nothing.',
    parameters: DraftArgs,
  },
  {
    name: 'propose_event',
    description: 'Proposes a calendar event for the user to review and add themselves. It creates nothing.',
    parameters: EventArgs,
  },
];

export type DraftArgs = z.infer<typeof DraftArgs>;
export type EventArgs = z.infer<typeof EventArgs>;

/** Runs the tools of one reply and keeps what they read and proposed. */
export function createToolRunner(sources: ReplySources, input: ReplyInput) {
  const used = new Set<string>();
  /** The 'Calendar integration used' badge: a connected calendar was read (a proposed event is not). */
  let calendarRead = false;
  const drafts: DraftArgs[] = [];
  const events: EventArgs[] = [];

  /** What the tools read, to judge the proposals against. */
  const seen: SeenItem[] = [];
  const seenLinks = new Set<string>();
  /** Wraps a reading tool's items (see `envelope`) and keeps what they say. */
  function read<T extends { id: string | number }>(
    tool: string,
    source: ToolSource,
    items: T[],
    seenOf: (item: T) => Omit<SeenItem, 'source'>,
    extra?: Record<string, unknown>,
  ): string {
    const wrapped = envelope(tool, source, items, extra);
    for (const item of wrapped.items) {
      const kept = { source, ...seenOf(item) };
      seen.push(kept);
      for (const link of linksIn(kept.text)) seenLinks.add(link);
    }
    return wrapped.text;
  }
  const notConnected = (tool: string, source: ToolSource) =>
    JSON.stringify({ source, tool, connected: false });

  async function run(name: string, args: unknown): Promise<string> {
    used.add(name);
    switch (name) {
      case 'search_thoughts': {
        const a = SearchArgs.parse(args);
        const found = await sources.search(input.userId, a.query, a.limit ?? 10);
        return read(name, 'thoughts', thoughtItems(found), (t) => ({ text: t.content }));
      }
      case 'thoughts_on': {
        const a = DayArgs.parse(args);
        const found = await sources.range(input.userId, a.start, a.end ?? a.start);
        return read(name, 'thoughts', thoughtItems(found), (t) => ({ text: t.content }));
      }
      case 'email_digest': {
        const digest = await sources.digest(input.userId, input.timezoneOffset);
        if (!digest.connected) return notConnected(name, 'gmail');
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
        return read(
          name,
          'gmail',
          emails,
          (e) => ({ text: `${e.subject}\n${e.snippet}`, from: { address: addressOf(e.from), name: e.from } }),
          { connected: true, stats: digest.stats },
        );
      }
      case 'list_waiting_for_answer': {
        const answer = await sources.waiting(input.userId);
        if (!answer.connected) return notConnected(name, 'gmail');
        const threads = answer.threads.slice(0, 20).map(({ threadId, to, subject, since, days }) => ({
          id: threadId,
          waitingFor: to,
          subject,
          lastWrote: since,
          days,
        }));
        // The user's own mail: the names and subjects are what they wrote to.
        return read(name, 'gmail', threads, (t) => ({ text: `${t.waitingFor}\n${t.subject}` }), {
          connected: true,
          afterDays: answer.days,
        });
      }
      case 'calendar_invitations': {
        const answer = await sources.invitations(input.userId);
        if (!answer.connected) return notConnected(name, 'calendar');
        calendarRead = true;
        const invitations = answer.events.map((e) => ({
          id: e.id,
          title: e.summary,
          when: e.start.dateTime ?? e.start.date,
          location: e.location ?? undefined,
          organizer: e.organizer?.email
            ? `${e.organizer.displayName ?? ''} <${e.organizer.email}>`.trim()
            : e.organizer?.displayName,
        }));
        return read(
          name,
          'calendar',
          invitations,
          (e) => ({
            text: `${e.title}\n${e.location ?? ''}`,
            from: e.organizer ? { address: addressOf(e.organizer), name: e.organizer } : undefined,
          }),
          { connected: true },
        );
      }
      case 'slack_mentions': {
        const answer = await sources.slackMentions(input.userId);
        if (!answer.connected) return notConnected(name, 'slack');
        const messages = answer.items.map(({ id, kind, channel, from, text, at, needsReply }) => ({
          id,
          kind,
          channel,
          from,
          text,
          at,
          needsReply,
        }));
        return read(name, 'slack', messages, (m) => ({ text: `${m.from}\n${m.text}` }), { connected: true });
      }
      case 'search_notion': {
        const answer = await sources.notionSearch(input.userId, NotionArgs.parse(args).query);
        if (!answer.connected) return notConnected(name, 'notion');
        return read(
          name,
          'notion',
          answer.pages,
          (p) => ({ text: `${p.title}\n${p.url}\n${p.excerpt ?? ''}` }),
          { connected: true },
        );
      }
      case 'draft_email':
        drafts.push(DraftArgs.parse(args));
        return JSON.stringify({
          source: 'haven',
          status: 'Draft ready for the user to review. Nothing was sent.',
        });
      case 'propose_event':
        events.push(EventArgs.parse(args));
        return JSON.stringify({
          source: 'haven',
          status: 'Event proposed for the user to review. Nothing was created.',
        });
      default:
        return JSON.stringify({ source: 'haven', error: `No tool named ${name}` });
    }
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
    /** The 'Calendar integration used' badge: a connected calendar was read (a proposed event is not). */
    calendarRead: () => calendarRead,
  };
}
