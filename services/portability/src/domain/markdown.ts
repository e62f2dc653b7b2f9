import type { ExportedConversation, ExportedThought } from '@haven/contracts/portability';

const LONG_DAY = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** One day of thoughts as Markdown: the date, then each thought with its time, category and tags. */
export function dayMarkdown(localDate: string, thoughts: ExportedThought[]): string {
  const lines = [`# ${LONG_DAY.format(new Date(`${localDate}T12:00:00Z`))}`, ''];
  for (const t of thoughts) {
    const time = t.date.slice(11, 16);
    const tags = t.tags.map((tag) => `#${tag.replace(/\s+/g, '-')}`).join(' ');
    lines.push(`## ${time} UTC · ${t.category}${t.isVoice ? ' · voice' : ''}${tags ? ` · ${tags}` : ''}`, '');
    lines.push(t.content || '_(voice note without text)_', '');
  }
  return lines.join('\n');
}

/** A conversation as Markdown: its title and date, then each message by who wrote it. */
export function conversationMarkdown(c: ExportedConversation): string {
  const lines = [`# ${c.title}`, '', `_Started ${c.createdAt}_`, ''];
  for (const m of c.messages)
    lines.push(`**${m.type === 'user' ? 'You' : 'Assistant'}** (${m.createdAt})`, '', m.content, '');
  return lines.join('\n');
}

/** A file-name-safe slug of a title. */
export const slug = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .slice(0, 40) || 'conversation';
