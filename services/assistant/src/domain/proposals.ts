import { eng as stopwords } from 'stopword';
import type { RecipientOrigin } from '@haven/contracts/proposals';
import type { ToolSource } from './tool-results';

/*
 * What a reply may do on its own and what it only suggests. The model reads other people's text
 * (mail, Slack, Notion, imported notes), so what it asks for after reading is judged against the
 * user's own question, found here without a model: which tools the question needs, whether it asks
 * for something to be written or scheduled, where a draft's recipient comes from, and whether a draft
 * repeats the user's journal.
 */

/** Which sources and actions a question asks for, by its words (English, as the prompts are). */
const ASKS = {
  thoughts:
    /\b(thoughts?|journal(ed|ing)?|diary|entr(y|ies)|wr[io]te|written|notes?|felt|feel(ings?)?|moods?|reflect\w*|remember|my (day|week|month))\b/i,
  gmail: /\b(e-?mails?|mails?|inbox|gmail|repl(y|ies|ied))\b/i,
  calendar: /\b(calendar|invitations?|invites?|rsvps?|meetings?|events?|schedule|agenda|appointments?)\b/i,
  slack: /\b(slack|mentions?|dms?|direct messages?|channels?)\b/i,
  notion: /\b(notion|pages?|docs?|documents?|wiki)\b/i,
} satisfies Record<ToolSource, RegExp>;
const DRAFT =
  /\b(draft|compose|reply|respond|send|tell|forward|write (a|an|the|back|to|him|her|them)|e-?mail (him|her|them|back|to)|let \S+ know|follow[- ]?up)\b/i;
const EVENT =
  /\b(schedule|book|plan|add|put|set up|create|arrange|propose|remind)\b[^.?!]*\b(events?|meetings?|calls?|calendar|appointments?|lunch|dinner|coffee|sessions?|reminders?|time)\b/i;
/** The question asks for journal text to go into what is written. */
const INCLUDE_JOURNAL =
  /\b(include|with|quote|add|paste|share|send|summari[sz]e|using)\b[^.?!]{0,40}\b(thoughts?|journal|notes?|entr(y|ies)|diary|what i (wrote|write))\b/i;

/** Whether the question asks for what `source` holds. */
export const asksFor = (question: string, source: ToolSource) => ASKS[source].test(question);
/** Whether the question asks for an e-mail to be written. */
export const asksForDraft = (question: string) => DRAFT.test(question);
/** Whether the question asks for an event to be planned. */
export const asksForEvent = (question: string) => EVENT.test(question);

/** One item a tool read, kept to judge the reply's proposals against. */
export interface SeenItem {
  source: ToolSource;
  text: string;
  /** The mail's sender, or the invitation's organizer. */
  from?: { address: string; name: string };
}

const ADDRESS = /[^\s<>,;:"'()[\]]+@[^\s<>,;:"'()[\]]+\.[a-z]{2,}/gi;
/** How little a recipient's origin is trusted; a draft to several people takes the least trusted. */
const DISTRUST: RecipientOrigin[] = [
  'question',
  'calendar',
  'contact',
  'thoughts',
  'notion',
  'slack',
  'mail',
  'unknown',
];

/** The first name of a sender, when it is a word a question could name them by. */
function firstName(name: string): string | null {
  const first =
    name
      .trim()
      .split(/\s+/)[0]
      ?.toLowerCase()
      .replace(/[^\p{L}'-]/gu, '') ?? '';
  return first.length >= 3 && !stopwords.includes(first) ? first : null;
}

const namedIn = (text: string, name: string) =>
  new RegExp(`(^|[^\\p{L}])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'iu').test(text);

function originOf(
  address: string,
  mine: string,
  question: string,
  seen: SeenItem[],
  contacts: ReadonlySet<string>,
): RecipientOrigin {
  if (mine.includes(address)) return 'question';
  if (seen.some((s) => s.source === 'calendar' && s.from?.address === address)) return 'calendar';
  if (contacts.has(address)) return 'contact';
  // Replying to a mail whose sender the question names is writing to someone the user chose.
  const sender = seen.find((s) => s.source === 'gmail' && s.from?.address === address);
  const name = sender && firstName(sender.from!.name);
  if (name && namedIn(question, name)) return 'question';
  const found = seen.find((s) => s.text.toLowerCase().includes(address) || s.from?.address === address);
  if (!found) return 'unknown';
  return found.source === 'gmail' ? 'mail' : found.source === 'calendar' ? 'unknown' : found.source;
}

/** The e-mail addresses in a recipient field, lower-cased. */
export const addressesIn = (to: string | undefined): string[] =>
  to?.match(ADDRESS)?.map((a) => a.toLowerCase()) ?? [];

/**
 * Where a draft's recipients come from: the least trusted origin among them (`unknown` for a name
 * without an address); undefined when the draft names nobody.
 */
export function recipientFrom(
  to: string | undefined,
  context: { mine: string[]; question: string; seen: SeenItem[]; contacts?: ReadonlySet<string> },
): RecipientOrigin | undefined {
  if (!to?.trim()) return undefined;
  const addresses = addressesIn(to);
  if (addresses.length === 0) return 'unknown';
  const mine = context.mine.join('\n').toLowerCase();
  return addresses
    .map((a) => originOf(a, mine, context.question, context.seen, context.contacts ?? new Set()))
    .reduce((a, b) => (DISTRUST.indexOf(b) > DISTRUST.indexOf(a) ? b : a));
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
/** Five words in a row: a shorter run is too common to call a quote. */
const RUN = 5;

/** Runs of five words of each thought (a shorter thought of at least three words whole). */
function journalRuns(thoughts: string[]): Set<string> {
  const runs = new Set<string>();
  for (const thought of thoughts) {
    const w = wordsOf(thought);
    if (w.length >= 3 && w.length < RUN) runs.add(w.join(' '));
    for (let i = 0; i + RUN <= w.length; i++) runs.add(w.slice(i, i + RUN).join(' '));
  }
  return runs;
}

function quotesJournal(sentence: string, runs: Set<string>): boolean {
  const w = wordsOf(sentence);
  if (runs.has(w.join(' '))) return true;
  for (let n = 3; n <= RUN; n++)
    for (let i = 0; i + n <= w.length; i++) if (runs.has(w.slice(i, i + n).join(' '))) return true;
  return false;
}

/**
 * A draft's body without the sentences that repeat the user's journal (`thoughts`, as the tools read
 * them), unless the question asked for journal text to be included. The spec lets thought content
 * into suggestions only when the user shares it; a draft leaves the user's hands, so it needs more:
 * being asked.
 */
export function leaveOutJournal(
  body: string,
  thoughts: string[],
  question: string,
): { body: string; leftOut: boolean } {
  if (thoughts.length === 0 || INCLUDE_JOURNAL.test(question)) return { body, leftOut: false };
  const runs = journalRuns(thoughts);
  let leftOut = false;
  const lines = body.split('\n').map((line) =>
    line
      .split(/(?<=[.!?])\s+/)
      .filter((sentence) => {
        const quoted = quotesJournal(sentence, runs);
        leftOut ||= quoted;
        return !quoted;
      })
      .join(' '),
  );
  return leftOut
    ? {
        body: lines
          .join('\n')
          .replace(/\n{3,}/g, '\n\n')
          .trim(),
        leftOut,
      }
    : { body, leftOut };
}
