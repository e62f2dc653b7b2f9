import { decodeHTML } from 'entities';
import { inMegabytes } from '@haven/contracts/portability';
import type { ImportSource, SourceEntry } from '../source';
import { dateFromFileName } from './dates';
import { baseName, extensionOf, stem } from './entries';
import { htmlToMarkdown } from './html-markdown';
import { markdownNote } from './markdown-note';
import { failed, type ItemBody } from './walk';

/**
 * A note kept as a web page: what the Apple Notes exporters write (one `.html` file per note in a
 * folder per Notes folder, the note's own HTML: `<div><h1>Title</h1></div><div>…</div>`, images
 * inline as `data:` URIs or beside it), and Evernote's or Notion's HTML exports.
 */

/**
 * An exporter inlines a note's photos, so a note of a few lines can weigh megabytes: such a file is
 * read up to this, its inline images dropped before it is parsed (the 1 MB limit of a note is what
 * is left of it).
 */
export const HTML_NOTE_BYTES = 16 * 1024 * 1024;
/** What is left of a page once its inline images are dropped, at most (a note's limit). */
const TEXT_BYTES = 1024 * 1024;

export const isHtmlPage = (name: string) => ['html', 'htm', 'xhtml'].includes(extensionOf(name));

/**
 * `src="data:…"` and `href="data:…"` attribute values emptied: an inline image or file is not
 * imported (as no attachment is), and its bytes never reach the HTML parser. Linear: each value's
 * end is found once, from where it starts (one left open empties the rest of the page).
 */
export function withoutInlineData(html: string): string {
  const opener = /\s(?:src|href)\s*=\s*(["'])data:/gi;
  const parts: string[] = [];
  let kept = 0;
  for (let found = opener.exec(html); found; found = opener.exec(html)) {
    const valueAt = found.index + found[0].length - 'data:'.length;
    const close = html.indexOf(found[1]!, valueAt);
    parts.push(html.slice(kept, valueAt));
    if (close === -1) return parts.join('');
    kept = close;
    opener.lastIndex = close + 1;
  }
  parts.push(html.slice(kept));
  return parts.join('');
}

/** An attribute's value in a tag's text (`name="value"`, single quotes or none), or null. */
function attribute(tag: string, name: string): string | null {
  const found = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return found ? decodeHTML(found[1] ?? found[2] ?? found[3] ?? '') : null;
}

/** How much of a page is looked through for its head, and how long a meta tag is read. */
const HEAD_BYTES = 64 * 1024;
const META_TAG_BYTES = 2048;

/**
 * What a page's head says of its note: its `<title>`, and its `<meta name=… content=…>` values
 * (an exporter's `created`, `modified`), from the text before `<body>` (its first 64 KB at most).
 * Found with indexOf, a tag at a time: linear whatever the page holds.
 */
export function pageHead(html: string): { title: string | null; meta: Record<string, string> } {
  const start = html.slice(0, HEAD_BYTES);
  const lower = start.toLowerCase();
  const body = lower.search(/<body[\s>]/);
  const head = body === -1 ? start : start.slice(0, body);
  const headLower = body === -1 ? lower : lower.slice(0, body);
  let title: string | null = null;
  const titleAt = headLower.indexOf('<title');
  const titleOpen = titleAt === -1 ? -1 : headLower.indexOf('>', titleAt);
  const titleClose = titleOpen === -1 ? -1 : headLower.indexOf('</title', titleOpen);
  if (titleClose !== -1)
    title =
      decodeHTML(head.slice(titleOpen + 1, titleClose))
        .replace(/\s+/g, ' ')
        .trim() || null;
  const meta: Record<string, string> = {};
  for (let at = headLower.indexOf('<meta'); at !== -1; at = headLower.indexOf('<meta', at + 1)) {
    const end = headLower.indexOf('>', at);
    if (end === -1) break;
    if (end - at > META_TAG_BYTES) continue;
    const tag = head.slice(at, end + 1);
    const name = attribute(tag, 'name') ?? attribute(tag, 'property') ?? attribute(tag, 'itemprop');
    const content = attribute(tag, 'content');
    const key = name?.replace(/^(?:dc|dcterms|article):/i, '');
    if (key && content !== null && !(key in meta)) meta[key] = content;
  }
  return { title, meta };
}

/** The page without its head (its title and styles would read as text), or its `<title>` when it has no head. */
function withoutHead(html: string): string {
  const lower = html.toLowerCase();
  const cut = (open: number, close: string) => {
    const end = open === -1 ? -1 : lower.indexOf(close, open);
    return end === -1 ? null : html.slice(0, open) + html.slice(end + close.length);
  };
  return cut(lower.search(/<head[\s>]/), '</head>') ?? cut(lower.search(/<title[\s>]/), '</title>') ?? html;
}

/** Apple Notes' blank lines (`<div><br></div>`) leave lines of spaces: blank, and at most one in a row. */
const tidyBlankLines = (markdown: string) => markdown.replace(/^[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n');

/**
 * One page as a note: its body as Markdown (the converter every HTML note goes through), titled by
 * its first heading, else its `<title>`, else its file name; dated by its meta tags, the date in its
 * file name, else the file's time; tagged by its own #tags.
 */
export async function htmlNote(
  source: ImportSource,
  entry: SourceEntry,
  rel: string,
  now: Date,
): Promise<ItemBody[]> {
  if (entry.size > HTML_NOTE_BYTES)
    return failed(
      `The page is larger than ${inMegabytes(HTML_NOTE_BYTES)}, the limit of one page; it was not imported`,
    );
  const html = withoutInlineData((await source.read(entry.name, HTML_NOTE_BYTES)).toString('utf8'));
  if (Buffer.byteLength(html) > TEXT_BYTES)
    return failed(
      `The page holds more than ${inMegabytes(TEXT_BYTES)} without its inline images, the limit of one note; it was not imported`,
    );
  const head = pageHead(html);
  const markdown = tidyBlankLines(htmlToMarkdown(withoutHead(html)));
  return markdownNote(Buffer.from(markdown), entry, 'markdown', {
    now,
    fallbackTitle: head.title ?? stem(rel),
    fileDate: dateFromFileName(baseName(rel)),
    indentedCode: true,
    sidecar: head.meta,
  });
}
