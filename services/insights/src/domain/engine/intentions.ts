import * as chrono from 'chrono-node';
import type { Suggestion, SuggestionPrefill } from '@haven/contracts/insights';
import { clip, type Sentence } from './text';
import type { SourceThought } from './types';

/** Phrases that say the writer means to do what follows. */
const INTENT =
  /\b(?:i\s+(?:really\s+)?(?:need|have|want|plan|hope|ought|mean)\s+to|i['’]ll|i\s+will|i['’]m\s+going\s+to|i\s+am\s+going\s+to|i\s+must|i\s+should|(?:don['’]t\s+)?forget\s+to|remember\s+to|need\s+to|have\s+to|got\s+to|going\s+to|let['’]s|to-?do:?)\s+/i;
/** Verbs that open an instruction to oneself ("Call the dentist tomorrow."). */
const ACTION_VERBS = new Set([
  'ask', 'book', 'buy', 'call', 'check', 'clean', 'contact', 'e-mail', 'email', 'finish', 'fix', 'follow',
  'invite', 'mail', 'meet', 'message', 'order', 'organise', 'organize', 'pay', 'pick', 'plan', 'prepare',
  'reach', 'read', 'reply', 'review', 'schedule', 'send', 'start', 'submit', 'talk', 'tell', 'text',
  'visit', 'write',
]); // prettier-ignore
const EMAIL = /\b(?:e-?mail|mail|message|write\s+to|reply|send|reach\s+out|contact|text)\b/i;
const MEETING =
  /\b(?:meet|meeting|appointment|schedule|call|lunch|dinner|coffee|breakfast|visit|dentist|doctor|interview|party|class|session|catch\s+up)\b/i;
/** The spec's communication words: a title without one gets them in its description. */
const SAYS_EMAIL = /\b(?:email|message|contact|communicate|conversation|engage|reach out)\b/i;
const SAYS_CALENDAR = /\b(?:schedule|meet|appointment|plan|calendar)\b/i;

/** One intention found in a thought: what to do, and how the action dialogs open. */
export interface Intention {
  thoughtId: number;
  suggestion: Suggestion;
}

const pad = (n: number) => String(n).padStart(2, '0');
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const tidy = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s+(?:on|at|by|for|in|this|next|before|from|until)$/i, '')
    .replace(/[\s,;:.!-]+$/, '')
    .trim();

/** The words of a sentence that say what to do, or null when it states no intention. */
export function actionOf(sentence: Sentence): string | null {
  const text = sentence.text.trim();
  if (text.endsWith('?')) return null;
  const intent = INTENT.exec(text);
  if (intent) return tidy(text.slice(intent.index + intent[0].length));
  const first = sentence.words[0]?.replace(/[^a-z-]/g, '') ?? '';
  if (ACTION_VERBS.has(first)) return tidy(text);
  return null;
}

const DAY = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});
const dayLabel = (localDate: string) => DAY.format(new Date(`${localDate}T12:00:00Z`));

/** Wall-clock date and time of a chrono component, in the writer's own day (reference: its noon). */
function moment(c: chrono.ParsedComponents, fallbackTime: string): { date: string; time: string } {
  const date = `${c.get('year')}-${pad(c.get('month') ?? 1)}-${pad(c.get('day') ?? 1)}`;
  const time = c.isCertain('hour') ? `${pad(c.get('hour') ?? 0)}:${pad(c.get('minute') ?? 0)}` : fallbackTime;
  return { date, time };
}

/** The usual hour of a part of the day a sentence names without a time ("Friday morning"). */
const PARTS_OF_DAY: Array<[RegExp, string]> = [
  [/\bmorning\b/i, '09:00'],
  [/\b(noon|lunch(time)?)\b/i, '12:00'],
  [/\bafternoon\b/i, '14:00'],
  [/\bevening\b/i, '18:00'],
  [/\b(tonight|night)\b/i, '20:00'],
];
const partOfDayTime = (text: string) => PARTS_OF_DAY.find(([words]) => words.test(text))?.[1];

/** An hour later than `start`, wrapping to the next day at midnight. */
function hourAfter(start: { date: string; time: string }): { date: string; time: string } {
  const d = new Date(`${start.date}T${start.time}:00Z`);
  d.setUTCHours(d.getUTCHours() + 1);
  return { date: d.toISOString().slice(0, 10), time: d.toISOString().slice(11, 16) };
}

