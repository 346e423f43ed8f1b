// One name per idea across packages (#31, CONTRIBUTING.md "One name per idea"), on every
// publishable package's real exports: an export ending in `Tool` or `Toolset` is a function (a
// factory) or a class, never a ready-made value, unless it is a `@deprecated` alias of the
// suffix-less name, the very same object; and asking before a call is `requireConfirmation`
// everywhere, an option named `require` only as a deprecated alias. Bad input tried: none from
// outside; a new package that breaks a rule fails here with the export's name.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publishablePackages } from '../src/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const packages = publishablePackages(root);

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** Whether `name` is declared right after a JSDoc block holding `@deprecated`. */
function deprecatedIn(text: string, name: string): boolean {
  return new RegExp(`@deprecated[^/]*?\\*/\\s*export const ${name}\\b`).test(text);
}

describe('one name per idea, on every package\'s exports', () => {
  it('a ready-made tool has no Tool/Toolset suffix; an export with one is a factory or a class, or a deprecated alias of the new name', async () => {
    const problems: string[] = [];
    for (const pkg of packages) {
      const api = (await import(pathToFileURL(join(pkg.dir, 'src', 'index.ts')).href)) as Record<string, unknown>;
      const text = sources(join(pkg.dir, 'src')).map((file) => readFileSync(file, 'utf8')).join('\n');
      for (const [name, value] of Object.entries(api)) {
        if (!/(Tool|Toolset)$/.test(name) || typeof value === 'function') continue;
        const renamed = name.replace(/(Tool|Toolset)$/, '');
        if (deprecatedIn(text, name) && api[renamed] === value) continue;
        problems.push(`${pkg.name}: ${name} is a ready-made value, so it is named without the suffix (${renamed}); keep ${name} only as a @deprecated alias of it`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the confirmation option is requireConfirmation in every package; `require` only as a deprecated alias', () => {
    const problems: string[] = [];
    for (const pkg of packages)
      for (const file of sources(join(pkg.dir, 'src'))) {
        const text = readFileSync(file, 'utf8');
        for (const match of text.matchAll(/^\s*(?:readonly\s+)?require\??:/gm)) {
          const before = text.slice(0, match.index);
          const doc = before.slice(before.lastIndexOf('/**'));
          if (!(doc.includes('@deprecated') && doc.includes('*/') && !doc.slice(doc.indexOf('*/')).includes(';'))) problems.push(`${file.slice(root.length)}: an option named "require"; call it requireConfirmation`);
        }
      }
    expect(problems).toEqual([]);
  });

  it('CONTRIBUTING.md lists every deprecated name, so the next release knows what to remove', async () => {
    const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
    const missing: string[] = [];
    for (const pkg of packages) {
      const text = sources(join(pkg.dir, 'src')).map((file) => readFileSync(file, 'utf8')).join('\n');
      for (const match of text.matchAll(/@deprecated[^/]*?\*\/\s*export const (\w+)\b/g))
        if (!contributing.includes(`\`${match[1]}\``)) missing.push(`${pkg.name}: ${match[1]}`);
    }
    expect(missing).toEqual([]);
  });
});
