// The README readers the release test relies on (#16): which section is "Install", which npm
// install commands it holds, which packages an example imports, and how a shell expands a
// tarball pattern. Bad input tried: headings inside code fences, a missing section, options and
// comments on an install line, multi-line and type-only imports, Node built-ins, a pattern that
// matches nothing.
import { codeBlocks } from '@adkit/test-support';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expandFilePattern, importedPackages, markdownSection, npmInstallArgs } from '../src/index.js';

describe('markdownSection', () => {
  const markdown = ['# t', '## Install', 'a', '```sh', '# not a heading', '```', '### Sub', 'b', '## Next', 'c'].join('\n');

  it('takes the body up to the next heading of the same level, sub-headings and fences included', () => {
    expect(markdownSection(markdown, 'Install')).toBe(['a', '```sh', '# not a heading', '```', '### Sub', 'b'].join('\n'));
    expect(markdownSection(markdown, 'Sub')).toBe('b');
    expect(markdownSection(markdown, 'Next')).toBe('c');
  });

  it('is undefined for a missing heading, and for a heading that only appears inside a fence', () => {
    expect(markdownSection(markdown, 'Missing')).toBeUndefined();
    expect(markdownSection(markdown, 'not a heading')).toBeUndefined();
  });
});

describe('npmInstallArgs', () => {
  it('lists each npm install command, without options and comments', () => {
    const text = ['npm install -D @adkit/flow typebox   # the core', 'pnpm add x', '$ npm i ./a-*.tgz --save'].join('\n');
    expect(npmInstallArgs(text)).toEqual([['@adkit/flow', 'typebox'], ['./a-*.tgz']]);
    expect(npmInstallArgs('npm run build')).toEqual([]);
  });
});

describe('importedPackages', () => {
  it('names packages once, in order; scoped subpaths by package; built-ins and relative paths left out', () => {
    const source = [
      "import { a } from '@adkit/flow';",
      "import type { B } from '@adkit/flow/testing';",
      'import {',
      '  c,',
      "} from 'typebox';",
      "import fs from 'node:fs';",
      "import path from 'path';",
      "import './local.js';",
      "export { d } from '@scope/pack/sub';",
      "const e = await import('late');",
      "const server = createRequire(import.meta.url).resolve('@mcp/server-x/dist/index.js');",
      "const f = require('req'); import.meta.resolve('meta');",
    ].join('\n');
    expect(importedPackages(source)).toEqual(['@adkit/flow', 'typebox', '@scope/pack', 'late', '@mcp/server-x', 'req', 'meta']);
  });
});

describe('expandFilePattern', () => {
  it('expands braces in order and wildcards within each, and refuses an alternative that matches nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'adkit-expand-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    for (const file of ['adkit-tool-0.1.0.tgz', 'adkit-flow-0.1.0.tgz', 'adkit-flow-tools-0.1.0.tgz', 'other.tgz']) writeFileSync(join(dir, file), '');
    expect(expandFilePattern(dir, 'adkit-{tool,flow}-0*.tgz')).toEqual(['adkit-tool-0.1.0.tgz', 'adkit-flow-0.1.0.tgz']);
    expect(expandFilePattern(dir, 'adkit-flow-*.tgz')).toEqual(['adkit-flow-0.1.0.tgz', 'adkit-flow-tools-0.1.0.tgz']);
    expect(() => expandFilePattern(dir, 'adkit-{tool,nope}-*.tgz')).toThrow('matches "adkit-nope-*.tgz"');
  });
});

describe("the root README, as the release test reads it", () => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

  it('has an Install section: tarballs from a clone first (with every package the quick-start imports), TypeScript, then the registry line', () => {
    const lines = npmInstallArgs(markdownSection(readme, 'Install') ?? '');
    const fromClone = lines.findIndex((words) => words.some((word) => word.includes('packed/')));
    const fromRegistry = lines.findIndex((words) => words.includes('@adkit/flow'));
    expect(fromClone).toBeGreaterThanOrEqual(0);
    expect(fromRegistry).toBeGreaterThan(fromClone);
    const quickStart = codeBlocks(readme, 'ts')[0] ?? '';
    expect(importedPackages(quickStart).filter((name) => !lines[fromRegistry]!.includes(name))).toEqual([]);
    // The tarball line names each @adkit package the quick-start imports.
    const packed = lines[fromClone]!.join(' ');
    for (const name of importedPackages(quickStart))
      if (name.startsWith('@adkit/')) expect(packed).toMatch(new RegExp(`[{,]${name.slice('@adkit/'.length)}[,}]`));
      else expect(lines[fromClone]).toContain(name);
  });
});
