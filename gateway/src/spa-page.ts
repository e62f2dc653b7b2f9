import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SCREEN_PRELOADS_FILE, SIGNED_IN_META_NAME, type ScreenPreload } from '@haven/contracts/spa';

/** The marker the SPA reads to start a signed-in screen's data before its own session check answers. */
export const SIGNED_IN_META = `<meta name="${SIGNED_IN_META_NAME}" content="true">`;

/**
 * The SPA's page (index.html) as the gateway serves it for a path. The build lists, per screen of the
 * route table, the code chunks that screen loads lazily (`SCREEN_PRELOADS_FILE`); the page for that
 * screen names them (`<link rel="modulepreload">`) so the browser fetches them beside the entry
 * instead of after it has run, and says whether the session was valid (`SIGNED_IN_META`). A screen
 * for signed-in people gets its chunks only for a valid session (a visitor is sent to /welcome), a
 * visitor's screen only without one. Pages are built once per screen and audience, then reused.
 */
export function spaPages(staticDir: string): (urlPath: string, signedIn: boolean) => string {
  const index = readFileSync(path.join(staticDir, 'index.html'), 'utf8');
  const listFile = path.join(staticDir, SCREEN_PRELOADS_FILE);
  const screens = existsSync(listFile)
    ? (JSON.parse(readFileSync(listFile, 'utf8')) as { screens: ScreenPreload[] }).screens.map((s) => ({
        ...s,
        pattern: new RegExp(
          `^${s.path
            .split('/')
            .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
            .join('/')}/?$`,
        ),
      }))
    : [];
  const built = new Map<string, string>();

  return (urlPath, signedIn) => {
    const screen = screens.find((s) => s.pattern.test(urlPath));
    const preload =
      screen && (screen.audience === 'anyone' || (screen.audience === 'signed-in') === signedIn)
        ? screen
        : undefined;
    const key = `${preload?.path ?? ''}|${signedIn}`;
    let page = built.get(key);
    if (page === undefined) {
      const head = [
        ...(signedIn ? [SIGNED_IN_META] : []),
        ...(preload?.files ?? []).map((file) => `<link rel="modulepreload" crossorigin href="${file}">`),
      ].join('');
      page = head ? index.replace('</head>', `${head}</head>`) : index;
      built.set(key, page);
    }
    return page;
  };
}
