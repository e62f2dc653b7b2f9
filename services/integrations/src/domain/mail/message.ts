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

const addresses = (value: string | undefined) =>
  value
    ? addressparser(value, { flatten: true })
        .map((a) => a.address.toLowerCase())
        .filter(Boolean)
    : [];

/**
 * Every part's type with its parameters (`text/calendar; method=REPLY`), depth first. (Each part's
 * list was copied into its parent's: the square of the depth.)
 */
const partTypes = (root: Part | undefined) =>
  partsOf(root).map((part) => headerOf(part, 'Content-Type') ?? part.mimeType ?? '');

/**
 * A message as any mailbox gives it, decoded: what `readMessage` makes a ParsedMessage of. Gmail's
 * API (`parseMessage`) and raw RFC 5322 bytes (`parseRawMessage`, for IMAP) each fill it.
 */
export interface MailInput {
  messageId: string;
  threadId: string;
  /** When the mailbox received it (Gmail's internalDate, IMAP's INTERNALDATE); else the Date header. */
  receivedAt?: Date;
  labelIds: string[];
  /** Every header, in order (name case as sent), values decoded. */
  headers: Array<{ name?: string | null; value?: string | null }>;
  /** The body's plain and HTML parts, decoded to text. */
  plain?: string;
  html?: string;
  /** Every part's type with its parameters (`text/calendar; method=REPLY`). */
  partTypes: string[];
  /** A short text of the message (plain text, not HTML-escaped). */
  snippet: string;
}

const headerIn = (input: MailInput, name: string) =>
  input.headers.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? undefined;

/** A message as the cache keeps it, from what its mailbox gave (see MailInput). */
export function readMessage(input: MailInput): ParsedMessage {
  const fromFull = headerIn(input, 'From') ?? '';
  const [sender] = fromFull ? addressparser(fromFull, { flatten: true }) : [];
  const fromAddress = sender?.address?.toLowerCase() ?? '';
  const dateHeader = headerIn(input, 'Date');
  const received = input.receivedAt ?? (dateHeader ? new Date(dateHeader) : new Date());
  const subject = headerIn(input, 'Subject') ?? '';
  const { labelIds } = input;
  let split: ReturnType<typeof splitText> | undefined;
  const bodyText = () => input.plain ?? (input.html !== undefined ? htmlToText(input.html) : '');
  const text = () => (split ??= splitText(bodyText()));
  const recipients = [...addresses(headerIn(input, 'To')), ...addresses(headerIn(input, 'Cc'))];
  const machine = machineSignals({
    headers: input.headers,
    labelIds,
    fromAddress,
    recipients,
    subject,
    text: () => text().unquoted,
    partTypes: input.partTypes,
  });
  return {
    messageId: input.messageId,
    threadId: input.threadId,
    receivedAt: Number.isNaN(received.getTime()) ? new Date() : received,
    labelIds,
    from: sender?.name || fromAddress || fromFull,
    fromFull,
    fromAddress,
    recipients,
    subject,
    snippet: input.snippet,
    messageIdHeader: headerIn(input, 'Message-ID'),
    references: headerIn(input, 'References'),
    machine,
    // Machines' mail is never waited on, whatever it says.
    asks: machine.length > 0 ? [] : readAsks({ subject, own: text().own }).reasons,
    ownText: machine.length > 0 ? '' : text().own,
    body:
      input.html !== undefined
        ? sanitiseMailHtml(input.html)
        : input.plain !== undefined
          ? { html: plainTextToHtml(input.plain), hasRemoteImages: false }
          : undefined,
  };
}

/** A Gmail message (`messages.get`, format=full) as the cache keeps it. */
export function parseMessage(message: gmail_v1.Schema$Message): ParsedMessage {
  const payload = message.payload ?? undefined;
  const html = findPart(payload, 'text/html');
  const plain = findPart(payload, 'text/plain');
  return readMessage({
    messageId: message.id ?? '',
    threadId: message.threadId ?? message.id ?? '',
    receivedAt: message.internalDate ? new Date(Number(message.internalDate)) : undefined,
    labelIds: message.labelIds ?? [],
    headers: payload?.headers ?? [],
    plain: plain?.body?.data ? decode(plain.body.data) : undefined,
    html: html?.body?.data ? decode(html.body.data) : undefined,
    partTypes: partTypes(payload),
    // Gmail's snippets are HTML-escaped text.
    snippet: decodeEntities(message.snippet ?? ''),
  });
}
