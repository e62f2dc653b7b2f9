import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

import { sharedChunks } from './build/chunks.ts';
import { screenPreloads } from './build/screen-preloads.ts';

/** The gateway answers every `/api` call; in dev and preview it runs on PORT (default 8080). */
const apiProxy: Record<string, ProxyOptions> = {
  '/api': {
    target: `http://127.0.0.1:${process.env.PORT || 8080}`,
    // Keep the browser's Host so the session cookie is set for the page's own origin.
    changeOrigin: false,
    cookieDomainRewrite: { '*': '' },
    xfwd: true,
  },
};

/**
 * React Router's package points every import at its development build, whose dev-only warnings ship
 * and run in production too (remix-run/react-router#14102); a production build takes the production
 * build beside it, which differs only in leaving those out.
 */
function reactRouterProduction() {
  const dist = path.join(
    path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
    'dist/production',
  );
  return [
    { find: /^react-router$/, replacement: path.join(dist, 'index.mjs') },
    { find: /^react-router\/dom$/, replacement: path.join(dist, 'dom-export.mjs') },
  ];
}

export default defineConfig(({ command }) => ({
  // Pinned so `vite build frontend` from the repo root and `vite build` here behave the same.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    react(),
    screenPreloads(fileURLToPath(new URL('./src/app/router.tsx', import.meta.url))),
    tailwindcss(),
    // Installable, and opens without a network: the app shell is precached by a Workbox service
    // worker; the API is never cached (thoughts saved offline wait in IndexedDB instead).
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      manifest: {
        name: 'Haven',
        short_name: 'Haven',
        description: 'Capture your thoughts, get gentle insights, and let your assistant handle the rest.',
        theme_color: '#4f46e5',
        background_color: '#f8f8fb',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
        // A new version takes over at once, and the first install controls the page it came from.
        skipWaiting: true,
        clientsClaim: true,
      },
    }),
    // Each script, style sheet and icon also as .br (Brotli, highest quality) and .gz beside it, which
    // the gateway sends to browsers that take them: some 15% fewer bytes than compressing on the fly.
    // Not the page itself: the gateway writes each page's preloads into it per request.
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|css|svg|webmanifest)$/,
      threshold: 1024,
      logLevel: 'silent',
    }),
  ],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      ...(command === 'build' ? reactRouterProduction() : []),
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What the entry imports is one chunk with it (it was six: one request each on a slow
          // network, where the first screen waits for all of them). Inside it, modules run in import
          // order, so lib/zod-jitless.ts, main.tsx's first import, configures zod before any schema.
          groups: [
            { name: 'initial', tags: ['$initial'], priority: 1 },
            { name: sharedChunks(), debugName: 'shared', includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
}));
