/**
 * Threads as an IMAP mailbox implies them (RFC 5322 §3.6.4): a message belongs to the thread of the
 * first message its References name, else of the one its In-Reply-To names, else starts its own. A
 * thread's id carries that root's Message-ID, so reading the thread is a search for it in the inbox
 * and the sent mail; the servers' THREAD extension (RFC 5256) is not everywhere, a header search is.
 */
import { createHash } from 'node:crypto';

/** The longest Message-ID a thread id carries as it is (ids are at most 256 characters). */
const MAX_ROOT = 180;

/** Where a raw message's header section ends (its first empty line; the end when there is none). */
export function headerEnd(bytes: Buffer): number {
  const crlf = bytes.indexOf('\r\n\r\n');
  const lf = bytes.indexOf('\n\n');
  return crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf >= 0 ? lf : bytes.length;
}

/** The header section of a raw message, as text (its ids and dates are ASCII). */
export function headerSection(raw: Uint8Array): string {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  return bytes.subarray(0, headerEnd(bytes)).toString('latin1');
}

/**
 * Header fields by lower-cased name (the first of each; folded lines unfolded). Linear: one pass over
 * the lines, no pattern that backtracks.
 */
export function headerFields(section: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let name = '';
  let value = '';
  const keep = () => {
    if (name && !(name in fields)) fields[name] = value.trim();
  };
  for (const line of section.split(/\r?\n/)) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && name) {
      value += ` ${line.trim()}`;
      continue;
    }
    keep();
    const colon = line.indexOf(':');
    name = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
    value = colon > 0 ? line.slice(colon + 1) : '';
  }
  keep();
  return fields;
}

/** The message ids a header names, without their angle brackets, in order. */
export function messageIds(value: string | undefined): string[] {
  if (!value) return [];
  const ids: string[] = [];
  let from = value.indexOf('<');
  while (from >= 0) {
    const to = value.indexOf('>', from + 1);
    if (to < 0) break;
    const id = value.slice(from + 1, to).trim();
    if (id && !id.includes(' ')) ids.push(id);
    from = value.indexOf('<', to + 1);
  }
  return ids;
}

/** The Message-ID of the message that started this one's thread (its own when it starts one). */
export function threadRoot(headers: Record<string, string | undefined>): string | null {
  return (
    messageIds(headers.references)[0] ??
    messageIds(headers['in-reply-to'])[0] ??
    messageIds(headers['message-id'])[0] ??
    null
  );
}

/**
 * The thread id of a message with these headers: `t` and its root's Message-ID, or `h` and a hash of
 * an overlong one (such a thread is read as its one message). A message with no ids at all is a
 * thread of its own, named by the message's id.
 */
export function threadIdOf(headers: Record<string, string | undefined>, messageId: string): string {
  const root = threadRoot(headers);
  if (!root) return messageId;
  if (root.length > MAX_ROOT) return `h${createHash('sha256').update(root).digest('base64url').slice(0, 32)}`;
  return `t${Buffer.from(root, 'utf8').toString('base64url')}`;
}

/** The root Message-ID a thread id carries; null for one that names a single message. */
export function rootOfThread(threadId: string): string | null {
  if (!threadId.startsWith('t')) return null;
  const root = Buffer.from(threadId.slice(1), 'base64url').toString('utf8');
  return root && !/[\s<>]/.test(root) ? root : null;
}

/** Whether a message with these headers is in the thread of `root`. */
export function inThread(headers: Record<string, string | undefined>, root: string): boolean {
  return (
    messageIds(headers['message-id'])[0] === root ||
    messageIds(headers.references).includes(root) ||
    messageIds(headers['in-reply-to']).includes(root)
  );
}
