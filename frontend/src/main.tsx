import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { registerSW } from 'virtual:pwa-register';

import { AppProvider } from '@/app/provider';
import { AppRouter } from '@/app/router';
import { applyTheme, readStoredTheme, resolveTheme } from '@/lib/theme';

import './index.css';

// Apply the stored theme before the first render so a dark choice never flashes light.
applyTheme(resolveTheme(readStoredTheme()));

// The service worker that keeps the app shell for offline use; new versions take over on their own.
if ('serviceWorker' in navigator) registerSW({ immediate: true });

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

createRoot(container).render(
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);
