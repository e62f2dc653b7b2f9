import type { ChunkingContext } from 'rolldown';

/**
 * Code that several lazily loaded screens or panels share goes into one chunk per audience, instead
 * of one chunk per combination of screens (some seventy chunks of a few hundred bytes each, which a
 * phone on a slow network fetches a few at a time: most of a signed-in screen's load).
 *
 * A module's "roots" are the lazily loaded modules (or the entry) whose static imports reach it.
 * Reached from the entry, or from a single root: left where Rolldown puts it (the entry's chunk, or
 * that root's). Reached from several roots: `signed-in` when each of them is code only a signed-in
 * person loads (a screen under `app/routes/app`, or a panel those screens load), else `public`.
 * A module that would bring along something loaded lazily elsewhere (the Markdown renderer, a
 * dialog) is left alone too, so that grouping never makes a screen load more than it did.
 */
export function sharedChunks() {
  const LUCIDE_ICON = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]([a-z0-9-]+)\.mjs$/;
  const GROUPED = /[\\/](src|contracts)[\\/]/;
  const SIGNED_IN_SCREEN = /[\\/]src[\\/]app[\\/]routes[\\/]app[\\/]/;
  const rootsMemo = new Map<string, Set<string>>();

  return function sharedChunkName(id: string, ctx: ChunkingContext): string | null {
    const info = (m: string) => ctx.getModuleInfo(m);
    const isRoot = (m: string) => {
      const i = info(m);
      return !!i && (i.isEntry || i.dynamicImporters.length > 0);
    };
    /** Who imports `m`; for an icon, the modules that name it (lucide-react is imported as a barrel). */
    const importersOf = (m: string): readonly string[] => {
      const icon = LUCIDE_ICON.exec(m)?.[1];
      if (!icon) return info(m)?.importers ?? [];
      const name = icon.replace(/(^|-)([a-z0-9])/g, (_, _dash, c: string) => c.toUpperCase());
      const named = new RegExp(
        `import\\s*\\{[^}]*\\b(${name}|${name}Icon|Lucide${name})\\b[^}]*\\}\\s*from\\s*["']lucide-react["']`,
      );
      const barrel = info(m)?.importers.find((b) => b.endsWith('lucide-react.mjs'));
      return (barrel ? (info(barrel)?.importers ?? []) : []).filter((u) => named.test(info(u)?.code ?? ''));
    };
    const rootsOf = (m: string): Set<string> => {
      const cached = rootsMemo.get(m);
      if (cached) return cached;
      const roots = new Set<string>();
      const seen = new Set<string>();
      const walk = (n: string) => {
        if (seen.has(n)) return;
        seen.add(n);
        if (isRoot(n)) roots.add(n);
        for (const importer of importersOf(n)) walk(importer);
      };
      walk(m);
      rootsMemo.set(m, roots);
      return roots;
    };
    const fromEntry = (m: string) => [...rootsOf(m)].some((r) => info(r)?.isEntry);
    const signedIn = (root: string, seen = new Set<string>()): boolean => {
      if (SIGNED_IN_SCREEN.test(root)) return true;
      if (seen.has(root)) return false;
      seen.add(root);
      const i = info(root);
      if (!i || i.isEntry || i.dynamicImporters.length === 0) return false;
      return i.dynamicImporters.every((d) => [...rootsOf(d)].every((r) => signedIn(r, seen)));
    };
    /** Whether loading `m` would load a module that something else imports lazily. */
    const pullsLazy = (m: string): boolean => {
      const seen = new Set<string>();
      const walk = (n: string): boolean => {
        if (seen.has(n)) return false;
        seen.add(n);
        if (n !== m && isRoot(n)) return true;
        return (info(n)?.importedIds ?? []).some((d) => !fromEntry(d) && walk(d));
      };
      return walk(m);
    };

    if (isRoot(id) || !(GROUPED.test(id) || LUCIDE_ICON.test(id))) return null;
    const roots = [...rootsOf(id)];
    if (roots.length < 2 || fromEntry(id) || pullsLazy(id)) return null;
    return roots.every((r) => signedIn(r)) ? 'signed-in' : 'public';
  };
}
