import type { SourceEntry } from '../source';
import type { NoteDate } from './dates';
import { metaValue, normaliseText, splitFrontMatter } from './front-matter';
import { titleHeading } from './headings';
import { categoryOf, noteItems } from './note';
import { createdDate, resolveDate, updatedDate } from './note-date';
import { finalTags, metaTags, textTags } from '@haven/kit/hashtags';
import { failed, type ItemBody } from './walk';

/** How a format reads its Markdown and text files. */
export interface MarkdownOptions {
  now: Date;
  /** The title when the note names none (the file name, a Logseq page's name). */
  fallbackTitle: string;
  /** The date in the file's name, if any. */
  fileDate: NoteDate | null;
  /** The file name's date wins over any in the note (Logseq journals: the name is the day). */
  fileDateFirst?: boolean;
  /** CommonMark's indented code blocks exist (not in Logseq, whose nesting is indentation). */
  indentedCode: boolean;
  /** Takes app properties (Logseq's `key:: value` lines) off the top of the body. */
  properties?: (body: string) => { meta: Record<string, unknown>; body: string };
}

const TAG_KEYS = ['tags', 'tag', 'keywords'];

/** The title a body's first line gives (`# Title`), or null. */
function firstHeading(body: string): string | null {
  const first = /^\s*([^\n]*)/.exec(body)?.[1] ?? '';
  return titleHeading(first);
}

/**
 * The thoughts of one Markdown or text file: front matter (Markdown only) for title, dates, tags
 * and category; the first `# ` heading or the file name as title; `#tags` from the prose.
 */
export function markdownNote(
  raw: Buffer,
  entry: SourceEntry,
  kind: 'markdown' | 'text',
  options: MarkdownOptions,
): ItemBody[] {
  const text = normaliseText(raw.toString('utf8'));
  let meta: Record<string, unknown> = {};
  let body = text;
  if (kind === 'markdown') {
    const split = splitFrontMatter(text);
    if ('error' in split) return failed(split.error, split.line);
    ({ meta, body } = split);
    if (options.properties) {
      const props = options.properties(body);
      meta = { ...props.meta, ...meta };
      body = props.body;
    }
  }
  const titleValue = metaValue(meta, 'title');
  const title =
    typeof titleValue === 'string' || typeof titleValue === 'number'
      ? String(titleValue)
      : ((kind === 'markdown' ? firstHeading(body) : null) ?? options.fallbackTitle);
  const created = createdDate(meta);
  const date = resolveDate({
    created: options.fileDateFirst && options.fileDate ? null : created,
    fileName: options.fileDate,
    updated: updatedDate(meta),
    zipTime: entry.time,
    now: options.now,
  });
  const tags = finalTags(
    ...TAG_KEYS.map((key) => metaTags(metaValue(meta, key))),
    textTags(body, { indentedCode: options.indentedCode }),
  );
  return noteItems({
    title,
    body,
    format: kind,
    date,
    tags,
    category: categoryOf(metaValue(meta, 'category')),
  });
}
