import type { IncomingHttpHeaders } from 'node:http';
import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';

/** Responses smaller than this are sent as they are: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/** Text, JSON and XML compress well; images, audio and archives are compressed already. */
const COMPRESSIBLE =
  /^\s*(?:text\/|application\/(?:json|javascript|xml|x-www-form-urlencoded|[\w.+-]+\+(?:json|xml))\b)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * The coding to respond with, from the client's Accept-Encoding, as the `compression` middleware
 * negotiates it: the highest q wins, Brotli before gzip on a tie, and no compression when the client
 * sends no header, refuses both (q=0), or prefers identity.
 */
export function negotiateEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  let lowest = 1;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (m) q = Number(m[1]);
    }
    if (!(q >= 0 && q <= 1)) q = 0;
    if (!weights.has(coding)) weights.set(coding, q);
    lowest = Math.min(lowest, q);
  }
  const star = weights.get('*');
  const br = weights.get('br') ?? star ?? 0;
  const gzip = weights.get('gzip') ?? star ?? 0;
  // Identity is acceptable unless named otherwise, at the lowest weight the client gave anything.
  const identity = weights.get('identity') ?? lowest;
  const best = Math.max(br, gzip);
  if (best <= 0 || best < identity) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

/** Whether a response with these headers is worth compressing at all (its type, size, Cache-Control). */
export function isCompressible(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  if (!type || !COMPRESSIBLE.test(type)) return false;
  const cacheControl = headers['cache-control'];
  return !cacheControl || !NO_TRANSFORM.test(cacheControl);
}

/**
 * The coding for one proxied response, or undefined to pass it through as it is. `headers` are the
 * service's response headers; `acceptEncoding` the client's.
 */
export function responseEncoding(
  method: string | undefined,
  status: number,
  headers: IncomingHttpHeaders,
  acceptEncoding: string | undefined,
): Encoding | undefined {
  if (method === 'HEAD' || status < 200 || status === 204 || status === 304) return undefined;
  const coding = headers['content-encoding'];
  if (coding && coding !== 'identity') return undefined;
  const length = headers['content-length'];
  if (length !== undefined && Number(length) < COMPRESS_THRESHOLD_BYTES) return undefined;
  return negotiateEncoding(acceptEncoding);
}

/** A compressor for `encoding`, at the `compression` middleware's default levels. */
export function compressor(encoding: Encoding): Gzip | BrotliCompress {
  return encoding === 'gzip'
    ? createGzip()
    : createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
}
