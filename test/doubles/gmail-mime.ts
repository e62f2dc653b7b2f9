import { randomBytes } from 'node:crypto';

/*
 * A raw RFC 5322 message as Gmail's `messages.get` (format=full) answers it: the MIME tree as parts,
 * every header in order (unfolded, encoded words decoded), text parts' bodies turned to UTF-8 (Gmail
 * does so and keeps the part's Content-Type as sent), attachments by id only, and a snippet.
 */

export interface GmailHeader {
  name: string;
  value: string;
}

export interface GmailPart {
  partId: string;
  mimeType: string;
  filename: string;
  headers: GmailHeader[];
  body: { size: number; data?: string; attachmentId?: string };
  parts?: GmailPart[];
}

/** Bytes as text: UTF-8 when they are, else Windows-1252 (what mail clients assume). */
function bytesToText(bytes: Buffer, charset?: string): string {
  const label = (charset ?? '').trim().toLowerCase().replace(/^"|"$/g, '');
  if (label && !/^(us-)?ascii$|^utf-?8$/.test(label)) {
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // An unknown charset: fall through to the guess below.
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function decodeQuotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft[i] === '=' ? soft.slice(i + 1, i + 3) : '';
    if (/^[0-9a-f]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(soft.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words decoded (whitespace between two of them dropped). */
function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[bq]\?[^?]*\?=)\s+(?==\?[^?]+\?[bq]\?[^?]*\?=)/gi, '$1')
    .replace(
      /=\?([^?*]+)(\*[^?]*)?\?([bq])\?([^?]*)\?=/gi,
      (word, charset: string, _lang, enc: string, text: string) => {
        try {
          const bytes =
            enc.toLowerCase() === 'b'
              ? Buffer.from(text, 'base64')
              : decodeQuotedPrintable(text.replace(/_/g, ' '));
          return bytesToText(bytes, charset);
        } catch {
          return word;
        }
      },
    );
}

/** Header lines of a block, unfolded and decoded, in order (an mbox `From ` line is not a header). */
function parseHeaders(block: Buffer): GmailHeader[] {
  const text = bytesToText(block).replace(/\r?\n(?=[ \t])/g, '');
  return text
    .split(/\r?\n/)
    .map((line) => /^([!-9;-~]+)[ \t]*:[ \t]*(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ name: m[1]!, value: decodeWords(m[2]!.trim()) }));
}

