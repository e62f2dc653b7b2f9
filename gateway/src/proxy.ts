import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import {
  CLIENT_IP_HEADER,
  IDENTITY_HEADERS,
  INTERNAL_TOKEN_HEADER,
  REQUEST_ID_HEADER,
  type ServiceName,
} from '@haven/contracts/routes';
import { AppError, badRequest, payloadTooLarge } from '@haven/kit/errors';
import { createInternalTokenSigner } from '@haven/kit/internal-auth';
import type { Logger } from '@haven/kit/logger';
import { startClientSpan } from '@haven/kit/tracing';
import { writeError } from './error-response';
import { tooLargeMessage } from './limits';
import { compressor, isCompressible, responseEncoding, type Encoding } from './encoding';

/** Headers about one connection, not the message (RFC 9110 §7.6.1): never passed on. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade'];
/** What a client may not send a service: identity headers (the gateway says who the user is). */
const DROPPED_FROM_REQUEST: ReadonlySet<string> = new Set([
  ...HOP_BY_HOP,
  'proxy-authorization',
  REQUEST_ID_HEADER,
  // The trace context is the gateway's to start (see startServerSpan).
  'traceparent',
  'tracestate',
  ...IDENTITY_HEADERS,
]);
/** Framing is node's to choose again (the response may be re-encoded); the gateway's headers win. */
const DROPPED_FROM_RESPONSE = [...HOP_BY_HOP, 'transfer-encoding', REQUEST_ID_HEADER];

/** Who the gateway forwards a request as. */
export interface Forwarding {
  /** The verified user, or null on a public route without a session. */
  userId: number | null;
  requestId: string;
  /** The client's address (see `clientAddress`). */
  clientIp: string;
  /** Headers every response of the gateway carries (security headers, this request id), flat. */
  head: readonly string[];
}

export type ServiceProxy = (req: IncomingMessage, res: ServerResponse, forwarding: Forwarding) => void;

export interface ServiceProxyOptions {
  service: ServiceName;
  /** Base URL of the service; a path in it prefixes every forwarded path. */
  target: string;
  internalSecret: string;
  log: Logger;
  /** Names in `head` (security headers): the service's own values for them are dropped. */
  gatewayHeaders: ReadonlySet<string>;
  /** Largest request body, enforced on bodies sent without a Content-Length (the caller checks those). */
  maxBodyBytes: number;
  /** How long a service may stay silent, waiting for its response or within it. */
  timeoutMs?: number;
}

/**
 * One service's proxy, on node:http alone. The request is forwarded with its headers, minus any
 * identity a client sent, plus an internal token naming the verified user, the client's address and
 * the request id; both bodies stream. Large text responses are compressed for clients that accept it.
 * An unreachable service is a 502 JSON response, a silent one a 504.
 */
