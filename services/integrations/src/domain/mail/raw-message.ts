/**
 * A raw RFC 5322 message (what IMAP's FETCH BODY[] answers) as the cache keeps it: postal-mime reads
 * the MIME structure (charsets, transfer encodings, encoded words), then the same reading as Gmail's
 * messages (`readMessage`) decides who wrote it, whether a machine did, and what it asks.
 */
import PostalMime, { decodeWords } from 'postal-mime';
import { headerEnd } from './imap-threads';
import { readMessage, type MailInput, type ParsedMessage } from './message';
import { htmlToText } from './sanitize';

/** What the mailbox knows of the message beside its bytes. */
export type RawMessageMeta = Pick<MailInput, 'messageId' | 'threadId' | 'receivedAt' | 'labelIds'>;

/** Past this depth of nested parts the rest is not read (a crafted message can nest far deeper). */
const MAX_NESTING = 64;

/**
 * The header section as UTF-8: 8-bit bytes there that are not UTF-8 (old mailers writing Latin-1
 * without encoded words) are read as Windows-1252, as mail clients read them. The body is left as it
 * is; its parts name their charsets.
 */
export function headersAsUtf8(raw: Uint8Array): Uint8Array {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const end = headerEnd(bytes);
  const head = bytes.subarray(0, end);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head);
    return raw;
  } catch {
    const text = new TextDecoder('windows-1252').decode(head);
    return Buffer.concat([Buffer.from(text, 'utf8'), bytes.subarray(end)]);
  }
}

export async function parseRawMessage(raw: Uint8Array, meta: RawMessageMeta): Promise<ParsedMessage> {
  const email = await PostalMime.parse(headersAsUtf8(raw), {
    maxNestingDepth: MAX_NESTING,
    attachmentEncoding: 'arraybuffer',
  });
  const headers = email.headers.map((h) => ({ name: h.originalKey, value: decodeWords(h.value) }));
  const root = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? 'text/plain';
  const text = email.text ?? (email.html !== undefined ? htmlToText(email.html) : '');
  return readMessage({
    ...meta,
    headers,
    plain: email.text,
    html: email.html,
    // The root's type, and each part postal-mime keeps apart (a report's delivery status, an
    // invitation's answer: `text/calendar; method=REPLY`).
    partTypes: [
      root,
      ...email.attachments.map((a) => (a.method ? `${a.mimeType}; method=${a.method}` : a.mimeType)),
    ],
    snippet: text.replace(/\s+/g, ' ').trim().slice(0, 200),
  });
}
