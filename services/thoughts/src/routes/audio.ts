import type { Request, Response } from 'express';

/** Stored types served as they are; anything else (a type the client claimed) goes out as bytes. */
const AUDIO_TYPE = /^audio\/[\w.+-]+(?:;\s*codecs=["\w.,\s-]+)?$/i;

/** The Content-Type a recording is served with: its stored audio type, never a type a browser would run. */
export function audioContentType(mimeType: string): string {
  return AUDIO_TYPE.test(mimeType) ? mimeType : 'application/octet-stream';
}

/**
 * Sends a recording with Range support, as a media element asks for it: the whole file (200), one
 * byte range (206 with Content-Range), or 416 for a range past the end. Several ranges at once are
 * answered with the whole file, which RFC 9110 allows. Never cached: the bytes are private.
 */
export function sendAudio(req: Request, res: Response, audio: { bytes: Buffer; mimeType: string }): void {
  const size = audio.bytes.length;
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('Content-Type', audioContentType(audio.mimeType));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const ranges = req.headers.range ? req.range(size) : undefined;
  if (ranges === -1) {
    res.setHeader('Content-Range', `bytes */${size}`);
    res.status(416).json({ message: 'Requested range not satisfiable', code: 'bad_request' });
    return;
  }
  if (ranges === undefined || ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) {
    res.setHeader('Content-Length', String(size));
    res.status(200).end(req.method === 'HEAD' ? undefined : audio.bytes);
    return;
  }
  const { start, end } = ranges[0]!;
  res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
  res.setHeader('Content-Length', String(end - start + 1));
  res.status(206).end(req.method === 'HEAD' ? undefined : audio.bytes.subarray(start, end + 1));
}
