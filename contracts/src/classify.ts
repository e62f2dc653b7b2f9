/** Whether captured text is a thought to save or a request for the assistant. */
export type ContentType = 'thought' | 'chat';

const CHAT_PHRASES = ['hey haven', 'help me', 'can you'] as const;

/**
 * Openings of a note to oneself: an imperative to-do ("Call mum tomorrow", "Schedule a meeting with
 * Tom") or a reminder phrase. Verbs that usually ask the assistant for something ("find", "show",
 * "summarise", "draft") are left out on purpose.
 */
const NOTE_OPENING = new RegExp(
  String.raw`^(?:` +
    [
      String.raw`remind me to`,
      String.raw`remember to`,
      String.raw`don['’]?t forget(?: to)?`,
      String.raw`do not forget(?: to)?`,
      String.raw`note to self`,
      String.raw`to-?do\b`,
      String.raw`(?:i\s+)?(?:need|have|ought|want) to`,
      String.raw`(?:i\s+)?(?:must|should)`,
      String.raw`i['’]ll`,
      String.raw`i will`,
      String.raw`(?:ask|book|buy|call|cancel|check|clean|e-?mail|finish|fix|follow up|invite|mail|message|order|pay|phone|pick up|plan|prepare|renew|reply|return|ring|schedule|send|submit|text|visit|water|write)\b`,
    ].join('|') +
    String.raw`)`,
  'i',
);
/** Words that turn an imperative into a request for the assistant: "write an e-mail to Tom for me". */
const ASKS_FOR_ME = /\b(?:for me|tell me|show me|give me|send me|remind me (?!to\b))/i;
/** A question about what the user recorded: "What did I write about Tom last week?". */
const JOURNAL_QUESTION_START = /^(?:what|when|where|who|which|how|did|do|have|was|were)\b/i;
const JOURNAL_QUESTION_SUBJECT =
  /\b(?:i|my)\b.*\b(?:write|wrote|written|say|said|note|noted|mention|mentioned|record|recorded|log|logged|journal|journaled|journalled|feel|felt|think|thought|thoughts|notes|entries)\b/i;

const normalize = (text: string) => text.trim().replace(/\s+/g, ' ');

/** True for an imperative note-to-self or to-do ("Remind me to buy milk"), which is a thought to keep. */
export function isNoteToSelf(text: string): boolean {
  const t = normalize(text);
  return NOTE_OPENING.test(t) && !t.endsWith('?') && !ASKS_FOR_ME.test(t);
}

/** True for a question about the user's own journal, which the assistant answers from their thoughts. */
export function isJournalQuestion(text: string): boolean {
  const t = normalize(text);
  return t.endsWith('?') && JOURNAL_QUESTION_START.test(t) && JOURNAL_QUESTION_SUBJECT.test(t);
}

/**
 * The rules that decide with confidence, or undefined when only a model (or the keyword rule) can
 * tell: text that starts with '?' or 'hey haven' is a chat, a note to self is a thought, a question
 * about what the user wrote is a chat. The thoughts service asks its model only when these are silent,
 * so "Schedule a meeting with Tom on Thursday at 3pm" is never turned into a conversation.
 */
export function classifyByRules(text: string): ContentType | undefined {
  const t = normalize(text).toLowerCase();
  if (t.startsWith('?') || t.startsWith('hey haven')) return 'chat';
  if (isNoteToSelf(t)) return 'thought';
  if (isJournalQuestion(t)) return 'chat';
  return undefined;
}

/**
 * The spec's keyword rule (section 5), shared by the SPA (when the analysis call fails) and the
 * thoughts service (with no model, or when it fails), after the rules above: text that addresses
 * the assistant ('hey haven', 'help me', 'can you', any case) or starts with '?' is a chat.
 */
export function classifyByKeywords(text: string): ContentType {
  const ruled = classifyByRules(text);
  if (ruled) return ruled;
  const normalized = text.trim().toLowerCase();
  return CHAT_PHRASES.some((phrase) => normalized.includes(phrase)) ? 'chat' : 'thought';
}
