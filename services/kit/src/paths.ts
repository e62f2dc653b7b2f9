import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The repository (or image) root: the nearest folder above this module that holds `services/kit`.
 * Works from the TypeScript sources, a service's own bundle and the all-in-one bundle alike, so
 * migrations and the built SPA are found by one relative path everywhere.
 */
export function repoRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'services', 'kit', 'package.json'))) return (cached = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the project root (a folder holding services/kit)');
    dir = parent;
  }
}

/** A path below the repository root. */
export function repoPath(...parts: string[]): string {
  return path.join(repoRoot(), ...parts);
}
