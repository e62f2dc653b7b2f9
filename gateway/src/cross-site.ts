import type { IncomingHttpHeaders } from 'node:http';
import { IMPORT_CONTENT_TYPES, portabilityContract } from '@haven/contracts/portability';
import { pushContract } from '@haven/contracts/push';
import { forbidden, unsupportedMediaType, type AppError } from '@haven/kit/errors';

/** Methods that change nothing: the OAuth callbacks (top-level navigations from the provider) are GETs. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const JSON_TYPES: ReadonlyArray<string> = ['application/json'];

export const CROSS_SITE_MESSAGE = 'Requests from other sites are not accepted';
export const JSON_ONLY_MESSAGE = 'Send this request as JSON (Content-Type: application/json)';
export const ZIP_ONLY_MESSAGE = 'Send the import as a zip file (Content-Type: application/zip)';

/** `text/plain;charset=UTF-8` → `text/plain`; '' when the header is missing. */
function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

const hasBody = (headers: IncomingHttpHeaders) =>
  Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;

/**
 * Whether a request comes from the app's own pages. `Origin` (sent by browsers on every POST, PUT,
 * PATCH and DELETE) must be the configured public origin (APP_URL) or the origin the request was
 * addressed to (its Host: `npm start` on 127.0.0.1 as well as localhost, the Vite dev server, which
 * keeps the browser's Host, and test stacks on free ports). `Sec-Fetch-Site: cross-site` is refused
 * outright; `same-site` too (a sibling subdomain is another party that SameSite=Lax cookies would let
 * in), unless the page's origin is APP_URL itself (an SPA served from a sibling host of the API).
 * A client that sends neither header (curl, a server) is not a browser a page could drive.
 */
function fromOwnSite(headers: IncomingHttpHeaders, appOrigin: string | undefined, https: boolean): boolean {
  const origin = headers.origin;
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site') return false;
  if (origin === undefined) return site !== 'same-site';
  if (origin === appOrigin) return true;
  return site !== 'same-site' && origin === `${https ? 'https' : 'http'}://${headers.host ?? ''}`;
}

/**
 * The refusal for a state-changing request a page of another site could have sent, or null when it
 * may go on: a foreign `Origin` or `Sec-Fetch-Site` is a 403, and a body that is not JSON (the
 * import's zip for the import) is a 415, so an HTML form or a "simple" cross-origin fetch (text/plain,
 * form-encoded, multipart) never reaches a service. A request without a body needs no type.
 */
export function crossSiteRefusal(
  request: { method: string | undefined; path: string; headers: IncomingHttpHeaders },
  site: { appOrigin: string | undefined; https: boolean },
): AppError | null {
  const method = request.method ?? 'GET';
  if (SAFE_METHODS.has(method)) return null;
  if (!fromOwnSite(request.headers, site.appOrigin, site.https)) return forbidden(CROSS_SITE_MESSAGE);
  const type = mediaType(request.headers['content-type']);
  if (type === '' && !hasBody(request.headers)) return null;
  // Graph checks a notification address with an empty POST marked text/plain: a server, not a page.
  if (request.path === pushContract.microsoft.path && !hasBody(request.headers)) return null;
  const isImport = method === 'POST' && request.path === portabilityContract.startImport.path;
  const accepted = isImport ? IMPORT_CONTENT_TYPES : JSON_TYPES;
  if (accepted.includes(type)) return null;
  return unsupportedMediaType(isImport ? ZIP_ONLY_MESSAGE : JSON_ONLY_MESSAGE);
}

/** The origin of APP_URL (`https://haven.example.org`), or undefined when none is configured. */
export function originOf(appUrl: string | undefined): string | undefined {
  return appUrl ? new URL(appUrl).origin : undefined;
}
