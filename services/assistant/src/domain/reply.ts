import * as chrono from 'chrono-node';
import { eng as stopwords } from 'stopword';
import { z } from 'zod';
import { EventMoment, type CalendarAnswer, type CalendarEvent } from '@haven/contracts/calendar';
import type { EmailDigest, EmailItem } from '@haven/contracts/mail';
import type { Connections, NotionAnswer, SlackAnswer } from '@haven/contracts/workspace';
import type { InternalInsightAnswer } from '@haven/contracts/internal';
import type { Thought } from '@haven/contracts/thoughts';
import type { ChatMessage, Llm, ToolSpec } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';

/** What a reply may read, for one user, through other services' internal APIs. */
export interface ReplySources {
  search(userId: number, q: string, limit: number): Promise<Thought[]>;
  range(userId: number, start: string, end: string): Promise<Thought[]>;
  includeThoughtContent(userId: number): Promise<boolean>;
  /** The user's e-mail digest, from the integrations service's cache (`connected: false` when none). */
  digest(userId: number, timezoneOffset: number): Promise<EmailDigest>;
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
}

export interface ReplyInput {
  userId: number;
  question: string;
  /** The conversation so far, oldest first, ending with the question. */
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
  /** The browser's getTimezoneOffset() when the question was asked. */
  timezoneOffset: number;
}

export interface ReplyOutput {
  content: string;
  metadata: Record<string, unknown>;
  used: { email?: boolean; calendar?: boolean };
}

/** Most rounds of tool calls before the model must answer. */
const MAX_ROUNDS = 4;
export const AI_NOT_CONFIGURED =
  'AI is not configured on this server, so I can only look through your thoughts for you.';

const pad = (n: number) => String(n).padStart(2, '0');
/** The user's wall clock now, as a Date whose UTC fields are the user's local fields. */
const userNow = (offset: number) => new Date(Date.now() - offset * 60_000);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const DAY = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const dayName = (localDate: string) => DAY.format(new Date(`${localDate}T12:00:00Z`));

function listThoughts(thoughts: Thought[], withDay: boolean): string {
  return thoughts
    .map((t) => {
      const when = withDay ? `${dayName(t.localDate)} — ` : '';
      const tags = t.tags.length ? ` _(${t.tags.map((x) => `#${x}`).join(' ')})_` : '';
      return `- ${when}${t.content.replace(/\s+/g, ' ').trim()}${tags}`;
    })
    .join('\n');
}

/**
 * The reply without a model: honest about it, and useful with what is local. A question about a day
 * ("what did I write yesterday?") lists that day's thoughts; any other lists the thoughts that match
 * its words. No invented prose.
 */
export async function localReply(sources: ReplySources, input: ReplyInput): Promise<ReplyOutput> {
  const account = await accountReply(sources, input);
  if (account) return account;
  const now = userNow(input.timezoneOffset);
  const [when] = chrono.parse(input.question, { instant: now, timezone: 0 });
  if (when) {
    const day = (c: chrono.ParsedComponents) =>
      `${c.get('year')}-${pad(c.get('month') ?? 1)}-${pad(c.get('day') ?? 1)}`;
    const start = day(when.start);
    const end = when.end ? day(when.end) : start;
    const found = await sources.range(input.userId, start, end);
    const label = start === end ? dayName(start) : `${dayName(start)} to ${dayName(end)}`;
    const body = found.length
      ? `Here is what you wrote on ${label}:\n\n${listThoughts(found, start !== end)}`
      : `You didn't record any thoughts on ${label}.`;
    return {
      content: `${AI_NOT_CONFIGURED}\n\n${body}`,
      metadata: { engine: 'basic', day: start },
      used: {},
    };
  }
  const words = [
    ...new Set(
      (input.question.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? []).filter(
        (w) =>
          w.length >= 3 &&
          !stopwords.includes(w) &&
          !['write', 'wrote', 'written', 'thought', 'thoughts', 'think'].includes(w),
      ),
    ),
  ].slice(0, 5);
  const hits = new Map<number, { thought: Thought; score: number }>();
  for (const word of words) {
    for (const thought of await sources.search(input.userId, word, 20)) {
      const entry = hits.get(thought.id) ?? { thought, score: 0 };
      entry.score++;
      hits.set(thought.id, entry);
    }
  }
  const best = [...hits.values()]
    .sort((a, b) => b.score - a.score || b.thought.date.localeCompare(a.thought.date))
    .slice(0, 5)
    .map((h) => h.thought);
  const body = best.length
    ? `These of your thoughts match your question:\n\n${listThoughts(best, true)}`
    : words.length
      ? `I found none of your thoughts mentioning ${words.map((w) => `“${w}”`).join(', ')}.`
      : 'Ask me about a day ("what did I write yesterday?") or a subject, and I will look through your thoughts.';
  return {
    content: `${AI_NOT_CONFIGURED}\n\n${body}`,
    metadata: { engine: 'basic', matches: best.map((t) => t.id) },
    used: {},
  };
}

