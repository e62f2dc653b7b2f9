import * as chrono from 'chrono-node';
import { eng as stopwords } from 'stopword';
import type { CalendarEvent } from '@haven/contracts/calendar';
import type { EmailItem, WaitingThread } from '@haven/contracts/mail';
import type { Thought } from '@haven/contracts/thoughts';
import type { ReplyInput, ReplyOutput, ReplySources } from './reply';
import { dayName, pad, userNow } from './user-time';

export const AI_NOT_CONFIGURED =
  'AI is not configured on this server, so I can only look through your thoughts for you.';

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
/** "Who hasn't answered me?", "any follow-ups?", "who should I nudge?" */
const FOLLOW_UP_QUESTION =
  /\b(follow[- ]?ups?|nudges?|waiting (for|on) (an? )?(answers?|repl(y|ies)|them|people)|(hasn't|haven't|has not|have not|never|not) (answered|replied|got(ten)? back)|no (answers?|repl(y|ies)) (yet|from))\b/i;
const CALENDAR_QUESTION = /\b(calendar|invitations?|invites?|rsvps?)\b/i;

const emailLine = (e: EmailItem) =>
  `- **${e.from}** — ${e.subject || '(no subject)'}${e.snippet ? `: ${e.snippet.replace(/\s+/g, ' ').slice(0, 120)}` : ''}`;
const waitingLine = (t: WaitingThread) =>
  `- **${t.to}** — ${t.subject || '(no subject)'} (${t.days} ${t.days === 1 ? 'day' : 'days'})`;
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
  const aboutFollowUps = FOLLOW_UP_QUESTION.test(input.question);
  // A question about answers the user is owed is not one about the replies they owe.
  const aboutMail = !aboutFollowUps && MAIL_QUESTION.test(input.question);
  const aboutCalendar = CALENDAR_QUESTION.test(input.question);
  if (!aboutMail && !aboutCalendar && !aboutFollowUps) return null;
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
  if (aboutFollowUps) {
    const answer = await read(sources.waiting(input.userId));
    if (!answer) parts.push('Your mail could not be read just now. Please try again in a moment.');
    else if (!answer.connected)
      parts.push('No mail account is connected: connect Google mail on the Connect screen.');
    else
      parts.push(
        answer.threads.length
          ? `${answer.threads.length} of your questions have waited ${answer.days} ${answer.days === 1 ? 'day' : 'days'} or more for an answer:\n\n${answer.threads.map(waitingLine).join('\n')}\n\nThe e-mail digest offers a nudge for each.`
          : `No question you sent has waited ${answer.days} ${answer.days === 1 ? 'day' : 'days'} or more for an answer.`,
      );
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
    used: { email: aboutMail || aboutFollowUps || undefined, calendar: calendarRead || undefined },
  };
}
