import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';

import { ThemeContext } from '@/hooks/use-theme';
import {
  applyTheme,
  readStoredTheme,
  resolveTheme,
  storeTheme,
  systemPrefersDark,
  watchSystemTheme,
  type Theme,
} from '@/lib/theme';

/** Holds the theme choice, persists it, and keeps the `dark` class on <html> in step (live for system). */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<Theme>(readStoredTheme);
  const [systemDark, setSystemDark] = useState(systemPrefersDark);

  useEffect(() => watchSystemTheme(() => setSystemDark(systemPrefersDark())), []);

  const resolvedTheme = theme === 'system' ? (systemDark ? 'dark' : 'light') : resolveTheme(theme);

  useEffect(() => applyTheme(resolvedTheme), [resolvedTheme]);

  const setTheme = useCallback((next: Theme) => {
    storeTheme(next);
    setThemeState(next);
  }, []);

  const value = useMemo(() => ({ theme, resolvedTheme, setTheme }), [theme, resolvedTheme, setTheme]);
  return <ThemeContext value={value}>{children}</ThemeContext>;
}