const MAIL_QUESTION = /\b(e-?mails?|inbox|gmail)\b/i;
const CALENDAR_QUESTION = /\b(calendar|invitations?|invites?|rsvps?)\b/i;

const emailLine = (e: EmailItem) =>
  `- **${e.from}** — ${e.subject || '(no subject)'}${e.snippet ? `: ${e.snippet.replace(/\s+/g, ' ').slice(0, 120)}` : ''}`;
const eventLine = (e: CalendarEvent) => {
  const when = e.start.dateTime ?? e.start.date ?? '';
  const organizer = e.organizer?.displayName ?? e.organizer?.email;
  return `- **${e.summary}** — ${when.replace('T', ' ').slice(0, 16)}${organizer ? `, from ${organizer}` : ''}`;
};

/**
 * Without a model, a question about mail or invitations is answered from the connected accounts'
 * cached digest: the e-mails that seem to need a reply, or the invitations awaiting an answer.
 */
async function accountReply(sources: ReplySources, input: ReplyInput): Promise<ReplyOutput | null> {
  const aboutMail = MAIL_QUESTION.test(input.question);
  const aboutCalendar = CALENDAR_QUESTION.test(input.question);
  if (!aboutMail && !aboutCalendar) return null;
  const parts: string[] = [];
  // The calendar badge counts a calendar only when it was read (connected and answering).
  let calendarRead = false;
  // An account that cannot be read just now is said so; the reply itself does not fail.
  const read = <T>(work: Promise<T>) => work.catch(() => null);
  if (aboutMail) {
    const digest = await read(sources.digest(input.userId, input.timezoneOffset));
    if (!digest) parts.push('Your mail could not be read just now. Please try again in a moment.');
    else if (!digest.connected)
      parts.push('No mail account is connected: connect Google mail on the Connect screen.');
    else {
      const waiting = digest.emails.filter((e) => e.needsReply);
      parts.push(
        waiting.length
          ? `${waiting.length} of your e-mails seem to need a reply:\n\n${waiting.slice(0, 10).map(emailLine).join('\n')}`
          : `No e-mail seems to need a reply. ${digest.stats.newSinceYesterday} arrived since yesterday.`,
      );
    }
  }
  if (aboutCalendar) {
    const answer = await read(sources.invitations(input.userId));
    if (!answer) parts.push('Your calendar could not be read just now. Please try again in a moment.');
    else if (!answer.connected)
      parts.push('No calendar is connected: connect Google calendar on the Connect screen.');
    else {
      calendarRead = true;
      parts.push(
        answer.events.length
          ? `${answer.events.length} invitations await your answer:\n\n${answer.events.slice(0, 10).map(eventLine).join('\n')}`
          : 'No invitation awaits your answer.',
      );
    }
  }
  return {
    content: `${AI_NOT_CONFIGURED.replace('look through your thoughts', 'look through your thoughts and accounts')}\n\n${parts.join('\n\n')}`,
    metadata: { engine: 'basic' },
    used: { email: aboutMail || undefined, calendar: calendarRead || undefined },
  };
}

