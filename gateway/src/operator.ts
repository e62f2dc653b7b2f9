import { timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Router, type RequestHandler } from 'express';
import { QUEUE_NAMES } from '@haven/contracts/jobs';
import { forbidden, unauthorized } from '@haven/kit/errors';
import type { QueueRegistry } from '@haven/kit/queue';

/** Where operators find the queue dashboard on the gateway. */
export const DASHBOARD_PATH = '/ops/queues';

/**
 * The operator token from `Authorization: Bearer <token>`, or as the password of Basic
 * authentication (so a browser asks for it); a session cookie is never looked at.
 */
function presentedToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value = ''] = header.split(' ', 2);
  if (scheme?.toLowerCase() === 'bearer') return value;
  if (scheme?.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    return decoded.slice(decoded.indexOf(':') + 1);
  }
  return undefined;
}

/** Whether the request presents the operator token (a session cookie never counts). */
export function presentsOperatorToken(authorization: string | undefined, token: string): boolean {
  const expected = Buffer.from(token);
  const given = Buffer.from(presentedToken(authorization) ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function requireOperator(token: string): RequestHandler {
  return (req, res, next) => {
    if (presentsOperatorToken(req.headers.authorization, token)) return next();
    res.setHeader('www-authenticate', 'Basic realm="Haven operators", charset="UTF-8"');
    throw unauthorized('The queue dashboard needs the operator token');
  };
}

/**
 * What an operator may change from the dashboard (the board's own API, under the base path) when
 * OPERATOR_ALLOW_WRITE is set: retry failed jobs (one, or all failed of a queue) and remove one job.
 * Adding, editing, cleaning a whole state, emptying or obliterating would let a token holder write
 * any job (a `user.delete.thoughts` for any user) or drop work wholesale.
 */
const CHANGES_ALLOWED = [
  /^\/api\/queues\/[^/]+\/retry\/[^/]+$/,
  /^\/api\/queues\/[^/]+\/[^/]+\/(?:retry|clean)$/,
];

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * Reading is open to the operator. A change only with OPERATOR_ALLOW_WRITE, only one of
 * CHANGES_ALLOWED, and only from the dashboard's own page: a browser keeps the Basic password, so
 * another site's page could otherwise send one.
 */
function onlyAllowedChanges(allowWrite: boolean): RequestHandler {
  return (req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    if (!allowWrite)
      throw forbidden('The queue dashboard is read-only: set OPERATOR_ALLOW_WRITE=1 to retry or remove jobs');
    if (!CHANGES_ALLOWED.some((allowed) => allowed.test(req.path)))
      throw forbidden('The queue dashboard can retry and remove jobs; it cannot add, edit or empty them');
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    const sameOrigin = origin === undefined || hostOf(origin) === req.headers.host;
    if (!sameOrigin || (site !== undefined && site !== 'same-origin'))
      throw forbidden('Only the queue dashboard’s own page can change jobs');
    next();
  };
}

/**
 * Bull Board over every queue of the contracts (jobs, their failures; retry and remove with
 * OPERATOR_ALLOW_WRITE), for holders of
 * OPERATOR_TOKEN only. Job data holds ids, never a user's text, so the dashboard shows none.
 * Its page runs an inline script, so this path alone gets a policy that allows one.
 */
export function queueDashboard(options: {
  token: string;
  queues: QueueRegistry;
  allowWrite?: boolean;
}): Router {
  const allowWrite = options.allowWrite ?? false;
  const adapter = new ExpressAdapter();
  adapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    // Read-only, the board shows no buttons for changes; with writes, the server still allows only some.
    queues: QUEUE_NAMES.map(
      (name) => new BullMQAdapter(options.queues.get(name), { readOnlyMode: !allowWrite }),
    ),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'Haven queues' } },
  });
  const board = adapter.getRouter() as Router & { disable?: (setting: string) => void };
  // The board is an Express app of its own: it would say so in every answer.
  board.disable?.('x-powered-by');
  const router = Router();
  router.use(
    DASHBOARD_PATH,
    requireOperator(options.token),
    onlyAllowedChanges(allowWrite),
    (_req, res, next) => {
      res.setHeader(
        'content-security-policy',
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
          "img-src 'self' data:; font-src 'self' data:; object-src 'none'; frame-ancestors 'none'",
      );
      res.setHeader('cache-control', 'no-store');
      next();
    },
    board,
  );
  return router;
}
