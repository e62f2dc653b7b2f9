/* The reply written without a model (Assist's 'Template', and a nudge's greeting). */

/** The first name in a sender's display name, or the part of the address before the @. */
export function firstNameOf(from: string): string {
  const name = from.includes('@') ? from.split('@')[0]!.split(/[._-]/)[0]! : from.trim().split(/\s+/)[0]!;
  const clean = name.replace(/^["']|["',]$/g, '');
  return clean ? clean[0]!.toUpperCase() + clean.slice(1) : 'there';
}

/** The reply a template gives without a model: addressed to the sender, quoting the subject. */
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
