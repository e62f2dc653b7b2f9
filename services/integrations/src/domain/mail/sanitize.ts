import sanitizeHtml from 'sanitize-html';

/** What a mail body may keep: structure, text formatting, tables, links and images (held back). */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags.filter((tag) => tag !== 'style'),
    'img',
    'font',
    'center',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['data-remote-src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan', 'align', 'valign'],
    th: ['colspan', 'rowspan', 'align', 'valign', 'scope'],
    table: ['width', 'align'],
    '*': ['dir', 'lang'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  // Script, style, form controls and frames go with everything inside them.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'head', 'iframe', 'object'],
  transformTags: {
    // Links open in a new tab, outside the sandboxed frame, telling the other site nothing; only
    // web and mail addresses, read as a browser would (see linkTarget).
    a: (tagName, { href, ...attribs }) => {
      const target = href === undefined ? undefined : linkTarget(href);
      return {
        tagName,
        attribs: {
          ...(target ? { href: target } : {}),
          ...attribs,
          target: '_blank',
          rel: 'noopener noreferrer nofollow',
        },
      };
    },
    // Remote images are tracking pixels as often as pictures: their address is kept aside until
    // the user asks for images. Inline (cid:) and data: images cannot be shown and are dropped.
    // (An address already held back stays so: sanitising a sanitised body changes nothing.)
    img: (tagName, attribs) => {
      const src = attribs.src ?? attribs['data-remote-src'] ?? '';
      const { src: _src, 'data-remote-src': _held, ...rest } = attribs;
      return /^https?:\/\//i.test(src)
        ? { tagName, attribs: { ...rest, 'data-remote-src': src } }
        : { tagName: 'span', attribs: {}, text: attribs.alt ?? '' };
    },
  },
  // An image that cannot be shown and had no alt text leaves no empty span behind. (A transformed
  // tag's frame keeps the original tag; its new name and its text are in `name` and `innerText`.)
  exclusiveFilter: (frame) => {
    const { name, innerText } = frame as typeof frame & { name?: string; innerText?: string };
    // sanitize-html adds each closed element's text to its parent's, and this reads it: read
    // whole at every level, the text of nested spans took the square of the body (1 s for 511
    // spans around 1 MB). Whether it shows anything is all that is read of it, so that is all it
    // passes on: one character or none.
    const shows = /\S/.test(frame.text);
    frame.text = shows ? '.' : '';
    const empty = innerText === undefined ? !shows : !innerText.trim();
    return (name ?? frame.tag) === 'span' && empty && !frame.attribs.dir;
  },
};

/**
 * How deep elements may nest, and how many SVG and MathML elements (with the HTML inside them) a
 * body may open. htmlparser2 keeps its open elements, and whether each is foreign, in arrays it adds
 * to at the front (and searches on every close), so both cost the square of their length: a
 * megabyte of `<b>` took 110 s to sanitise, of `<div><svg></div>` 3 s. No mail a person reads nests
 * that deep (Chromium's HTML parser stops nesting at 512 too); a body that does is read as text.
 */
const MAX_DEPTH = 512;
const FOREIGN = new Set([
  'math',
  'svg',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
  'foreignobject',
  'desc',
  'title',
]);

class TooDeep extends Error {}

/** sanitize-html's result, or undefined when the HTML nests past MAX_DEPTH (it stops there). */
function sanitizeBounded(html: string, options: sanitizeHtml.IOptions): string | undefined {
  let depth = 0;
  let foreign = 0;
  try {
    return sanitizeHtml(html, {
      ...options,
      onOpenTag: (name) => {
        if (++depth > MAX_DEPTH || (FOREIGN.has(name) && ++foreign > MAX_DEPTH)) throw new TooDeep();
      },
      onCloseTag: () => {
        depth--;
      },
    });
  } catch (err) {
    if (err instanceof TooDeep) return undefined;
    throw err;
  }
}

/** Comments and tags, each to its end (or the text's), in one pass. */
const MARKUP = /<!--[\s\S]*?(?:-->|$)|<[^>]*>?/g;

/** The text of HTML that nests too deep to parse: its markup removed, its entities left. */
const withoutMarkup = (html: string) => html.replace(MARKUP, ' ');

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Text escaped for HTML as sanitize-html escapes it (so that sanitising it again changes nothing). */
const escapeText = (text: string) => text.replace(/[&<>]/g, (c) => ESCAPES[c]!);

/** Escaped text as HTML paragraphs: a blank line parts them, a line break is `<br>`. */
const paragraphs = (escaped: string) =>
  escaped
    .split(/\r?\n\s*\r?\n/)
    .map((para) => `<p>${para.replace(/\r?\n/g, '<br>')}</p>`)
    .join('');

/**
 * Whitespace and control characters of every kind (Unicode's separators, format and control
 * characters, as U+2028, U+00A0, U+200B): a browser ignores some of them inside a URL's scheme, so
 * "\u2028javascript:" must not pass for a relative link.
 */
const INVISIBLE = /[\p{C}\p{Z}\s]/gu;

/**
 * The address a mail link may open: http(s) or mailto, with what a browser would skip removed;
 * anything else (javascript:, data:, a relative path that means nothing in a mail) is dropped.
 */
export function linkTarget(href: string): string | undefined {
  const bare = href.replace(INVISIBLE, '');
  return /^(https?:\/\/|mailto:)/i.test(bare) ? bare : undefined;
}

export interface SanitisedBody {
  html: string;
  /** Images were held back (the dialog offers 'Show images'). */
  hasRemoteImages: boolean;
}

/**
 * A mail body made safe to show: no scripts, event handlers, forms, frames or styles (which could
 * escape their box or load remote content), and remote images held back as `data-remote-src`.
 */
export function sanitiseMailHtml(html: string): SanitisedBody {
  const clean = sanitizeBounded(html, OPTIONS) ?? paragraphs(escapeText(decodeEntities(withoutMarkup(html))));
  return { html: clean, hasRemoteImages: clean.includes('data-remote-src=') };
}

/** A plain-text body as HTML: escaped, paragraphs kept, links left as text. */
export function plainTextToHtml(text: string): string {
  const escaped =
    sanitizeBounded(text, { allowedTags: [], allowedAttributes: {}, disallowedTagsMode: 'escape' }) ??
    escapeText(text);
  return paragraphs(escaped);
}

/** The visible text of a sanitised body, for a model's prompt (when includeFullContent is on). */
export function htmlToText(html: string): string {
  const marked = html.replace(/<\/(p|div|br|tr|li|h\d)>/gi, '\n$&');
  const text = (
    sanitizeBounded(marked, { allowedTags: [], allowedAttributes: {} }) ?? withoutMarkup(marked)
  ).replace(/&nbsp;/g, ' ');
  return decodeEntities(text)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Text that HTML-escapes `<`, `>`, `"`, `'` and `&` (sanitised text, Gmail's snippets), unescaped. */
export function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
