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
    return (name ?? frame.tag) === 'span' && !(innerText ?? frame.text).trim() && !frame.attribs.dir;
  },
};

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
  const clean = sanitizeHtml(html, OPTIONS);
  return { html: clean, hasRemoteImages: clean.includes('data-remote-src=') };
}

/** A plain-text body as HTML: escaped, paragraphs kept, links left as text. */
export function plainTextToHtml(text: string): string {
  const escaped = sanitizeHtml(text, {
    allowedTags: [],
    allowedAttributes: {},
    disallowedTagsMode: 'escape',
  });
  return escaped
    .split(/\r?\n\s*\r?\n/)
    .map((para) => `<p>${para.replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

/** The visible text of a sanitised body, for a model's prompt (when includeFullContent is on). */
export function htmlToText(html: string): string {
  const text = sanitizeHtml(html.replace(/<\/(p|div|br|tr|li|h\d)>/gi, '\n$&'), {
    allowedTags: [],
    allowedAttributes: {},
  }).replace(/&nbsp;/g, ' ');
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
