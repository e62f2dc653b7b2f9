import { readFileSync } from 'node:fs';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

import { SCREEN_PRELOADS_FILE, type Audience, type ScreenPreload } from '../../contracts/src/spa.ts';
import { paths } from '../src/config/paths.ts';

// The parts of an ESTree the route table is made of.
interface Node {
  type: string;
  [key: string]: unknown;
}
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/** Every node below `node`, depth first. */
function* walk(node: unknown): Generator<Node> {
  if (Array.isArray(node)) for (const n of node) yield* walk(n);
  else if (isNode(node)) {
    yield node;
    for (const [key, value] of Object.entries(node)) if (key !== 'type') yield* walk(value);
  }
}

/** `paths.home.path` → '/home'; a string literal → itself. */
function pathOf(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  const object = node.object as Node | undefined;
  if (node.type === 'MemberExpression' && object?.type === 'MemberExpression') {
    const root = object.object as Node;
    const name = (object.property as Node).name as keyof typeof paths;
    if (root.type === 'Identifier' && root.name === 'paths' && paths[name]) return paths[name].path;
  }
  throw new Error(`screen-preloads: a route path the build cannot read (${node.type})`);
}

interface RouteModules {
  path: string;
  audience: Audience;
  /** The specifiers of the lazily loaded modules that draw the screen, outermost first. */
  modules: string[];
}

/**
 * The screens of the route table in `router.tsx` (its `routes` array), each with the lazy modules of
 * its route and the routes around it, and its audience: below `<ProtectedRoute>` signed-in people,
 * below `<GuestRoute>` visitors.
 */
export function routeModules(program: Node): RouteModules[] {
  const declarator = [...walk(program)].find(
    (n) => n.type === 'VariableDeclarator' && (n.id as Node).name === 'routes',
  );
  const table = declarator?.init as Node | undefined;
  if (table?.type !== 'ArrayExpression') throw new Error('screen-preloads: no `routes` array in the router');
  const found: RouteModules[] = [];
  const visit = (routes: Node, modules: string[], audience: Audience) => {
    for (const route of routes.elements as Node[]) {
      if (route.type !== 'ObjectExpression') continue;
      const prop = (name: string) =>
        (route.properties as Node[]).find((p) => p.type === 'Property' && (p.key as Node).name === name)
          ?.value as Node | undefined;
      const element = prop('element');
      const guard = element?.type === 'JSXElement' ? (element.openingElement as Node).name : undefined;
      const guardName = isNode(guard) ? guard.name : undefined;
      const here: Audience =
        guardName === 'ProtectedRoute' ? 'signed-in' : guardName === 'GuestRoute' ? 'visitor' : audience;
      const lazy = prop('lazy');
      const imported = lazy ? [...walk(lazy)].find((n) => n.type === 'ImportExpression') : undefined;
      const source = imported ? ((imported.source as Node).value as string) : undefined;
      const chain = source ? [...modules, source] : modules;
      const path = pathOf(prop('path'));
      if (path !== undefined && chain.length > 0) found.push({ path, audience: here, modules: chain });
      const children = prop('children');
      if (children?.type === 'ArrayExpression') visit(children, chain, here);
    }
  };
  visit(table, [], 'anyone');
  return found;
}

/** A chunk's file and those of everything it imports statically. */
function closure(bundle: OutputBundle, chunk: OutputChunk, into = new Set<string>()): Set<string> {
  if (into.has(chunk.fileName)) return into;
  into.add(chunk.fileName);
  for (const file of chunk.imports) {
    const imported = bundle[file];
    if (imported?.type === 'chunk') closure(bundle, imported, into);
  }
  return into;
}

/**
 * Writes `screen-preloads.json`: for each screen of the route table, the chunks its lazy routes
 * load. The gateway names them in the page it serves for that screen (`<link rel="modulepreload">`),
 * so a phone fetches them beside the entry instead of after it has run: one round of a slow network
 * fewer before the screen can draw.
 */
export function screenPreloads(routerFile: string): Plugin {
  return {
    name: 'haven:screen-preloads',
    apply: 'build',
    async generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) throw new Error('screen-preloads: the bundle has no entry chunk');
      const loadedByIndex = closure(bundle, entry);
      const program = this.parse(readFileSync(routerFile, 'utf8'), { lang: 'tsx' }) as unknown as Node;
      const screens: ScreenPreload[] = [];
      for (const route of routeModules(program)) {
        const files = new Set<string>();
        for (const specifier of route.modules) {
          const resolved = await this.resolve(specifier, routerFile);
          const chunk = resolved && chunks.find((c) => c.facadeModuleId === resolved.id);
          if (!chunk) throw new Error(`screen-preloads: no chunk for ${specifier} (route ${route.path})`);
          closure(bundle, chunk, files);
        }
        screens.push({
          path: route.path,
          audience: route.audience,
          files: [...files].filter((f) => !loadedByIndex.has(f)).map((f) => `/${f}`),
        });
      }
      this.emitFile({
        type: 'asset',
        fileName: SCREEN_PRELOADS_FILE,
        source: `${JSON.stringify({ screens }, null, 2)}\n`,
      });
    },
  };
}
