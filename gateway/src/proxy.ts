import http from 'node:http';
import type { RequestHandler } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { ErrorBody } from '@haven/contracts/errors';
import {
  CLIENT_IP_HEADER,
  IDENTITY_HEADERS,
  INTERNAL_TOKEN_HEADER,
  REQUEST_ID_HEADER,
  type ServiceName,
} from '@haven/contracts/routes';
import { currentContext } from '@haven/kit/context';
import { createInternalTokenSigner } from '@haven/kit/internal-auth';
import type { Logger } from '@haven/kit/logger';

/**
 * One proxy per service. Client-sent identity headers are dropped and replaced by an internal token
 * naming the user the gateway verified, plus the request id. Connections to services are kept alive.
 */
export function serviceProxy(options: {
  service: ServiceName;
  target: string;
  internalSecret: string;
  log: Logger;
}): RequestHandler {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const tokenFor = createInternalTokenSigner(options.internalSecret);
  return createProxyMiddleware({
    target: options.target,
    agent,
    xfwd: true,
    proxyTimeout: 60_000,
    timeout: 60_000,
    on: {
      proxyReq(proxyReq, req, res) {
        for (const name of IDENTITY_HEADERS) proxyReq.removeHeader(name);
        const locals = (res as http.ServerResponse & { locals?: { userId?: number | null } }).locals;
        const requestId = String(req.headers[REQUEST_ID_HEADER] ?? currentContext()?.requestId ?? '');
        proxyReq.setHeader(INTERNAL_TOKEN_HEADER, tokenFor(locals?.userId ?? null));
        // Express's req.ip honours `trust proxy` (loopback): the address of the real caller.
        const ip = (req as http.IncomingMessage & { ip?: string }).ip ?? req.socket.remoteAddress ?? '';
        proxyReq.setHeader(CLIENT_IP_HEADER, ip);
        proxyReq.setHeader(REQUEST_ID_HEADER, requestId);
      },
      error(err, _req, res) {
        options.log.error({ service: options.service, err: err.message }, 'service unreachable');
        if ('writeHead' in res && !res.headersSent) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              message: `The ${options.service} service is unavailable`,
              code: 'bad_gateway',
            } satisfies ErrorBody),
          );
        } else {
          res.destroy();
        }
      },
    },
  });
}