const SearchArgs = z.object({
  query: z.string().min(1).max(200),
  limit: z.number().int().min(1).max(20).optional(),
});
const DayArgs = z.object({ start: z.iso.date(), end: z.iso.date().optional() });
const DraftArgs = z.object({
  to: z.string().max(500).optional(),
  subject: z.string().min(1).max(300),
  body: z.string().min(1).max(10_000),
});
const EventArgs = z.object({
  title: z.string().min(1).max(300),
  start: EventMoment,
  end: EventMoment,
  location: z.string().max(300).optional(),
});

const THOUGHT_TOOLS: ToolSpec[] = [
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
const ACCOUNT_TOOLS: ToolSpec[] = [
  {
    name: 'email_digest',
    description:
      "The user's recent inbox from their connected mail account: sender, subject, snippet, date, whether it is new and whether it seems to need a reply. Read-only.",
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
const SLACK_TOOL: ToolSpec = {
  name: 'slack_mentions',
  description:
    "Recent Slack messages that mention the user or were sent to them directly, with whether they still need the user's reply. Read-only.",
  parameters: NoArgs,
};
const NOTION_TOOL: ToolSpec = {
  name: 'search_notion',
  description:
    "Searches the user's Notion pages by text: titles, links and a short excerpt of the best matches. Read-only.",
  parameters: NotionArgs,
};
const DRAFT_TOOLS: ToolSpec[] = [
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

function systemPrompt(input: ReplyInput, share: boolean): string {
  const now = userNow(input.timezoneOffset);
  const today = isoDay(now);
  return [
    "You are Haven's assistant: a private, warm and practical companion for the user's journal and days.",
    `Today is ${dayName(today)} (${today}) in the user's time zone, and it is ${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())} there. "Yesterday", "next Tuesday" and the like mean the user's days.`,
    share
      ? 'Use search_thoughts and thoughts_on when the question is about what the user wrote, felt or planned; cite what you found.'
      : 'The user has not allowed their thoughts to be shared with the AI: you cannot read them, and should say so if asked about them.',
    "Use email_digest and calendar_invitations for questions about the user's mail, replies owed, meetings or invitations; if an account is not connected, say so and suggest connecting it on the Connect screen.",
    'When offered, use slack_mentions for Slack messages waiting for the user, and search_notion to find what the user wrote in Notion.',
    'You never send e-mail or create events: draft_email and propose_event only prepare drafts the user reviews. When you draft an e-mail, show it with a "To:" line, a "Subject:" line, a greeting and the body.',
    'Answer concisely, in Markdown.',
  ].join('\n');
}

/** The reply with a model: the conversation, tools executed here and fed back, a bounded number of rounds. */
export async function aiReply(
  llm: Llm,
  sources: ReplySources,
  input: ReplyInput,
  log: Logger,
): Promise<ReplyOutput> {
  const [share, connected] = await Promise.all([
    sources.includeThoughtContent(input.userId),
    // Without the integrations service the Slack and Notion tools are simply not offered.
    sources.connections(input.userId).catch(() => null),
  ]);
  const tools = [
    ...(share ? THOUGHT_TOOLS : []),
    ...ACCOUNT_TOOLS,
    ...(connected?.messages ? [SLACK_TOOL] : []),
    ...(connected?.documents ? [NOTION_TOOL] : []),
    ...DRAFT_TOOLS,
  ];
  const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt(input, share) }, ...input.history];
  const used = new Set<string>();
  /** The 'Calendar integration used' badge: a connected calendar was read (a proposed event is not). */
  let calendarRead = false;
  const drafts: Array<z.infer<typeof DraftArgs>> = [];
  const events: Array<z.infer<typeof EventArgs>> = [];

  async function run(name: string, args: unknown): Promise<unknown> {
    used.add(name);
    switch (name) {
      case 'search_thoughts': {
        const a = SearchArgs.parse(args);
        const found = await sources.search(input.userId, a.query, a.limit ?? 10);
        return found.map((t) => ({
          date: t.localDate,
          category: t.category,
          tags: t.tags,
          content: t.content,
        }));
      }
      case 'thoughts_on': {
        const a = DayArgs.parse(args);
        const found = await sources.range(input.userId, a.start, a.end ?? a.start);
        return found.map((t) => ({
          date: t.localDate,
          category: t.category,
          tags: t.tags,
          content: t.content,
        }));
      }
      case 'email_digest': {
        const digest = await sources.digest(input.userId, input.timezoneOffset);
        if (!digest.connected) return { connected: false };
        return {
          connected: true,
          stats: digest.stats,
          emails: digest.emails.slice(0, 25).map(({ from, subject, snippet, date, isNew, needsReply }) => ({
            from,
            subject,
            snippet,
            date,
            isNew,
            needsReply,
          })),
        };
      }
      case 'calendar_invitations': {
        const answer = await sources.invitations(input.userId);
        if (!answer.connected) return { connected: false };
        calendarRead = true;
        return {
          connected: true,
          invitations: answer.events.slice(0, 25).map((e) => ({
            title: e.summary,
            when: e.start.dateTime ?? e.start.date,
            location: e.location ?? undefined,
            organizer: e.organizer?.displayName ?? e.organizer?.email,
          })),
        };
      }
      case 'slack_mentions': {
        const answer = await sources.slackMentions(input.userId);
        if (!answer.connected) return { connected: false };
        return {
          connected: true,
          messages: answer.items.map(({ kind, channel, from, text, at, needsReply }) => ({
            kind,
            channel,
            from,
            text,
            at,
            needsReply,
          })),
        };
      }
      case 'search_notion': {
        const answer = await sources.notionSearch(input.userId, NotionArgs.parse(args).query);
        if (!answer.connected) return { connected: false };
        return { connected: true, pages: answer.pages };
      }
      case 'draft_email':
        drafts.push(DraftArgs.parse(args));
        return { status: 'Draft ready for the user to review. Nothing was sent.' };
      case 'propose_event':
        events.push(EventArgs.parse(args));
        return { status: 'Event proposed for the user to review. Nothing was created.' };
      default:
        return { error: `No tool named ${name}` };
    }
  }

  let content: string | null = null;
  for (let round = 0; round <= MAX_ROUNDS; round++) {
    const answer = await llm.chat({ messages, tools: round < MAX_ROUNDS ? tools : undefined });
    if (answer.toolCalls.length === 0) {
      content = answer.content;
      break;
    }
    messages.push({
      role: 'assistant',
      content: answer.content,
      tool_calls: answer.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    });
    for (const call of answer.toolCalls) {
      let result: unknown;
      try {
        // Only tools offered this turn run: a model cannot reach the thoughts when sharing is off.
        if (!tools.some((t) => t.name === call.name)) throw new Error(`Tool ${call.name} is not available`);
        result = await run(call.name, JSON.parse(call.arguments || '{}'));
      } catch (err) {
        log.warn({ tool: call.name, err }, 'tool call failed');
        result = { error: err instanceof z.ZodError ? 'Invalid arguments' : (err as Error).message };
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
    }
  }
  let text = (content ?? '').trim();
  // A draft the model prepared but did not show is shown, so the SPA can offer 'Edit & Draft Email'.
  for (const d of drafts) {
    if (!/subject:/i.test(text)) text += `\n\nTo: ${d.to ?? ''}\nSubject: ${d.subject}\n\n${d.body}`;
  }
  for (const e of events) {
    if (!text.includes(e.title))
      text += `\n\n**Proposed event:** ${e.title}, ${dayName(e.start.date)} ${e.start.time}–${e.end.time}${e.location ? ` at ${e.location}` : ''}`;
  }
  if (!text) throw new Error('The model answered with no text');
  return {
    content: text.trim(),
    metadata: {
      engine: 'ai',
      tools: [...used],
      ...(drafts.length ? { drafts } : {}),
      ...(events.length ? { events } : {}),
    },
    used: {
      email: drafts.length > 0 || used.has('email_digest') || undefined,
      calendar: calendarRead || undefined,
    },
  };
}

/** The reply to a question: the model's when one is configured, else the local one. */
export function writeReply(
  deps: { llm: Llm | null; sources: ReplySources; log: Logger },
  input: ReplyInput,
): Promise<ReplyOutput> {
  return deps.llm ? aiReply(deps.llm, deps.sources, input, deps.log) : localReply(deps.sources, input);
}
