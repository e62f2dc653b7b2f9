import { createContext, use } from 'react';

import type { ResolvedTheme, Theme } from '@/lib/theme';

export interface ThemeContextValue {
  /** The user's choice: light, dark or system. */
  theme: Theme;
  /** What is on screen now (system resolved through the device preference). */
  resolvedTheme: ResolvedTheme;
  setTheme: (theme: Theme) => void;
}

export const ThemeContext = createContext<ThemeContextValue | null>(null);

export function useTheme(): ThemeContextValue {
  const ctx = use(ThemeContext);
  if (!ctx) throw new Error('useTheme must be used within a ThemeProvider');
  return ctx;
}
