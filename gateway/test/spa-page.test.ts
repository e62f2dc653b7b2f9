import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_IN_META, spaPages } from '../src/spa-page';

const INDEX =
  '<!doctype html><html><head><title>Haven</title></head><body><div id="root"></div></body></html>';
const screens = [
  { path: '/auth', audience: 'visitor', files: ['/assets/auth-1.js', '/assets/public-1.js'] },
  { path: '/privacy-policy', audience: 'anyone', files: ['/assets/privacy-1.js'] },
  { path: '/home', audience: 'signed-in', files: ['/assets/signed-in-1.js', '/assets/insights-1.js'] },
  { path: '/conversations/:id', audience: 'signed-in', files: ['/assets/conversation-1.js'] },
];
const preloads = (page: string) =>
  [...page.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('the SPA page the gateway serves', () => {
  let dir: string;
  let pageFor: ReturnType<typeof spaPages>;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'haven-spa-page-'));
    writeFileSync(path.join(dir, 'index.html'), INDEX);
    writeFileSync(path.join(dir, 'screen-preloads.json'), JSON.stringify({ screens }));
    pageFor = spaPages(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names a signed-in screen's chunks and marks the session, for a valid session only", () => {
    const page = pageFor('/home', true);
    expect(preloads(page)).toEqual(['/assets/signed-in-1.js', '/assets/insights-1.js']);
    expect(page).toContain(`${SIGNED_IN_META}<link`);
    expect(page.indexOf('modulepreload')).toBeLessThan(page.indexOf('</head>'));
    // A visitor is sent on to /welcome: nothing to fetch, and no mark.
    expect(pageFor('/home', false)).toBe(INDEX);
  });

  it("names a visitor screen's chunks only without a session, and anyone's for both", () => {
    expect(preloads(pageFor('/auth', false))).toEqual(['/assets/auth-1.js', '/assets/public-1.js']);
    expect(preloads(pageFor('/auth', true))).toEqual([]);
    expect(pageFor('/auth', true)).toContain(SIGNED_IN_META);
    expect(preloads(pageFor('/privacy-policy', false))).toEqual(['/assets/privacy-1.js']);
    expect(preloads(pageFor('/privacy-policy', true))).toEqual(['/assets/privacy-1.js']);
  });

  it('matches parameters and a trailing slash, and nothing else', () => {
    expect(preloads(pageFor('/conversations/42', true))).toEqual(['/assets/conversation-1.js']);
    expect(preloads(pageFor('/home/', true))).toEqual(['/assets/signed-in-1.js', '/assets/insights-1.js']);
    expect(preloads(pageFor('/conversations/42/more', true))).toEqual([]);
    expect(preloads(pageFor('/homes', true))).toEqual([]);
    expect(pageFor('/no-such-screen', false)).toBe(INDEX);
  });

  it('serves index.html as it is when the build wrote no list', () => {
    const bare = mkdtempSync(path.join(tmpdir(), 'haven-spa-bare-'));
    try {
      writeFileSync(path.join(bare, 'index.html'), INDEX);
      expect(spaPages(bare)('/home', false)).toBe(INDEX);
      expect(spaPages(bare)('/home', true)).toBe(INDEX.replace('</head>', `${SIGNED_IN_META}</head>`));
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
