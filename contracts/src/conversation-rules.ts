/*
 * The spec's conversation rules (sections 5 and 9), shared by the assistant service and the SPA so
 * each is written once.
 */
import { DEFAULT_CONVERSATION_TITLE } from './assistant';

/** Longest title taken from a message before the ellipsis. */
export const TITLE_LENGTH = 30;

/** A conversation's title from its first message: the first 30 characters, plus '...' if longer. */
export function titleFromText(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return DEFAULT_CONVERSATION_TITLE;
  return clean.length > TITLE_LENGTH ? `${clean.slice(0, TITLE_LENGTH)}...` : clean;
}

const EMAIL_WORDS = ['email', 'gmail', 'inbox', 'attachment', 'bcc'];

/**
 * The e-mail badge from the title and the latest three messages (case-insensitive keywords, spec 5).
 * The calendar badge has no keyword rule: it shows only when a reply read a connected calendar, as
 * 'Calendar integration used' on a chat that never touched one misled people.
 */
export function mentionsEmail(texts: string[]): boolean {
  const all = texts.join('\n').toLowerCase();
  return EMAIL_WORDS.some((w) => all.includes(w));
}

/** An e-mail found in an assistant message: its recipient, subject and body. */
export interface EmailDraft {
  to: string;
  subject: string;
  body: string;
}

/**
 * The spec's draft detection: a message counts as an e-mail when it has a 'Subject:' line (either
 * case), a greeting (Dear, Hi or Hello) and more than 100 characters. Subject and recipient come from
 * the 'Subject:' and 'To:' lines; the rest is the body.
 */
export function emailDraftIn(message: string): EmailDraft | null {
  if (message.length <= 100 || !/subject:/i.test(message) || !/\b(dear|hi|hello)\b/i.test(message))
    return null;
  let to = '';
  let subject = '';
  const body: string[] = [];
  for (const line of message.split('\n')) {
    const toLine = /^\s*(?:\*\*)?to:(?:\*\*)?\s*(.*)$/i.exec(line);
    const subjectLine = /^\s*(?:\*\*)?subject:(?:\*\*)?\s*(.*)$/i.exec(line);
    if (toLine && !to) to = toLine[1]!.trim();
    else if (subjectLine && !subject) subject = subjectLine[1]!.trim();
    else body.push(line);
  }
  return { to, subject, body: body.join('\n').trim() };
}
