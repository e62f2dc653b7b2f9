import { parse, YAMLParseError } from 'yaml';
import { StoredCategory } from '@haven/contracts/common';
import type { ImportError, ImportedThought } from '@haven/contracts/portability';

/** A Markdown or text note as one thought, or the reason it cannot be one (with its line). */
export type NoteOutcome = { thought: ImportedThought } | { error: ImportError };

const HASHTAG = /(?:^|\s)#([\p{L}\p{N}_-]{1,50})/gu;
const DATE_IN_NAME = /(\d{4})-(\d{2})-(\d{2})(?:[ T_](\d{2})[:.-]?(\d{2}))?/;

const validInstant = (d: Date) =>
  !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999;

/**
 * Reads one note of a folder-style export (Memos, Obsidian, Day One's text export): optional YAML
 * front matter (`date`, `tags`, `category`), then the text. The date comes from the front matter,
 * else the file name (`2025-03-09.md`, `2025-03-09 14.05 Walk.md`), else the file's own time;
 * tags from the front matter and the text's `#hashtags`.
 */
export function readNote(file: string, text: string, fileTime: Date): NoteOutcome {
  let body = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let meta: Record<string, unknown> = {};
  if (body.startsWith('---\n')) {
    const end = body.indexOf('\n---', 4);
    if (end < 0)
      return {
        error: { file, line: 1, message: 'The front matter that starts here is never closed with ---' },
      };
    try {
      const parsed: unknown = parse(body.slice(4, end + 1));
      if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed)))
        return { error: { file, line: 2, message: 'The front matter must be key: value lines' } };
      meta = (parsed ?? {}) as Record<string, unknown>;
    } catch (err) {
      const line = err instanceof YAMLParseError ? (err.linePos?.[0]?.line ?? 1) + 1 : 2;
      return {
        error: {
          file,
          line,
          message: `The front matter is not valid YAML: ${(err as Error).message.split('\n')[0]}`,
        },
      };
    }
    body = body.slice(body.indexOf('\n', end + 1) + 1);
  }
  const content = body.trim();
  if (!content) return { error: { file, message: 'The note is empty' } };
  if (content.length > 10_000)
    return { error: { file, message: 'The note is longer than 10000 characters' } };

  let date: Date | undefined;
  if (meta.date !== undefined) {
    date = meta.date instanceof Date ? meta.date : new Date(String(meta.date));
    if (!validInstant(date)) {
      const line = text.split('\n').findIndex((l) => /^date\s*:/i.test(l)) + 1;
      return { error: { file, line: line || 2, message: `"${String(meta.date)}" is not a date` } };
    }
  } else {
    const named = DATE_IN_NAME.exec(file.split('/').pop() ?? '');
    if (named) {
      const [, y, mo, d, h = '12', mi = '00'] = named;
      date = new Date(`${y}-${mo}-${d}T${h}:${mi}:00Z`);
    }
    if (!date || !validInstant(date)) date = fileTime;
  }

  const tags = new Set<string>();
  const metaTags = Array.isArray(meta.tags)
    ? meta.tags
    : typeof meta.tags === 'string'
      ? meta.tags.split(/[,\s]+/)
      : [];
  for (const tag of metaTags)
    if (String(tag).trim()) tags.add(String(tag).replace(/^#/, '').trim().slice(0, 50));
  for (const [, tag] of content.matchAll(HASHTAG)) tags.add(tag!);
  const category = StoredCategory.safeParse(meta.category);
  return {
    thought: {
      content,
      date: date.toISOString(),
      // Notes carry no time zone: the day is the one written in the date.
      localDate: date.toISOString().slice(0, 10),
      category: category.success ? category.data : 'personal',
      tags: [...tags].slice(0, 50),
      isVoice: false,
    },
  };
}
