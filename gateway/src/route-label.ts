import type { IncomingMessage, ServerResponse } from 'node:http';
import { publicRoutes } from '@haven/contracts/public';
import { paramCount } from '@haven/kit/http';
import type { Metrics } from '@haven/kit/metrics';

/** Label of a request that matches no public route (an unknown path, a probe, the SPA). */
export const UNMATCHED = 'unmatched';

/**
 * Finds the contract route template of a request (`/api/thoughts/:id` for `/api/thoughts/42`), so
 * the gateway's metrics are labelled by route, never by a concrete path or id. Routes with fewer
 * parameters are tried first, as the services mount them.
 */
export function routeLabeller(): (method: string, path: string) => string {
  const byMethod = new Map<string, Array<{ template: string; pattern: RegExp }>>();
  const routes = publicRoutes().sort((a, b) => paramCount(a.path) - paramCount(b.path));
  for (const route of routes) {
    const pattern = new RegExp(
      `^${route.path
        .split('/')
        .map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}/?$`,
    );
    const list = byMethod.get(route.method) ?? [];
    list.push({ template: route.path, pattern });
    byMethod.set(route.method, list);
  }
  return (method, path) => byMethod.get(method)?.find((r) => r.pattern.test(path))?.template ?? UNMATCHED;
}

/**
 * Observes each request's duration into the gateway's `haven_http_request_duration_seconds`, labelled
 * by `routeOf` (the request's contract route template, found once per request by the gateway).
 */
export function requestMetrics(
  metrics: Metrics,
): (req: IncomingMessage, res: ServerResponse, routeOf: () => string) => void {
  return (req, res, routeOf) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      metrics.http.observe(
        { method: req.method ?? 'GET', route: routeOf(), status_code: res.statusCode },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    });
  };
}
