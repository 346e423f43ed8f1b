// The root README tells the truth about the tree (#31): its package table lists exactly the
// publishable packages/*, its examples table every examples/* folder, no hard-coded package count
// can go stale, and every command it gives works after the quick start (`npm run demo`,
// `npm test`): no bare `pnpm` (not on PATH), only npm scripts that exist, example names that exist,
// and the TypeScript / @types/node versions the repository pins. Bad input tried: a package added
// without a row, a row for a package that is gone, a stale "N packages".
import { codeBlocks } from '@adkit/test-support';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markdownSection, publishablePackages } from '../src/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The first column of a section's Markdown table: each row's link targets. */
function tableLinks(section: string): string[] {
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ['))
    .flatMap((line) => [...line.split(' | ')[0]!.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!));
}

/** Every command line of the README's sh blocks, and every `inline command` of its prose. */
function commands(markdown: string): string[] {
  const lines = codeBlocks(markdown, 'sh').flatMap((block) => block.split('\n').map((line) => line.replace(/(^|\s)#.*$/, '').trim()));
  const inline = [...markdown.replace(/```[\s\S]*?```|<!--[\s\S]*?-->/g, '').matchAll(/`((?:npm|npx|pnpm|node) [^`]+)`/g)].map((match) => match[1]!);
  return [...lines, ...inline].filter((line) => line.length > 0);
}

describe('the root README', () => {
  it('the package table lists every publishable packages/* folder, and nothing else', () => {
    const rows = tableLinks(markdownSection(readme, 'Packages') ?? '');
    const packages = publishablePackages(root).map((pkg) => `packages/${pkg.folder}`);
    const missing = packages.filter((dir) => !rows.includes(dir));
    const stale = rows.filter((dir) => !packages.includes(dir));
    expect({ missing, stale }, 'add a row to the Packages table of README.md for each missing package').toEqual({ missing: [], stale: [] });
    for (const pkg of publishablePackages(root)) expect(readme, `the row of packages/${pkg.folder} names it`).toContain(`[\`${pkg.name}\`](packages/${pkg.folder})`);
  });

  it('the examples table lists every examples/* folder, and nothing else', () => {
    const rows = tableLinks(markdownSection(readme, 'Examples') ?? '');
    const folders = readdirSync(join(root, 'examples'))
      .filter((name) => existsSync(join(root, 'examples', name, 'package.json')))
      .map((name) => `examples/${name}`);
    expect({ missing: folders.filter((dir) => !rows.includes(dir)), stale: rows.filter((dir) => !folders.includes(dir)) }).toEqual({ missing: [], stale: [] });
  });

  it('holds no package count that a new package would make wrong', () => {
    // The Speed section quotes measured installs ("7 packages without the openai SDK"): not counts of adkit's.
    const speed = markdownSection(readme, 'Speed') ?? '';
    const counts = [...readme.replace(speed, '').matchAll(/\b(\d+) (?:packages|tarballs)\b/g)].map((match) => Number(match[1]));
    expect(counts.filter((count) => count !== publishablePackages(root).length)).toEqual([]);
    // What exists is not listed as missing.
    const notYet = readme.split('\n').find((line) => line.startsWith('| not in adkit (yet)')) ?? '';
    if (existsSync(join(root, 'packages', 'dev-ui'))) expect(notYet).not.toMatch(/dev UI/i);
  });

  it('gives only commands that work after the quick start: npm scripts that exist, pnpm through npx, real example names', () => {
    const docs = [readme, readFileSync(join(root, 'apps', 'demo', 'README.md'), 'utf8')];
    const problems: string[] = [];
    const examples = readdirSync(join(root, 'examples'));
    for (const line of docs.flatMap(commands)) {
      if (/(^|[\s;&|(])pnpm\s/.test(line) && !/npx -y pnpm@\d/.test(line)) problems.push(`bare pnpm (not on PATH): ${line}`);
      for (const match of line.matchAll(/\bnpm run (?!-)(\S+)/g))
        if (!rootManifest.scripts[match[1]!]) problems.push(`no root script "${match[1]}": ${line}`);
      for (const match of line.matchAll(/\bnpm run example -- (\S+)/g))
        if (!examples.includes(match[1]!)) problems.push(`no example "${match[1]}": ${line}`);
      for (const match of line.matchAll(/npx -y pnpm@(\S+)/g))
        if (`pnpm@${match[1]}` !== (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { packageManager: string }).packageManager)
          problems.push(`pnpm version differs from packageManager: ${line}`);
    }
    expect(problems).toEqual([]);
  });

  it('pins the TypeScript and @types/node the repository itself uses, and shows the tsconfig.json with types: ["node"]', () => {
    const install = markdownSection(readme, 'Install') ?? '';
    expect(install).toContain(`typescript@${rootManifest.devDependencies.typescript}`);
    expect(install).toContain(`@types/node@${rootManifest.devDependencies['@types/node']}`);
    const tsconfig = JSON.parse(codeBlocks(install, 'json')[0] ?? '{}') as { compilerOptions?: { types?: string[]; strict?: boolean; module?: string } };
    expect(tsconfig.compilerOptions).toMatchObject({ types: ['node'], strict: true, module: 'nodenext' });
    expect(install).toContain('npm pkg set type=module');
    expect(install).toMatch(/not on the public npm registry yet/);
  });
});
