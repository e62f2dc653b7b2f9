import type { CalendarEvent } from '@haven/contracts/calendar';
import type { EmailItem, WaitingThread } from '@haven/contracts/mail';
import { CITE, contentWords, findEntries, type FoundEntry } from './find-entries';
import { questionDates, type DayRange } from './question-dates';
import type { ReplyInput, ReplyOutput, ReplySources } from './reply-types';
import { dayName, isoDay, userNow } from './user-time';

export const AI_NOT_CONFIGURED =
  'AI is not configured on this server, so I can only look through your thoughts for you.';

/** A day as the reply lists it: "Thu 26 Nov 2026". */
const SHORT_DAY = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const shortDay = (localDate: string) => {
  const d = new Date(`${localDate}T12:00:00Z`);
  // Years before 1000 keep their digits (Intl pads none).
  return SHORT_DAY.format(d);
};

/** "on Thursday, November 26, 2026" or "from Monday, … to Sunday, …". */
export const periodLabel = (range: DayRange) =>
  range.start === range.end
    ? `on ${dayName(range.start)}`
    : `from ${dayName(range.start)} to ${dayName(range.end)}`;

/** One line per entry: its day, a short excerpt and its citation ([#n], n its place in `references`). */
export const entryLines = (entries: FoundEntry[]) =>
  entries.map((e, i) => `- **${shortDay(e.thought.localDate)}** — ${e.excerpt} [#${i + 1}]`).join('\n');

const quoted = (words: string[]) => words.map((w) => `“${w}”`).join(', ');

/** A reply without a model: it says so first, and cites `entries` (chip #n is the n-th). */
const basicReply = (body: string, entries: FoundEntry[] = [], extra: Record<string, unknown> = {}) => ({
  content: `${AI_NOT_CONFIGURED}\n\n${body}`,
  metadata: { engine: 'basic', references: entries.map((e) => e.thought.id), ...extra },
  used: {},
});

/**
 * The reply without a model: honest about it, and useful with what is local. The question's period
 * ("this week", "in March 1666", "the week after 2 September") and its words (question and stop
 * words left out) are looked up in the search index; the best-ranked entries are listed, one line
 * each with a short excerpt, and cited (metadata `references`, the thought ids, chip #n being the
 * n-th). No invented prose.
 */
export async function localReply(sources: ReplySources, input: ReplyInput): Promise<ReplyOutput> {
  const account = await accountReply(sources, input);
  if (account) return account;
  const today = isoDay(userNow(input.timezoneOffset, input.at));
  const dates = questionDates(input.question, today);
  if (dates.unknown === 'birthday')
    return basicReply(
      "I don't know your birthday, so I cannot tell which day that is. Ask me about its date instead (for example “what did I write on 14 March last year?”).",
    );
  const words = contentWords(dates.rest);
  const range = dates.range;
  if (!range && words.length === 0)
    return basicReply(
      'Ask me about a day ("what did I write yesterday?"), a period ("last week", "in March") or a subject, and I will look through your thoughts.',
    );
  return entriesReply(sources, input.userId, words, range);
}

/** The entries the question's words and period find, listed and cited, or a line saying there are none. */
async function entriesReply(
  sources: ReplySources,
  userId: number,
  words: string[],
  range: DayRange | null,
): Promise<ReplyOutput> {
  let entries = await findEntries(sources.search, userId, words, range);
  const extra = range ? { range } : {};
  // Nothing in the period names the words (a day asked for by its feast, say): the period's entries.
  let missed = '';
  if (entries.length === 0 && range && words.length > 0) {
    entries = await findEntries(sources.search, userId, [], range);
    if (entries.length) missed = `None of your thoughts ${periodLabel(range)} mentions ${quoted(words)}. `;
  }
  if (entries.length === 0)
    return basicReply(
      words.length === 0
        ? `You didn't record any thoughts ${periodLabel(range!)}.`
        : `I found none of your thoughts mentioning ${quoted(words)}${range ? ` ${periodLabel(range)}` : ''}.`,
      [],
      extra,
    );
  const intro =
    words.length === 0 || missed
      ? `${missed}Here is what you wrote ${periodLabel(range!)}${entries.length >= CITE.period ? ` (its first ${CITE.period} entries)` : ''}:`
      : `These of your thoughts${range ? ` ${periodLabel(range)}` : ''} best match ${quoted(words)}:`;
  return basicReply(`${intro}\n\n${entryLines(entries)}`, entries, extra);
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

const MAIL_UNREADABLE = 'Your mail could not be read just now. Please try again in a moment.';
const MAIL_NOT_CONNECTED = 'No mail account is connected: connect Google mail on the Connect screen.';
const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** An account that cannot be read just now is said so; the reply itself does not fail. */
const orNull = <T>(work: Promise<T>) => work.catch(() => null);

/** The e-mails that seem to need a reply. */
async function mailPart(sources: ReplySources, input: ReplyInput): Promise<string> {
  const digest = await orNull(sources.digest(input.userId, input.timezoneOffset));
  if (!digest) return MAIL_UNREADABLE;
  if (!digest.connected) return MAIL_NOT_CONNECTED;
  const waiting = digest.emails.filter((e) => e.needsReply);
  return waiting.length
    ? `${waiting.length} of your e-mails seem to need a reply:\n\n${waiting.slice(0, 10).map(emailLine).join('\n')}`
    : `No e-mail seems to need a reply. ${digest.stats.newSinceYesterday} arrived since yesterday.`;
}

/** The questions the user sent that still wait for an answer. */
async function followUpPart(sources: ReplySources, input: ReplyInput): Promise<string> {
  const waiting = await orNull(sources.waiting(input.userId));
  if (!waiting) return MAIL_UNREADABLE;
  if (!waiting.connected) return MAIL_NOT_CONNECTED;
  return waiting.threads.length
    ? `${waiting.threads.length} of your questions have waited ${days(waiting.days)} or more for an answer:\n\n${waiting.threads.map(waitingLine).join('\n')}\n\nThe e-mail digest offers a nudge for each.`
    : `No question you sent has waited ${days(waiting.days)} or more for an answer.`;
}

/** The invitations awaiting an answer; `read` when a connected calendar answered (the calendar badge). */
async function calendarPart(
  sources: ReplySources,
  input: ReplyInput,
): Promise<{ text: string; read: boolean }> {
  const invited = await orNull(sources.invitations(input.userId));
  if (!invited)
    return { text: 'Your calendar could not be read just now. Please try again in a moment.', read: false };
  if (!invited.connected)
    return { text: 'No calendar is connected: connect Google calendar on the Connect screen.', read: false };
  return {
    text: invited.events.length
      ? `${invited.events.length} invitations await your answer:\n\n${invited.events.slice(0, 10).map(eventLine).join('\n')}`
      : 'No invitation awaits your answer.',
    read: true,
  };
}

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
  if (aboutMail) parts.push(await mailPart(sources, input));
  if (aboutFollowUps) parts.push(await followUpPart(sources, input));
  // The calendar badge counts a calendar only when it was read (connected and answering).
  const calendar = aboutCalendar ? await calendarPart(sources, input) : null;
  if (calendar) parts.push(calendar.text);
  return {
    content: `${AI_NOT_CONFIGURED.replace('look through your thoughts', 'look through your thoughts and accounts')}\n\n${parts.join('\n\n')}`,
    metadata: { engine: 'basic' },
    used: { email: aboutMail || aboutFollowUps || undefined, calendar: calendar?.read || undefined },
  };
}
