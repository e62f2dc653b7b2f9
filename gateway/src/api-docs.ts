import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import { openApiDocument } from '@haven/contracts/openapi';
import { repoPath } from '@haven/kit/paths';

/** Swagger UI's files, from npm (served by the gateway itself: no CDN). */
const SWAGGER_UI = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * The page loads its script from a file, not inline, so the gateway's policy (`script-src 'self'`)
 * needs no exception for it.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Haven API reference</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#docs',
  deepLinking: true,
  docExpansion: 'none',
  defaultModelsExpandDepth: 0,
  // The cookie of the signed-in browser is sent with "Try it out", as the web app sends it.
  withCredentials: true,
});
`;

/**
 * `/api/openapi.json`, the OpenAPI 3.1 document generated from the contracts once at start-up, and
 * `/api/docs`, the API reference (Swagger UI) that renders it. Mounted under the gateway's `/api`.
 */
export function apiDocsRouter(): Router {
  const { version } = JSON.parse(readFileSync(repoPath('contracts', 'package.json'), 'utf8')) as {
    version: string;
  };
  const document = JSON.stringify(openApiDocument({ version }));
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('cache-control', 'no-cache').send(document);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').set('cache-control', 'no-cache').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('text/javascript').set('cache-control', 'no-cache').send(INIT);
  });
  router.use('/docs/assets', express.static(SWAGGER_UI, { index: false, maxAge: '1d' }));
  return router;
}
