/*
 * How a link in an assistant message may be opened, decided the same way wherever it is checked (the
 * SPA's renderer, the hostile-content tests). A reply is written by a model that reads other people's
 * text, so a link may be an attempt to carry the user's data away in its address.
 */

/** What the user's own data names: hosts that open without asking, and text a link must not carry. */
export interface LinkScope {
  /** Addresses found as they are in the user's data (a Notion page, a link in a mail): opened as they are. */
  urls: ReadonlySet<string>;
  hosts: ReadonlySet<string>;
  /** The conversation's text (without its links), lower-cased. */
  text: string;
}

export type LinkVerdict =
  | { kind: 'refused'; host: string | null }
  | { kind: 'open' | 'confirm'; href: string; host: string; stripped: boolean };

/** Longer than this, a decoded query or fragment is taken to carry data. */
const MAX_PARAMS = 64;
/** A longer path segment (decoded) carries data. */
const MAX_SEGMENT = 48;
const EMAIL = /[^\s@/?#&=]+@[^\s@/?#&=]+\.[a-z]{2,}/i;
const BLOB = /[A-Za-z0-9+/_-]{24,}={0,2}/;

function decode(value: string): string {
  let text = value.replace(/\+/g, ' ');
  // Twice: data is often encoded twice to slip past a single decode.
  for (let i = 0; i < 2; i++) {
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return text.toLowerCase();
}

const words = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

/** Three words in a row that also follow each other in the conversation. */
function quotes(decoded: string, conversation: string): boolean {
  const w = words(decoded);
  for (let i = 0; i + 3 <= w.length; i++) {
    if (conversation.includes(w.slice(i, i + 3).join(' '))) return true;
  }
  return false;
}

/** Whether this piece of an address carries data: long, an address or a blob, or the user's words. */
function carries(raw: string, scope: LinkScope, max: number): boolean {
  const decoded = decode(raw);
  return decoded.length > max || EMAIL.test(decoded) || BLOB.test(decoded) || quotes(decoded, scope.text);
}

/** The conversation text a link is checked against: links removed, words joined by single spaces. */
export function scopeText(texts: string[]): string {
  return texts
    .map((t) => words(t.replace(/\bhttps?:\/\/\S+/gi, ' ')).join(' '))
    .join(' \n ')
    .toLowerCase();
}

/**
 * The verdict on one link: `refused` when it is not http(s) or its path carries data; else its host,
 * with the query and fragment removed when they carry data, and `confirm` when the host is not one
 * the user's own data names.
 */
export function judgeLink(href: string, scope: LinkScope): LinkVerdict {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return { kind: 'refused', host: null };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { kind: 'refused', host: null };
  const host = url.hostname.toLowerCase();
  // Copied from the user's data, it cannot carry what the model read there (its author never saw it).
  if (scope.urls.has(href)) return { kind: 'open', href, host, stripped: false };
  if (url.username || url.password || url.pathname.split('/').some((s) => carries(s, scope, MAX_SEGMENT)))
    return { kind: 'refused', host };
  const params = url.search.slice(1) + url.hash.slice(1);
  const stripped = params !== '' && carries(params, scope, MAX_PARAMS);
  if (stripped) {
    url.search = '';
    url.hash = '';
  }
  const known = [...scope.hosts].some((h) => host === h || host.endsWith(`.${h}`));
  return { kind: known ? 'open' : 'confirm', href: url.toString(), host, stripped };
}

/** The http(s) addresses in `text`, as written (trailing punctuation left out). */
export function linksIn(text: string): string[] {
  return [...new Set(text.match(/\bhttps?:\/\/[^\s<>()"'\]]+/gi) ?? [])].map((u) =>
    u.replace(/[.,;:!?*_]+$/, ''),
  );
}

/**
 * The scope of a conversation: addresses from the user's own messages and from what its replies'
 * tools read (`seen`), never from the replies themselves; all its text, against data-carrying links.
 */
export function linkScope(conversation: { mine: string[]; replies: string[]; seen: string[] }): LinkScope {
  const urls = new Set([...conversation.seen, ...conversation.mine.flatMap(linksIn)]);
  const hosts = new Set<string>();
  for (const u of urls) {
    try {
      hosts.add(new URL(u).hostname.toLowerCase());
    } catch {
      // Not an address after all.
    }
  }
  return { urls, hosts, text: scopeText([...conversation.mine, ...conversation.replies]) };
}
