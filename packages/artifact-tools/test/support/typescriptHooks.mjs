// Node module hooks that run the workspace's TypeScript sources without a build, for tests that
// start other Node processes: `.ts` files are stripped of types with Vite's Oxc transform, `.js`
// imports find their `.ts` source, and `@adkit/<name>` maps to packages/<name>/src/index.ts (as
// vitest.aliases.ts does for the tests themselves). Register with module.register().
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transformWithOxc } from 'vite';

const packages = new URL('../../../', import.meta.url);

export async function resolve(specifier, context, nextResolve) {
  const workspace = /^@adkit\/([a-z-]+)$/.exec(specifier);
  if (workspace) return { url: new URL(`${workspace[1]}/src/index.ts`, packages).href, shortCircuit: true };
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (context.parentURL?.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js'))
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    throw error;
  }
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transformWithOxc(await readFile(path, 'utf8'), path, { sourcemap: false });
  return { format: 'module', source: code, shortCircuit: true };
}