/** The person an action is addressed to: a capitalised name after "to", "with", "email"… */
function recipientOf(action: string): string | undefined {
  const match =
    /\b(?:to|with|email|e-mail|mail|message|text|call|tell|ask|invite|contact|meet)\s+(\p{Lu}[\p{L}'-]+)/u.exec(
      action,
    );
  return match?.[1] ?? undefined;
}

const ADDRESS = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
/** Words that join the recipient to what the e-mail is about ("email Sarah with the plan"). */
const CONNECTOR = /^(?:(?:and|with|about|regarding|concerning|re:?|on|back)(?:\s+|$))+/i;
/** Words that open a purpose the writer states as a verb ("to confirm", "ask about"). */
const PURPOSE_VERBS =
  /^(?:ask|confirm|tell|check|thank|invite|remind|let|share|update|apologi[sz]e|request|propose|follow\s+up|see|find\s+out|say)\b/i;

/**
 * The e-mail an intention to write prefills: To only when the thought names a real address (a first
 * name is the greeting, not a recipient), a subject from what it is about, and a body whose one
 * sentence reads well for a topic ("following up about the revised timeline"), a purpose ("writing
 * to confirm the booking"), a message ("let you know that the meeting moved") or nothing at all.
 */
export function emailPrefill(action: string): NonNullable<SuggestionPrefill['email']> {
  const address = ADDRESS.exec(action)?.[0];
  const name = recipientOf(action);
  const escapedName = name?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let topic = action
    .replace(ADDRESS, ' ')
    .replace(
      /^(?:e-?mail|mail|message|write(?:\s+an?\s+e-?mail)?(?:\s+to)?|send(?:\s+an?\s+e-?mail\s+to)?|text|reply\s+to|contact|reach\s+out\s+to)\s+/i,
      '',
    );
  if (escapedName)
    topic = topic
      .replace(new RegExp(`^${escapedName}\\b\\s*`), '')
      .replace(new RegExp(`\\s+(?:to|with|for)\\s+${escapedName}\\b`), ' ');
  topic = tidy(topic).replace(CONNECTOR, '');
  // "contact the landlord about the leak": who comes before "about", what it is about after.
  if (!escapedName) topic = /^.+?\s+(?:about|regarding|concerning)\s+(.+)$/i.exec(topic)?.[1] ?? topic;
  topic = tidy(topic);

  let sentence: string;
  let subject: string;
  if (/^to\s+\S/i.test(topic)) {
    const purpose = topic.replace(/^to\s+/i, '');
    sentence = `I'm writing to ${purpose}.`;
    subject = purpose;
  } else if (/^that\s+\S/i.test(topic)) {
    sentence = `I'm writing to let you know ${topic}.`;
    subject = topic.replace(/^that\s+/i, '');
  } else if (PURPOSE_VERBS.test(topic)) {
    sentence = `I'm writing to ${topic}.`;
    subject = topic;
  } else if (topic) {
    sentence = `I'm following up about ${topic}.`;
    subject = topic;
  } else {
    sentence = "I'm following up.";
    subject = 'Following up';
  }
  return {
    ...(address ? { to: address } : {}),
    ...(name ? { name } : {}),
    subject: clip(capitalise(subject), 120),
    body: `Hi ${name ?? 'there'},\n\n${sentence}\n\nBest regards,`,
  };
}

/**
 * What a thought's sentence means to do, as a suggestion: the spec's keyword rule picks its button
 * from the words, so an e-mail intention says "email" and a meeting "schedule"; a date and time the
 * sentence names prefill the event, a recipient and subject the e-mail.
 */
export function intentionOf(thought: SourceThought, sentence: Sentence): Intention | null {
  const action = actionOf(sentence);
  if (!action || action.split(' ').length < 2) return null;
  const reference = { instant: new Date(`${thought.localDate}T12:00:00Z`), timezone: 0 };
  const [when] = chrono.parse(action, reference, { forwardDate: true });
  const withoutDate = tidy(when ? action.replace(when.text, ' ') : action);
  const isEmail = EMAIL.test(action);
  const isMeeting = MEETING.test(action) || (!!when && when.start.isCertain('hour') && !isEmail);
  if (!withoutDate) return null;

  const title = clip(capitalise(withoutDate), 80);
  const wrote = `You wrote on ${dayLabel(thought.localDate)}: “${clip(sentence.text, 160)}”`;
  const prefill: SuggestionPrefill = {};
  const notes: string[] = [wrote];

  if (isMeeting) {
    const start = when
      ? moment(when.start, partOfDayTime(when.text) ?? '18:00')
      : { date: thought.localDate, time: '18:00' };
    const end = when?.end ? moment(when.end, hourAfter(start).time) : hourAfter(start);
    prefill.calendar = { title, start, end };
    if (!SAYS_CALENDAR.test(title))
      notes.push(`Schedule a time for it on ${dayLabel(start.date)} at ${start.time}.`);
    else notes.push(`Add it to your calendar: ${dayLabel(start.date)} at ${start.time}.`);
  }
  if (isEmail) {
    prefill.email = emailPrefill(withoutDate);
    if (!SAYS_EMAIL.test(title)) notes.push('Send an email about it.');
  }
  return {
    thoughtId: thought.id,
    suggestion: {
      title,
      description: notes.join(' '),
      references: [thought.id],
      ...(prefill.calendar || prefill.email ? { prefill } : {}),
    },
  };
}
