import type { gmail_v1 } from 'googleapis';
import addressparser from 'nodemailer/lib/addressparser';
import { decodeEntities, plainTextToHtml, sanitiseMailHtml } from './sanitize';

/** A Gmail message as the cache keeps it. */
export interface ParsedMessage {
  messageId: string;
  threadId: string;
  receivedAt: Date;
  labelIds: string[];
  /** The sender's display name, or address when there is none. */
  from: string;
  fromFull: string;
  fromAddress: string;
  /** Addresses in To and Cc, lower-cased. */
  recipients: string[];
  subject: string;
  snippet: string;
  /** Threading headers, so a reply lands in the thread. */
  messageIdHeader?: string;
  references?: string;
  /** Sent by a machine: mailing lists, bulk mail, auto-replies. */
  automated: boolean;
  body?: { html: string; hasRemoteImages: boolean };
}

type Part = gmail_v1.Schema$MessagePart;

const headerOf = (part: Part | undefined, name: string) =>
  part?.headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? undefined;

const decode = (data: string) => Buffer.from(data, 'base64url').toString('utf8');

/** The first part of `mimeType` in the MIME tree, depth first (multipart/alternative order). */
function findPart(part: Part | undefined, mimeType: string): Part | undefined {
  if (!part) return undefined;
  if (part.mimeType === mimeType && part.body?.data && !part.filename) return part;
  for (const child of part.parts ?? []) {
    const found = findPart(child, mimeType);
    if (found) return found;
  }
  return undefined;
}

/** The HTML body, or the plain one as HTML, sanitised; undefined when the message has neither. */
function bodyOf(payload: Part | undefined): ParsedMessage['body'] {
  const html = findPart(payload, 'text/html');
  if (html?.body?.data) return sanitiseMailHtml(decode(html.body.data));
  const text = findPart(payload, 'text/plain');
  if (text?.body?.data) return { html: plainTextToHtml(decode(text.body.data)), hasRemoteImages: false };
  return undefined;
}

const addresses = (value: string | undefined) =>
  value
    ? addressparser(value, { flatten: true })
        .map((a) => a.address.toLowerCase())
        .filter(Boolean)
    : [];

/** Machine-sent mail by its headers (RFC 2369 list headers, RFC 3834 Auto-Submitted, Precedence). */
function automatedByHeaders(payload: Part | undefined): boolean {
  if (headerOf(payload, 'List-Id') || headerOf(payload, 'List-Unsubscribe')) return true;
  if (/^(bulk|list|junk)$/i.test(headerOf(payload, 'Precedence')?.trim() ?? '')) return true;
  const auto = headerOf(payload, 'Auto-Submitted')?.trim().toLowerCase();
  return auto !== undefined && auto !== 'no';
}

export function parseMessage(message: gmail_v1.Schema$Message): ParsedMessage {
  const payload = message.payload ?? undefined;
  const fromFull = headerOf(payload, 'From') ?? '';
  const [sender] = fromFull ? addressparser(fromFull, { flatten: true }) : [];
  const fromAddress = sender?.address?.toLowerCase() ?? '';
  const dateHeader = headerOf(payload, 'Date');
  const received = message.internalDate
    ? new Date(Number(message.internalDate))
    : dateHeader
      ? new Date(dateHeader)
      : new Date();
  return {
    messageId: message.id ?? '',
    threadId: message.threadId ?? message.id ?? '',
    receivedAt: Number.isNaN(received.getTime()) ? new Date() : received,
    labelIds: message.labelIds ?? [],
    from: sender?.name || fromAddress || fromFull,
    fromFull,
    fromAddress,
    recipients: [...addresses(headerOf(payload, 'To')), ...addresses(headerOf(payload, 'Cc'))],
    subject: headerOf(payload, 'Subject') ?? '',
    // Gmail's snippets are HTML-escaped text.
    snippet: decodeEntities(message.snippet ?? ''),
    messageIdHeader: headerOf(payload, 'Message-ID') ?? headerOf(payload, 'Message-Id'),
    references: headerOf(payload, 'References'),
    automated: automatedByHeaders(payload),
    body: bodyOf(payload),
  };
}
