import type { gmail_v1 } from 'googleapis';
import addressparser from 'nodemailer/lib/addressparser';
import { readAsks, splitText } from './asks';
import { machineSignals } from './machine-signals';
import { decodeEntities, htmlToText, plainTextToHtml, sanitiseMailHtml } from './sanitize';

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
  /**
   * Why a machine sent it (mailing list, newsletter, notice, receipt, auto-reply), by rule name
   * (see `machineSignals`); empty for a person's mail.
   */
  machine: string[];
  /** Why a person's mail asks something of the reader (see `readAsks`); empty when it asks nothing. */
  asks: string[];
  /**
   * What the sender wrote now: quoted replies, forwarded mail and the signature removed (empty for
   * machines' mail, which is not read that far).
   */
  ownText: string;
  body?: { html: string; hasRemoteImages: boolean };
}

type Part = gmail_v1.Schema$MessagePart;

const headerOf = (part: Part | undefined, name: string) =>
  part?.headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? undefined;

const decode = (data: string) => Buffer.from(data, 'base64url').toString('utf8');

/**
 * Every part of the MIME tree, depth first, each before its children. With a stack rather than
 * recursion: a crafted message can nest parts deeper than the call stack goes.
 */
function partsOf(root: Part | undefined): Part[] {
  const found: Part[] = [];
  const stack = root ? [root] : [];
  while (stack.length > 0) {
    const part = stack.pop()!;
    found.push(part);
    const children = part.parts ?? [];
    for (let i = children.length - 1; i >= 0; i--) if (children[i]) stack.push(children[i]!);
  }
  return found;
}

/** The first part of `mimeType` in the MIME tree, depth first (multipart/alternative order). */
const findPart = (root: Part | undefined, mimeType: string) =>
  partsOf(root).find((part) => part.mimeType === mimeType && part.body?.data && !part.filename);

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

/** The body as text: the plain part, or the HTML part's visible text. */
function textOf(payload: Part | undefined): string {
  const text = findPart(payload, 'text/plain');
  if (text?.body?.data) return decode(text.body.data);
  const html = findPart(payload, 'text/html');
  return html?.body?.data ? htmlToText(decode(html.body.data)) : '';
}

/**
 * Every part's type with its parameters (`text/calendar; method=REPLY`), depth first. (Each part's
 * list was copied into its parent's: the square of the depth.)
 */
const partTypes = (root: Part | undefined) =>
  partsOf(root).map((part) => headerOf(part, 'Content-Type') ?? part.mimeType ?? '');

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
  const subject = headerOf(payload, 'Subject') ?? '';
  const labelIds = message.labelIds ?? [];
  let split: ReturnType<typeof splitText> | undefined;
  const text = () => (split ??= splitText(textOf(payload)));
  const recipients = [...addresses(headerOf(payload, 'To')), ...addresses(headerOf(payload, 'Cc'))];
  const machine = machineSignals({
    headers: payload?.headers ?? [],
    labelIds,
    fromAddress,
    recipients,
    subject,
    text: () => text().unquoted,
    partTypes: partTypes(payload),
  });
  return {
    messageId: message.id ?? '',
    threadId: message.threadId ?? message.id ?? '',
    receivedAt: Number.isNaN(received.getTime()) ? new Date() : received,
    labelIds,
    from: sender?.name || fromAddress || fromFull,
    fromFull,
    fromAddress,
    recipients,
    subject,
    // Gmail's snippets are HTML-escaped text.
    snippet: decodeEntities(message.snippet ?? ''),
    messageIdHeader: headerOf(payload, 'Message-ID') ?? headerOf(payload, 'Message-Id'),
    references: headerOf(payload, 'References'),
    machine,
    // Machines' mail is never waited on, whatever it says.
    asks: machine.length > 0 ? [] : readAsks({ subject, own: text().own }).reasons,
    ownText: machine.length > 0 ? '' : text().own,
    body: bodyOf(payload),
  };
}
