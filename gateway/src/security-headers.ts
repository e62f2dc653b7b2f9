import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * Helmet's headers for this gateway, as a flat `[name, value, name, value, …]` list computed once.
 * Our policy has no per-request parts (no nonces), so running helmet on every request only repeated
 * the same work; here helmet still decides every header, once, at start-up.
 */
export function securityHeaders(options: { https: boolean }): readonly string[] {
  const headers: string[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.push(name.toLowerCase(), String(value));
    },
    removeHeader() {},
  };
  let done = false;
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: options.https ? [] : null,
      },
    },
    strictTransportSecurity: options.https ? undefined : false,
  })({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  // A policy that depended on the request would not finish synchronously on an empty one.
  if (!done) throw new Error('helmet did not finish synchronously: the security headers are not static');
  return headers;
}

/** The names in a flat header list, lower-case. */
export function headerNames(flat: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < flat.length; i += 2) names.add(flat[i]!);
  return names;
}
