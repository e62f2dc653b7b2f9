/*
 * How Haven addresses a reply, the same on both sides: the server's template (Assist's 'Template'
 * with no model, a follow-up's nudge) and the e-mail dialog's 'Template' and reply fields. One copy,
 * so the greeting a person sees in the dialog is the one the server writes.
 */

/**
 * The address inside `Name <address>`, or the whole header when it is a bare address; lower-cased.
 * A header with no address at all (a display name only) gives ''.
 */
export function addressOf(header: string): string {
  const inside = /<([^<>]+)>/.exec(header)?.[1];
  const address = inside ?? (header.includes('@') ? header : '');
  return address.trim().toLowerCase();
}

/** The subject of an answer in the thread: the original's with one 'Re: '. */
export function replySubject(subject: string): string {
  const trimmed = subject.trim();
  return /^re:/i.test(trimmed) ? trimmed : `Re: ${trimmed}`.trim();
}

/**
 * The first name to greet: the first word of a display name, or of an address's local part
 * (`jane.doe@…` is 'Jane'); 'there' when there is none.
 */
export function firstNameOf(from: string): string {
  const name = from.includes('@') ? from.split('@')[0]!.split(/[._-]/)[0]! : from.trim().split(/\s+/)[0]!;
  const clean = name.replace(/^["']|["',]$/g, '');
  return clean ? clean[0]!.toUpperCase() + clean.slice(1) : 'there';
}

/** The reply written without a model: a greeting and a thank-you line, addressed to the sender. */
export function templateReply(from: string, subject: string): string {
  const about = subject.trim() ? ` about "${subject.trim()}"` : '';
  return [
    `Hi ${firstNameOf(from)},`,
    '',
    `Thank you for your email${about}. I have read it and will get back to you shortly.`,
    '',
    'Best regards,',
  ].join('\n');
}
