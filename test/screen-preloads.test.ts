import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';
import { routeModules } from '../frontend/build/screen-preloads';

const router = path.join(import.meta.dirname, '..', 'frontend', 'src', 'app', 'router.tsx');

describe("the build's reading of the route table", () => {
  const routes = routeModules(parseAst(readFileSync(router, 'utf8'), { lang: 'tsx' }) as never);
  const route = (p: string) => routes.find((r) => r.path === p);

  it('gives a signed-in screen the lazy modules of its route and the routes around it', () => {
    expect(route('/home')).toEqual({
      path: '/home',
      audience: 'signed-in',
      modules: ['@/app/routes/app/signed-in', '@/app/routes/app/shell', '@/app/routes/app/insights'],
    });
    expect(route('/conversations/:id')).toEqual({
      path: '/conversations/:id',
      audience: 'signed-in',
      modules: ['@/app/routes/app/signed-in', '@/app/routes/app/conversation'],
    });
  });

  it("tells visitors' screens and everyone's apart from signed-in ones", () => {
    expect(route('/auth')).toMatchObject({ audience: 'visitor', modules: ['@/app/routes/auth'] });
    expect(route('/privacy-policy')).toMatchObject({ audience: 'anyone' });
    // The direct provider flow is guarded too (it sends visitors to /auth).
    expect(route('/direct-google-auth')).toMatchObject({ audience: 'signed-in' });
    // Screens drawn by the entry itself need nothing more.
    expect(route('/welcome')).toBeUndefined();
  });

  it('covers every lazily loaded screen of the table', () => {
    const source = readFileSync(router, 'utf8');
    const lazy = source.match(/lazy: screen\(/g) ?? [];
    // Two lazy routes are layouts without a path of their own (the signed-in frame and the tab shell).
    const layouts = source.match(/\{\s*(\/\/[^\n]*\s*)*lazy: screen\(/g) ?? [];
    expect(layouts).toHaveLength(2);
    expect(routes).toHaveLength(lazy.length - layouts.length);
  });
});
