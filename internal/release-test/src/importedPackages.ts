import { builtinModules } from 'node:module';

/**
 * The npm packages a module's source imports, by package name and in order of first use:
 * `import … from '@adkit/flow/testing'` gives `@adkit/flow`, `import Type from 'typebox'` gives
 * `typebox`. Relative paths and Node's built-in modules (`node:fs`, `fs`) are left out. Reads
 * static `import … from` / `export … from` / bare `import '…'` statements, `import('…')` and
 * `require('…')` with a string literal, and `….resolve('…')` (`require.resolve`,
 * `import.meta.resolve`, `createRequire(…).resolve`): a package an example only resolves, such as
 * an MCP server it starts, must be installed too (#31).
 */
export function importedPackages(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]/gm),
    ...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...source.matchAll(/(?:\brequire|\.resolve)\(\s*['"]([^'"]+)['"]\s*\)/g),
  ]
    .sort((a, b) => a.index - b.index)
    .map((match) => match[1]!);
  const names: string[] = [];
  for (const specifier of specifiers) {
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    if (builtinModules.includes(name)) continue;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
