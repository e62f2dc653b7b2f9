/*
 * What the SPA's build and the gateway agree on about the page the gateway serves (index.html):
 * the list of each screen's code the build writes beside it, and the mark of a page served to a
 * valid session, which the SPA reads.
 */

/** The file the build writes beside index.html. */
export const SCREEN_PRELOADS_FILE = 'screen-preloads.json';

/** Who a screen is for, as the route table's guards decide. */
export type Audience = 'signed-in' | 'visitor' | 'anyone';

/** One screen of `SCREEN_PRELOADS_FILE`: the gateway names `files` in the page it serves for `path`. */
export interface ScreenPreload {
  /** The route's path as the router writes it (`/conversations/:id`). */
  path: string;
  audience: Audience;
  /** The screen's chunks beyond the ones index.html already loads, as absolute URLs. */
  files: string[];
}

/** The `<meta name>` of a page the gateway served to a valid session. */
export const SIGNED_IN_META_NAME = 'haven-signed-in';