/** A header's parameters (`boundary`, `charset`, `name`, `filename`), RFC 2231 values included. */
function parameters(value: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const m of value.matchAll(/;\s*([^=;\s]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]*)/g)) {
    const key = m[1]!.toLowerCase();
    let val = m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : m[2]!.trim();
    if (key.endsWith('*')) {
      const [, charset, , encoded] = /^([^']*)'([^']*)'(.*)$/.exec(val) ?? [];
      if (encoded !== undefined)
        val = bytesToText(
          Buffer.from(
            encoded.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ),
          charset,
        );
      params[key.replace(/\*(\d+\*?)?$/, '')] = (params[key.replace(/\*(\d+\*?)?$/, '')] ?? '') + val;
    } else if (/\*\d+$/.test(key)) {
      const base = key.replace(/\*\d+$/, '');
      params[base] = (params[base] ?? '') + val;
    } else params[key] = val;
  }
  return params;
}

const headerValue = (headers: GmailHeader[], name: string) =>
  headers.find((h) => h.name.toLowerCase() === name)?.value;

/** Splits header block and body at the first empty line. */
function splitEntity(raw: Buffer): { head: Buffer; body: Buffer } {
  const text = raw.toString('latin1');
  const match = /\r?\n\r?\n/.exec(text);
  if (!match) return { head: raw, body: Buffer.alloc(0) };
  // A part that starts with its body (no headers at all) has an empty line first.
  if (match.index === 0) return { head: Buffer.alloc(0), body: raw.subarray(match[0].length) };
  return { head: raw.subarray(0, match.index), body: raw.subarray(match.index + match[0].length) };
}

/** The parts of a multipart body between its boundary lines (preamble and epilogue dropped). */
function splitMultipart(body: Buffer, boundary: string): Buffer[] | null {
  const text = body.toString('latin1');
  const escaped = boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const delimiter = new RegExp(`(^|\\r?\\n)--${escaped}(--)?[ \\t]*(?=\\r?\\n|$)`, 'g');
  const marks = [...text.matchAll(delimiter)];
  if (marks.length === 0) return null;
  const parts: Buffer[] = [];
  for (let i = 0; i < marks.length; i++) {
    const mark = marks[i]!;
    if (mark[2]) break; // the closing delimiter
    const start = mark.index + mark[0].length;
    const end = marks[i + 1]?.index ?? text.length;
    parts.push(Buffer.from(text.slice(start, end).replace(/^\r?\n/, ''), 'latin1'));
  }
  return parts;
}

function transferDecoded(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
    case 'quoted-printable':
      return decodeQuotedPrintable(body.toString('latin1'));
    default:
      return body;
  }
}

/** One entity (the message or a part) as Gmail's part. */
function toPart(raw: Buffer, partId: string, headers?: GmailHeader[]): GmailPart {
  const { head, body } = splitEntity(raw);
  const own = headers ?? parseHeaders(head);
  const contentType = headerValue(own, 'content-type') ?? 'text/plain';
  const mimeType = (/^\s*([^;\s]+)/.exec(contentType)?.[1] ?? 'text/plain').toLowerCase();
  const params = parameters(contentType);
  const disposition = parameters(headerValue(own, 'content-disposition') ?? '');
  const filename = disposition.filename ?? params.name ?? '';
  const child = (index: number) => (partId === '' ? String(index) : `${partId}.${index}`);

  if (mimeType.startsWith('multipart/') && params.boundary) {
    const parts = splitMultipart(body, params.boundary);
    if (parts)
      return {
        partId,
        mimeType,
        filename,
        headers: own,
        body: { size: 0 },
        parts: parts.map((part, i) => toPart(part, child(i))),
      };
  }
  if (mimeType === 'message/rfc822') {
    const inner = transferDecoded(body, headerValue(own, 'content-transfer-encoding'));
    return {
      partId,
      mimeType,
      filename,
      headers: own,
      body: { size: inner.length },
      parts: [toPart(inner, child(0))],
    };
  }
  const bytes = transferDecoded(body, headerValue(own, 'content-transfer-encoding'));
  if (filename)
    return {
      partId,
      mimeType,
      filename,
      headers: own,
      body: { size: bytes.length, attachmentId: `att-${randomBytes(6).toString('hex')}` },
    };
  const data = mimeType.startsWith('text/') ? Buffer.from(bytesToText(bytes, params.charset), 'utf8') : bytes;
  return {
    partId,
    mimeType,
    filename,
    headers: own,
    body: { size: data.length, data: data.toString('base64url') },
  };
}

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** The first body text of a kind, depth first. */
function firstText(part: GmailPart, mimeType: string): string | undefined {
  if (part.mimeType === mimeType && part.body.data && !part.filename)
    return Buffer.from(part.body.data, 'base64url').toString('utf8');
  for (const child of part.parts ?? []) {
    const found = firstText(child, mimeType);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A raw message as Gmail's format=full payload, with the snippet Gmail would show (HTML-escaped). */
export function gmailMessage(raw: Buffer): { payload: GmailPart; snippet: string } {
  const payload = toPart(raw, '');
  const text =
    firstText(payload, 'text/plain') ??
    firstText(payload, 'text/html')
      ?.replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]+>/g, ' ') ??
    '';
  return { payload, snippet: escapeHtml(text.replace(/\s+/g, ' ').trim().slice(0, 200)) };
}
