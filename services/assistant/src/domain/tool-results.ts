/*
 * How tool results reach the model: bounded, and wrapped with where they come from, so the system
 * prompt can say that everything inside `untrusted_data` is data to read, never instructions. The
 * envelope is JSON built by JSON.stringify, so no text inside it can close it or forge another.
 */

/** Where a tool's data comes from, as the envelope names it. */
export type ToolSource = 'thoughts' | 'gmail' | 'calendar' | 'slack' | 'notion';

/** How much of a source the model may read in one result. */
export interface Bounds {
  items: number;
  /** Per text field, in characters. */
  chars: number;
  /** The whole result's JSON, in characters. */
  total: number;
}

export const BOUNDS: Record<ToolSource, Bounds> = {
  thoughts: { items: 20, chars: 2000, total: 16_000 },
  gmail: { items: 25, chars: 300, total: 10_000 },
  calendar: { items: 25, chars: 200, total: 6000 },
  slack: { items: 25, chars: 500, total: 8000 },
  notion: { items: 10, chars: 500, total: 6000 },
};

const clip = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars)}…` : text);

function clipStrings(value: unknown, chars: number): unknown {
  if (typeof value === 'string') return clip(value, chars);
  if (Array.isArray(value)) return value.map((v) => clipStrings(v, chars));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipStrings(v, chars)]));
  return value;
}

/** At most `items` items, each text cut at `chars`, and no more items than fit in `total`. */
export function bound<T>(items: T[], bounds: Bounds): { items: T[]; omitted: number } {
  const kept = items.slice(0, bounds.items).map((item) => clipStrings(item, bounds.chars) as T);
  let size = 2;
  let fit = 0;
  for (const item of kept) {
    size += JSON.stringify(item).length + 1;
    if (size > bounds.total) break;
    fit++;
  }
  return { items: kept.slice(0, fit), omitted: items.length - fit };
}

/**
 * A read tool's answer as the model receives it: its provenance (`source`, `tool`, the items' ids)
 * beside the bounded `untrusted_data`.
 */
export function envelope<T extends { id: string | number }>(
  tool: string,
  source: ToolSource,
  items: T[],
  extra: Record<string, unknown> = {},
): { text: string; items: T[] } {
  const { items: kept, omitted } = bound(items, BOUNDS[source]);
  const text = JSON.stringify({
    source,
    tool,
    ids: kept.map((i) => i.id),
    ...(omitted > 0 ? { omitted } : {}),
    ...extra,
    untrusted_data: kept,
  });
  return { text, items: kept };
}
