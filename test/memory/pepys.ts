import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZipFile } from 'yazl';
import { MONTHS } from '@haven/contracts/english-dates';

/*
 * Samuel Pepys' diary (../shared/corpora/journal/pepys, Standard Ebooks' XHTML, one chapter per month)
 * as a diarist's daily notes: one Markdown file per day, `journal/YYYY-MM-DD.md`, its day also in the
 * front matter (`date:`), as Obsidian daily notes are kept. The day is the one Pepys wrote: the
 * chapter's month and year ("January 1659–60" is 1660) and the first day named in the entry's
 * <time> ("Jan. 1st", "8th, 9th, 10th"); an undated preamble belongs to the next entry.
 */

export interface DiaryEntry {
  /** yyyy-MM-dd */
  date: string;
  /** Paragraphs, separated by blank lines. */
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** An XHTML fragment's text: endnote references out, tags out, entities read, spaces tidied. */
function textOf(html: string): string {
  return html
    .replace(/<a [^>]*epub:type="noteref"[^>]*>[^<]*<\/a>/g, '')
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x?[0-9a-f]+|\w+);/gi, (all, name: string) =>
      name.startsWith('#')
        ? String.fromCodePoint(
            name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : +name.slice(1),
          )
        : (ENTITIES[name] ?? all),
    )
    .replace(/\u2060/g, '')
    .replace(/[ \t\u00a0]+/g, ' ')
    .trim();
}

/** The diary's entries, one per day, oldest first. */
export function readPepys(dir: string): DiaryEntry[] {
  const files = readdirSync(dir)
    .filter((f) => /^chapter-\d+\.xhtml$/.test(f))
    .sort((a, b) => +a.match(/\d+/)![0] - +b.match(/\d+/)![0]);
  const byDay = new Map<string, string[]>();
  let pending: string[] = [];
  for (const file of files) {
    const html = readFileSync(join(dir, file), 'utf8');
    const title = /<title>([^<]+)<\/title>/.exec(html)![1]!;
    const [, monthName, y1, y2] = /^(\w+)\s+(\d{4})(?:\D+(\d{2,4}))?/.exec(title)!;
    const month = MONTHS.findIndex((m) => m.toLowerCase() === monthName!.toLowerCase()) + 1;
    if (month < 1) throw new Error(`no month in chapter title ${title}`);
    // "January 1659–60": the new year's number (the year began on Lady Day then).
    const year = y2 ? +`${y1!.slice(0, 4 - y2.length)}${y2}` : +y1!;
    for (const article of html.matchAll(/<article[^>]*z3998:diary-entry[^>]*>([\s\S]*?)<\/article>/g)) {
      const body = article[1]!;
      const paragraphs = [...body.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)]
        .map((p) => textOf(p[1]!))
        .filter(Boolean);
      const time = /<time[^>]*>([\s\S]*?)<\/time>/.exec(body);
      if (!time) {
        pending.push(...paragraphs);
        continue;
      }
      const day = +/(\d{1,2})/.exec(textOf(time[1]!))![1]!;
      const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      const kept = byDay.get(date) ?? [];
      kept.push(...pending, ...paragraphs);
      byDay.set(date, kept);
      pending = [];
    }
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, paragraphs]) => ({ date, text: paragraphs.join('\n\n') }));
}

/** A daily note as a user's Markdown folder holds it. */
export const dailyNote = (entry: DiaryEntry) => `---\ndate: ${entry.date}\n---\n\n${entry.text}\n`;

/** The diary as a zip of a Markdown folder: `journal/YYYY-MM-DD.md`, one per day. */
export function pepysZip(entries: DiaryEntry[]): Promise<Buffer> {
  const zip = new ZipFile();
  const mtime = new Date('2026-01-01T08:00:00Z');
  for (const entry of entries)
    zip.addBuffer(Buffer.from(dailyNote(entry)), `journal/${entry.date}.md`, { mtime });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** Longest thought (MAX_CONTENT_LENGTH): longer entries are cut between paragraphs, as an import cuts them. */
const MAX_THOUGHT = 10_000;

/**
 * The diary as the import route's thought items (what the portability service sends the thoughts
 * service after reading the zip): one per day, entries longer than a thought cut between paragraphs.
 */
export function importItems(entries: DiaryEntry[]) {
  return entries.flatMap((entry) => {
    const parts: string[] = [];
    let part = `# ${entry.date}`;
    for (const paragraph of entry.text.split('\n\n')) {
      if (part.length + paragraph.length + 2 > MAX_THOUGHT) {
        parts.push(part);
        part = '';
      }
      // A paragraph longer than a thought is cut between words.
      let rest = paragraph;
      while (rest.length > MAX_THOUGHT) {
        const cut = rest.lastIndexOf(' ', MAX_THOUGHT - 1);
        parts.push(rest.slice(0, cut));
        rest = rest.slice(cut + 1);
      }
      part = part ? `${part}\n\n${rest}` : rest;
    }
    parts.push(part);
    return parts.map((content, i) => ({
      key: `pepys-${entry.date}-${i}`,
      content,
      title: i === 0 ? entry.date : null,
      date: `${entry.date}T12:00:00.000Z`,
      localDate: entry.date,
      category: 'personal' as const,
      tags: [],
      isVoice: false,
      format: 'markdown' as const,
    }));
  });
}
