import { z } from 'zod';
import type { CalendarEvent } from '@haven/contracts/calendar';
import { addressOf } from '@haven/contracts/reply';
import { tool, type ToolContext } from './tool-kit';

/*
 * The tools that read the user's connected accounts (mail, calendar, Slack, Notion): read-only,
 * each answering `notConnected` when its account is not connected.
 */

const NoArgs = z.object({});
const NotionArgs = z.object({ query: z.string().trim().min(1).max(200) });

async function emailDigest(_: unknown, ctx: ToolContext): Promise<string> {
  const digest = await ctx.sources.digest(ctx.input.userId, ctx.input.timezoneOffset);
  if (!digest.connected) return ctx.notConnected();
  const emails = digest.emails.map(({ id, from, fromFull, subject, snippet, date, isNew, needsReply }) => ({
    id,
    from: fromFull || from,
    subject,
    snippet,
    date,
    isNew,
    needsReply,
  }));
  return ctx.read(
    emails,
    (e) => ({ text: `${e.subject}\n${e.snippet}`, from: { address: addressOf(e.from), name: e.from } }),
    { connected: true, stats: digest.stats },
  );
}

async function waitingForAnswer(_: unknown, ctx: ToolContext): Promise<string> {
  const waiting = await ctx.sources.waiting(ctx.input.userId);
  if (!waiting.connected) return ctx.notConnected();
  const threads = waiting.threads.slice(0, 20).map(({ threadId, to, subject, since, days }) => ({
    id: threadId,
    waitingFor: to,
    subject,
    lastWrote: since,
    days,
  }));
  // The user's own mail: the names and subjects are what they wrote to.
  return ctx.read(threads, (t) => ({ text: `${t.waitingFor}\n${t.subject}` }), {
    connected: true,
    afterDays: waiting.days,
  });
}

/** An invitation as the tool gives it: its title, when, where and who sent it. */
const invitationItem = (e: CalendarEvent) => ({
  id: e.id,
  title: e.summary,
  when: e.start.dateTime ?? e.start.date,
  location: e.location ?? undefined,
  organizer: e.organizer?.email
    ? `${e.organizer.displayName ?? ''} <${e.organizer.email}>`.trim()
    : e.organizer?.displayName,
});

async function calendarInvitations(_: unknown, ctx: ToolContext): Promise<string> {
  const invited = await ctx.sources.invitations(ctx.input.userId);
  if (!invited.connected) return ctx.notConnected();
  ctx.calendarRead();
  return ctx.read(
    invited.events.map(invitationItem),
    (e) => ({
      text: `${e.title}\n${e.location ?? ''}`,
      from: e.organizer ? { address: addressOf(e.organizer), name: e.organizer } : undefined,
    }),
    { connected: true },
  );
}

async function slackMentions(_: unknown, ctx: ToolContext): Promise<string> {
  const mentions = await ctx.sources.slackMentions(ctx.input.userId);
  if (!mentions.connected) return ctx.notConnected();
  const messages = mentions.items.map(({ id, kind, channel, from, text, at, needsReply }) => ({
    id,
    kind,
    channel,
    from,
    text,
    at,
    needsReply,
  }));
  return ctx.read(messages, (m) => ({ text: `${m.from}\n${m.text}` }), { connected: true });
}

async function searchNotion(a: z.infer<typeof NotionArgs>, ctx: ToolContext): Promise<string> {
  const found = await ctx.sources.notionSearch(ctx.input.userId, a.query);
  if (!found.connected) return ctx.notConnected();
  return ctx.read(found.pages, (p) => ({ text: `${p.title}\n${p.url}\n${p.excerpt ?? ''}` }), {
    connected: true,
  });
}

export const EMAIL_DIGEST = tool({
  description:
    "The user's recent inbox from their connected mail account: sender, subject, snippet, date, whether it is new and whether it seems to need a reply. Read-only.",
  source: 'gmail',
  parameters: NoArgs,
  run: emailDigest,
});

export const LIST_WAITING_FOR_ANSWER = tool({
  description:
    "Threads where the user wrote last, asked something, and has had no answer for their setting's number of days (default 3): whom they wrote to, the subject and how many days ago, longest waiting first, at most 20. Read-only; the e-mail digest offers a nudge for each.",
  source: 'gmail',
  parameters: NoArgs,
  run: waitingForAnswer,
});

export const CALENDAR_INVITATIONS = tool({
  description:
    'Upcoming calendar invitations the user has not answered yet, from their connected calendar. Read-only.',
  source: 'calendar',
  parameters: NoArgs,
  run: calendarInvitations,
});

export const SLACK_MENTIONS = tool({
  description:
    "Recent Slack messages that mention the user or were sent to them directly, with whether they still need the user's reply. Read-only.",
  source: 'slack',
  offered: (o) => Boolean(o.connected?.messages),
  parameters: NoArgs,
  run: slackMentions,
});

export const SEARCH_NOTION = tool({
  description:
    "Searches the user's Notion pages by text: titles, links and a short excerpt of the best matches. Read-only.",
  source: 'notion',
  offered: (o) => Boolean(o.connected?.documents),
  parameters: NotionArgs,
  run: searchNotion,
});
