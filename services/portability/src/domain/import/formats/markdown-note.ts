import type { SourceEntry } from '../source';
import type { NoteDate } from './dates';
import { metaValue, normaliseText, splitFrontMatter, type MetaProblem } from './front-matter';
import { headingText, titleHeading } from './headings';
import { categoryOf, noteItems } from './note';
import { createdDate, resolveDate, updatedDate } from './note-date';
import { finalTags, metaTags, textTags } from '@haven/kit/hashtags';
import type { ItemBody } from './walk';

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
  /** The note is titled by its first line, a heading of any level or not (a TextBundle's). */
  titleFromFirstLine?: boolean;
  /** Metadata kept beside the note (a TextBundle's `info.json`): dates the note if its own text does not. */
  sidecar?: Record<string, unknown>;
}

const TAG_KEYS = ['tags', 'tag', 'keywords'];

/** A body's first line that is not blank. */
const firstLine = (body: string) => /^\s*([^\n]*)/.exec(body)?.[1] ?? '';

/** The title a body's first line gives (`# Title`), or null. */
const firstHeading = (body: string) => titleHeading(firstLine(body));

/** A first line as a title: a heading's text (any level), else the line itself. */
function firstLineTitle(body: string): string | null {
  const line = firstLine(body).trim();
  return headingText(line) ?? (line || null);
}

/** The front matter that could not be read whole, kept at the top of the note (after its heading). */
function keepVisible(body: string, kept: string): string {
  // A fence longer than any run of backticks in it, so nothing inside can close it.
  let longest = 2;
  for (let i = 0, run = 0; i < kept.length; i++) {
    run = kept[i] === '`' ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  const fence = '`'.repeat(longest + 1);
  const block = `${fence}yaml\n${kept}${kept.endsWith('\n') ? '' : '\n'}${fence}\n\n`;
  const lead = /^\s*[^\n]*/.exec(body)![0];
  if (!headingText(lead.trim())) return block + body;
  return `${lead}\n\n${block}${body.slice(lead.length).replace(/^\s*\n/, '')}`;
}

/**
 * The thoughts of one Markdown or text file: front matter (Markdown only) for title, dates, tags
 * and category; the first `# ` heading or the file name as title; `#tags` from the prose. Front
 * matter read only in part (not valid YAML) still gives the note, what it could not read kept at
 * the top of the text and named in the report (the thought's `note`).
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
  let kept: string | undefined;
  let problem: MetaProblem | undefined;
  if (kind === 'markdown') {
    ({ meta, body, kept, problem } = splitFrontMatter(text));
    if (options.properties) {
      const props = options.properties(body);
      meta = { ...props.meta, ...meta };
      body = props.body;
    }
  }
  const titleValue = metaValue(meta, 'title');
  const fromText = options.titleFromFirstLine ? firstLineTitle(body) : firstHeading(body);
  const title =
    typeof titleValue === 'string' || typeof titleValue === 'number'
      ? String(titleValue)
      : ((kind === 'markdown' ? fromText : null) ?? options.fallbackTitle);
  const sidecar = options.sidecar ?? {};
  const created = createdDate(meta) ?? createdDate(sidecar);
  const date = resolveDate({
    created: options.fileDateFirst && options.fileDate ? null : created,
    fileName: options.fileDate,
    updated: updatedDate(meta) ?? updatedDate(sidecar),
    zipTime: entry.time,
    now: options.now,
  });
  const tags = finalTags(
    ...TAG_KEYS.map((key) => metaTags(metaValue(meta, key))),
    textTags(body, { indentedCode: options.indentedCode }),
  );
  return noteItems({
    title,
    body: kept === undefined ? body : keepVisible(body, kept),
    format: kind,
    date,
    tags,
    category: categoryOf(metaValue(meta, 'category')),
    titleInBody:
      options.titleFromFirstLine && typeof titleValue !== 'string' && typeof titleValue !== 'number',
    ...(problem ? { note: `Line ${problem.line}: ${problem.reason}` } : {}),
  });
}
