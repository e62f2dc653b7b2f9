import { useMemo } from 'react';

/** The frame's own page: readable text in the app's colours, images never wider than the frame. */
function frameDocument(html: string, dark: boolean): string {
  const fg = dark ? '#e5e7eb' : '#1f2937';
  const bg = dark ? '#111827' : '#ffffff';
  const link = dark ? '#93c5fd' : '#1d4ed8';
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="color-scheme" content="${dark ? 'dark' : 'light'}"><style>
html,body{margin:0;background:${bg};color:${fg};font:14px/1.5 system-ui,-apple-system,sans-serif;overflow-wrap:anywhere}
body{padding:12px}img{max-width:100%;height:auto}table{max-width:100%}a[href]{color:${link}}
</style></head><body>${html}</body></html>`;
}

/** Puts the held-back remote images back (the user pressed 'Show images'). */
function withImages(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const img of doc.querySelectorAll('img[data-remote-src]')) {
    img.setAttribute('src', img.getAttribute('data-remote-src') ?? '');
    img.removeAttribute('data-remote-src');
  }
  return doc.body.innerHTML;
}

/**
 * A sanitised mail body in a sandboxed frame: no scripts, no same origin, no forms, so even a body
 * the sanitiser missed something in cannot touch the app. Its links (http, https and mailto only,
 * each with target=_blank and rel=noopener noreferrer) may open a new tab, which leaves the sandbox.
 */
export function MailFrame({ html, showImages }: { html: string; showImages: boolean }) {
  const dark = document.documentElement.classList.contains('dark');
  const srcDoc = useMemo(
    () => frameDocument(showImages ? withImages(html) : html, dark),
    [html, showImages, dark],
  );
  return (
    <iframe
      title="Email body"
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      srcDoc={srcDoc}
      className="h-56 w-full rounded-lg border border-border bg-card"
    />
  );
}
