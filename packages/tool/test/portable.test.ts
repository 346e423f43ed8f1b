// #9 "Portable core" and "Cold start", pinned on the sources of the core tool packages: no `node:`
// module (or bare Node built-in) is imported by @adkit/tool, @adkit/function-tool or
// @adkit/confirmation, so they run in browsers, Deno, Bun and workers (flow has the same test);
// TypeBox is never imported at run time by them (its compiler loads on first use, through
// @adkit/flow's compileSchema); and nothing writes `request.tools` through a cast (registerTool is
// the one way). Bad input looked for: static, side-effect, dynamic and `require` imports, type-only
// imports (allowed), casts such as `(request.tools as Record<…>)[name] =`.
import { builtinModules } from 'node:module';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packages = fileURLToPath(new URL('../../', import.meta.url));
const PORTABLE = ['tool', 'function-tool', 'confirmation'];

async function sources(name: string): Promise<{ file: string; text: string }[]> {
  const root = join(packages, name, 'src');
  const files: { file: string; text: string }[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.ts')) files.push({ file: `${name}/src/${path.slice(root.length + 1)}`, text: await readFile(path, 'utf8') });
    }
  };
  await walk(root);
  return files;
}

/** Every module specifier a file imports at run time (type-only imports left out). */
function runtimeImports(text: string): string[] {
  const specifiers: string[] = [];
  const patterns = [
    /^\s*import\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm,
    /^\s*export\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) specifiers.push(match[1]!);
  return specifiers;
}

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

describe('the core tool packages stay portable and cheap to import (#9)', () => {
  it.each(PORTABLE)('@adkit/%s imports no node: module', async (name) => {
    const found = (await sources(name)).flatMap(({ file, text }) =>
      runtimeImports(text)
        .filter((specifier) => specifier.startsWith('node:') || builtins.has(specifier))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(found).toEqual([]);
  });

  it.each(PORTABLE)('@adkit/%s never imports TypeBox at run time (types only)', async (name) => {
    const found = (await sources(name)).flatMap(({ file, text }) =>
      runtimeImports(text)
        .filter((specifier) => specifier === 'typebox' || specifier.startsWith('typebox/'))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(found).toEqual([]);
  });

  it.each([...PORTABLE, 'gemini-tools'])('@adkit/%s writes request.tools only through registerTool/packTool', async (name) => {
    const found = (await sources(name)).flatMap(({ file, text }) =>
      text
        .split('\n')
        .filter((line) => /\.tools\s+as\b/.test(line) || /\.tools\[[^\]]+\]\s*=[^=]/.test(line) || /\.tools\.\w+\s*=[^=]/.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('the scan itself finds what it looks for', () => {
    expect(runtimeImports("import { a } from 'node:fs';\nimport type { B } from 'typebox';\nconst m = await import('typebox/compile');")).toEqual([
      'node:fs',
      'typebox/compile',
    ]);
    expect(runtimeImports("import 'crypto';\nexport { x } from 'typebox';\nconst f = require('fs');")).toEqual(['typebox', 'crypto', 'fs']);
  });
});
