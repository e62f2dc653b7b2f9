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
    // Links open outside the sandboxed frame, telling the other site nothing.
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' },
    }),
    // Remote images are tracking pixels as often as pictures: their address is kept aside until
    // the user asks for images. Inline (cid:) and data: images cannot be shown and are dropped.
    img: (tagName, attribs) => {
      const src = attribs.src ?? '';
      const { src: _src, ...rest } = attribs;
      return /^https?:\/\//i.test(src)
        ? { tagName, attribs: { ...rest, 'data-remote-src': src } }
        : { tagName: 'span', attribs: {}, text: attribs.alt ?? '' };
    },
  },
  exclusiveFilter: (frame) => frame.tag === 'span' && !frame.text.trim() && !frame.attribs.dir,
};

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
