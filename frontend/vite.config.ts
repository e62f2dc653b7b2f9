import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

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

export default defineConfig({
  // Pinned so `vite build frontend` from the repo root and `vite build` here behave the same.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
});
