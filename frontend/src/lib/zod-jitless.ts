import { config } from 'zod';

// Zod compiles object parsers with `new Function` unless told not to, after probing whether eval is
// allowed; our CSP forbids eval, so the probe alone is reported as a policy violation (and costs a
// Lighthouse best-practices point). Set before any schema exists: imported first by main.tsx, and
// bundled in zod's own chunk (vite.config.ts) so that order holds across chunks too.
config({ jitless: true });
