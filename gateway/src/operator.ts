import { timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Router, type RequestHandler } from 'express';
import { QUEUE_NAMES } from '@haven/contracts/jobs';
import { unauthorized } from '@haven/kit/errors';
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

function requireOperator(token: string): RequestHandler {
  const expected = Buffer.from(token);
  return (req, res, next) => {
    const given = Buffer.from(presentedToken(req.headers.authorization) ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
    res.setHeader('www-authenticate', 'Basic realm="Haven operators", charset="UTF-8"');
    throw unauthorized('The queue dashboard needs the operator token');
  };
}

/**
 * Bull Board over every queue of the contracts (jobs, retry and remove), for holders of
 * OPERATOR_TOKEN only. Job data holds ids, never a user's text, so the dashboard shows none.
 * Its page runs an inline script, so this path alone gets a policy that allows one.
 */
export function queueDashboard(options: { token: string; queues: QueueRegistry }): Router {
  const adapter = new ExpressAdapter();
  adapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: QUEUE_NAMES.map((name) => new BullMQAdapter(options.queues.get(name))),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'Haven queues' } },
  });
  const router = Router();
  router.use(
    DASHBOARD_PATH,
    requireOperator(options.token),
    (_req, res, next) => {
      res.setHeader(
        'content-security-policy',
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
          "img-src 'self' data:; font-src 'self' data:; object-src 'none'; frame-ancestors 'none'",
      );
      res.setHeader('cache-control', 'no-store');
      next();
    },
    adapter.getRouter() as Router,
  );
  return router;
}
