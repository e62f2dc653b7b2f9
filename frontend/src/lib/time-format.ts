/**
 * How times of day are written: the device's setting (Settings → Display → Time format), kept in
 * localStorage like the theme. 'auto' follows the browser's 12/24-hour preference, which only an
 * Intl formatter knows; building the first one costs a phone tens of milliseconds (README, and
 * first-load.test.ts checks /home builds none). So the preference is asked once, after the page
 * has loaded and the browser is idle, and remembered on the device for its language; until then
 * times read in 12-hour form, the form of the app's English dates.
 */
export type TimeFormat = 'auto' | '12' | '24';

/** localStorage key holding the chosen time format. */
export const TIME_FORMAT_STORAGE_KEY = 'haven-time-format';
/** localStorage key remembering the browser's preference: `{ language, h24 }`. */
const BROWSER_CYCLE_KEY = 'haven-browser-hour-cycle';
/** How long after the page's load the browser's preference is asked (then at an idle moment). */
const ASK_AFTER_LOAD_MS = 3000;

export function isTimeFormat(value: unknown): value is TimeFormat {
  return value === 'auto' || value === '12' || value === '24';
}

let chosen: TimeFormat | undefined;
let browser24: boolean | undefined;
let asking = false;
const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // Refused in private modes or sandboxed frames.
  }
}

/** The chosen format ('auto' when nothing, or something unknown, is stored). */
export function readTimeFormat(): TimeFormat {
  if (chosen === undefined) {
    const stored = storage()?.getItem(TIME_FORMAT_STORAGE_KEY);
    chosen = isTimeFormat(stored) ? stored : 'auto';
  }
  return chosen;
}

/** Chooses the format on this device; every time shown follows it. */
export function storeTimeFormat(format: TimeFormat): void {
  chosen = format;
  try {
    storage()?.setItem(TIME_FORMAT_STORAGE_KEY, format);
  } catch {
    // Not persisting is acceptable; the choice still applies for this visit.
  }
  notify();
}

/** Calls `listener` when the format times are written in changes; returns the unsubscribe. */
export function subscribeTimeFormat(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Changes each time the written form may have changed (for `useSyncExternalStore`). */
export function timeFormatSnapshot(): string {
  return `${readTimeFormat()}:${uses24Hour()}`;
}

function notify(): void {
  for (const listener of listeners) listener();
}

/** Whether times are written on a 24-hour clock ('18:35') rather than a 12-hour one ('6:35 PM'). */
export function uses24Hour(): boolean {
  const format = readTimeFormat();
  return format === 'auto' ? browserUses24Hour() : format === '24';
}

function browserLanguage(): string {
  return typeof navigator === 'undefined' ? '' : navigator.language;
}

function browserUses24Hour(): boolean {
  if (browser24 !== undefined) return browser24;
  try {
    const remembered = JSON.parse(storage()?.getItem(BROWSER_CYCLE_KEY) ?? 'null') as {
      language?: unknown;
      h24?: unknown;
    } | null;
    if (remembered?.language === browserLanguage() && typeof remembered.h24 === 'boolean')
      return (browser24 = remembered.h24);
  } catch {
    // Unreadable: ask again.
  }
  askBrowserLater();
  return false;
}

/** Asks the browser's preference once the page has loaded and is idle, never on first paint. */
function askBrowserLater(): void {
  if (asking || typeof window === 'undefined') return;
  asking = true;
  const ask = () => {
    const cycle = new Intl.DateTimeFormat(undefined, { hour: 'numeric' }).resolvedOptions().hourCycle;
    const h24 = cycle === 'h23' || cycle === 'h24';
    try {
      storage()?.setItem(BROWSER_CYCLE_KEY, JSON.stringify({ language: browserLanguage(), h24 }));
    } catch {
      // Asked again on the next visit.
    }
    const changed = h24 !== (browser24 ?? false);
    browser24 = h24;
    if (changed) notify();
  };
  const later = () =>
    setTimeout(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(ask, { timeout: 2000 });
      else ask();
    }, ASK_AFTER_LOAD_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
