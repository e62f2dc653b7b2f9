import type { ExportedConversation, ExportedThought } from '@haven/contracts/portability';

const LONG_DAY = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The wall-clock time the writer saw, with its offset: `date` is the UTC instant, `timezoneOffset`
 * the browser's `getTimezoneOffset()` when saved (minutes, positive west of UTC), so local time is
 * UTC minus it. "15:00 UTC+01:00"; plain "14:00 UTC" when the offset is zero or unknown.
 */
export function localTimeLabel(date: string, timezoneOffset: number | null): string {
  const offset = timezoneOffset ?? 0;
  const time = new Date(Date.parse(date) - offset * 60_000).toISOString().slice(11, 16);
  if (offset === 0) return `${time} UTC`;
  const east = -offset;
  const abs = Math.abs(east);
  return `${time} UTC${east > 0 ? '+' : '-'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** One day of thoughts as Markdown: the date, then each thought with its time, category and tags. */
export function dayMarkdown(localDate: string, thoughts: ExportedThought[]): string {
  const lines = [`# ${LONG_DAY.format(new Date(`${localDate}T12:00:00Z`))}`, ''];
  for (const t of thoughts) {
    const time = localTimeLabel(t.date, t.timezoneOffset);
    const tags = t.tags.map((tag) => `#${tag.replace(/\s+/g, '-')}`).join(' ');
    lines.push(`## ${time} · ${t.category}${t.isVoice ? ' · voice' : ''}${tags ? ` · ${tags}` : ''}`, '');
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