export function createServiceProxy(options: ServiceProxyOptions): ServiceProxy {
  const { service, log } = options;
  const target = new URL(options.target);
  if (target.protocol !== 'http:') throw new Error(`${service}: only http:// service URLs are supported`);
  const prefix = target.pathname.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 60_000;
  // Idle sockets are closed before the service's own keep-alive timeout (65 s) could close them
  // under a request.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: Math.min(timeoutMs, 60_000) });
  const tokenFor = createInternalTokenSigner(options.internalSecret, 'gateway');
  const droppedFromResponse: ReadonlySet<string> = new Set([
    ...DROPPED_FROM_RESPONSE,
    ...options.gatewayHeaders,
  ]);

  return (req, res, forwarding) => {
    const headers = requestHeaders(req.rawHeaders, target.host);
    headers.push(
      INTERNAL_TOKEN_HEADER,
      tokenFor(service, forwarding.userId),
      CLIENT_IP_HEADER,
      forwarding.clientIp,
      REQUEST_ID_HEADER,
      forwarding.requestId,
    );
    const hop = startClientSpan(`${req.method} ${service}`, { 'haven.service': service });
    if (hop) for (const [name, value] of Object.entries(hop.headers)) headers.push(name, value);
    let upstream: http.ClientRequest;
    try {
      const options: http.RequestOptions = {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: prefix + req.url,
        headers,
        agent,
        timeout: timeoutMs,
      };
      upstream = hop ? hop.run(() => http.request(options)) : http.request(options);
    } catch {
      // A path node will not send (it checks more strictly than its own parser accepts).
      writeError(res, forwarding.head, badRequest('Malformed request'), { close: true });
      return;
    }
    // Set when the gateway itself gave up on the request; the 'error' that follows answers it.
    let refusal: AppError | undefined;

    upstream.on('response', (response) => {
      const status = response.statusCode ?? 502;
      hop?.end(status);
      const { headers: responseHeaders, encoding } = forwardedResponse(response, droppedFromResponse, {
        method: req.method,
        acceptEncoding: req.headers['accept-encoding'],
      });
      res.writeHead(status, [...forwarding.head, ...responseHeaders]);
      if (encoding) {
        pipeline(response, compressor(encoding), res, () => {});
      } else {
        response.pipe(res);
        // A service that dies mid-response must not leave the client waiting for the rest.
        response.once('close', () => {
          if (!response.complete) res.destroy();
        });
      }
    });
    upstream.on('timeout', () => {
      refusal ??= new AppError(504, 'bad_gateway', `The ${service} service did not answer in time`);
      upstream.destroy();
    });
    upstream.on('error', (err) => {
      hop?.end(502, err);
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      if (!refusal || refusal.status === 504) {
        log.error({ service, err: err.message, reqId: forwarding.requestId }, 'service unreachable');
      }
      writeError(
        res,
        forwarding.head,
        refusal ?? new AppError(502, 'bad_gateway', `The ${service} service is unavailable`),
        { close: refusal?.status === 413 },
      );
    });
    // A client that leaves ends the call to the service too.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });

    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] !== undefined) {
      // No length announced (the caller refuses announced ones over the limit): count as it streams.
      let seen = 0;
      req.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > options.maxBodyBytes && !refusal) {
          refusal = payloadTooLarge(tooLargeMessage(options.maxBodyBytes));
          req.unpipe(upstream);
          upstream.destroy();
        }
      });
      req.pipe(upstream);
    } else if (length !== undefined && length !== '0') {
      req.pipe(upstream);
    } else {
      upstream.end();
    }
  };
}

/**
 * The client's headers as a flat list for the service, without hop-by-hop and identity headers (nor
 * any header the client's Connection header names). Host is kept, or set to the service's.
 */
export function requestHeaders(raw: readonly string[], host: string): string[] {
  const out: string[] = [];
  let hasHost = false;
  let connection: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name === 'connection') connection = raw[i + 1];
    if (DROPPED_FROM_REQUEST.has(name)) continue;
    if (name === 'host') hasHost = true;
    out.push(name, raw[i + 1]!);
  }
  if (!hasHost) out.push('host', host);
  if (connection) {
    const named = new Set(connection.split(',').map((t) => t.trim().toLowerCase()));
    named.delete('host');
    for (let i = out.length - 2; i >= 0; i -= 2) if (named.has(out[i]!)) out.splice(i, 2);
  }
  return out;
}

/**
 * A service's response headers as the client gets them (flat), and the coding to compress the body
 * with, if any. Compressible types vary on Accept-Encoding, as the `compression` middleware marks them.
 */
export function forwardedResponse(
  response: Pick<IncomingMessage, 'rawHeaders' | 'headers' | 'statusCode'>,
  dropped: ReadonlySet<string>,
  request: { method: string | undefined; acceptEncoding: string | undefined },
): { headers: string[]; encoding: Encoding | undefined } {
  const raw = response.rawHeaders;
  const out: string[] = [];
  let lengthAt = -1;
  let varyAt = -1;
  let cacheControl = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (dropped.has(name)) continue;
    if (name === 'content-length') lengthAt = out.length;
    else if (name === 'vary') varyAt = out.length;
    else if (name === 'cache-control') cacheControl = true;
    out.push(name, raw[i + 1]!);
  }
  // An API response is someone's journal, mail or account: no cache (a shared computer's, a proxy's)
  // keeps it unless its service said otherwise.
  if (!cacheControl) out.push('cache-control', 'private, no-store');
  if (!isCompressible(response.headers)) return { headers: out, encoding: undefined };
  if (varyAt === -1) out.push('vary', 'Accept-Encoding');
  else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(out[varyAt + 1]!)) {
    out[varyAt + 1] += ', Accept-Encoding';
  }
  const encoding = responseEncoding(
    request.method,
    response.statusCode ?? 0,
    response.headers,
    request.acceptEncoding,
  );
  if (encoding) {
    if (lengthAt !== -1) out.splice(lengthAt, 2);
    out.push('content-encoding', encoding);
  }
  return { headers: out, encoding };
}
