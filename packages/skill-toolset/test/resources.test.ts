// Resources stay inside their skill's folder (SK-7) and under the size limit (SK-10). Bad input
// tried: `../`, `a/../../`, absolute POSIX and Windows paths, backslashes, percent-encoded and
// full-width dots (never decoded), NUL, hidden files, a symbolic link to a file outside, a
// symbolic link to a folder outside, a sibling skill's files, the skill folder itself, a
// 2,000-character path, a file one byte over the limit, a 50 MB file.
import { symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { fileSystemSource, inMemorySource, isSkillError, type SkillSource } from '../src/index.js';
import { collectingLogger, skillMd, tempDir, writeFiles } from './support.js';

let root: string;
let source: SkillSource;
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

beforeEach(async () => {
  const base = await tempDir();
  root = join(base, 'skills');
  await writeFiles(base, {
    'secret.txt': 'outside the skills folder',
    'skills/demo/SKILL.md': skillMd('demo'),
    'skills/demo/references/guide.md': '# Guide\n',
    'skills/demo/references/deeper/notes.md': 'notes',
    'skills/demo/assets/logo.png': PNG,
    'skills/demo/.env': 'TOKEN=1',
    'skills/demo/references/.hidden.md': 'hidden',
    'skills/demo/%2e%2e/x.md': 'a folder really named %2e%2e',
    'skills/other/SKILL.md': skillMd('other'),
    'skills/other/references/private.md': 'the other skill',
  });
  await symlink(join(base, 'secret.txt'), join(root, 'demo/references/escape.md'));
  await symlink(base, join(root, 'demo/references/outside-dir'));
  await symlink('guide.md', join(root, 'demo/references/alias.md'));
  source = fileSystemSource(root, { logger: collectingLogger() });
});

async function refusal(path: string, from: SkillSource = source): Promise<string> {
  try {
    await from.loadResource('demo', path);
  } catch (error) {
    if (isSkillError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error(`"${path}" was not refused`);
}

describe('SK-7 path traversal', () => {
  const invalid = (path: string, why: string) => `SKILL_INVALID_RESOURCE_PATH: invalid resource path "${path}" for skill "demo": ${why}`;
  const cases: [string, string][] = [
    ['../secret.txt', 'it leaves the skill folder'],
    ['references/../../secret.txt', 'it leaves the skill folder'],
    ['references/../../../secret.txt', 'it leaves the skill folder'],
    ['../other/references/private.md', 'it leaves the skill folder'],
    ['..', 'it leaves the skill folder'],
    ['/etc/passwd', 'absolute paths are refused; give a path relative to the skill folder'],
    ['//server/share', 'absolute paths are refused; give a path relative to the skill folder'],
    ['C:/Windows/win.ini', 'absolute paths are refused; give a path relative to the skill folder'],
    ['..\\secret.txt', 'use forward slashes, relative to the skill folder (e.g. "references/guide.md")'],
    ['references\\guide.md', 'use forward slashes, relative to the skill folder (e.g. "references/guide.md")'],
    ['references/guide.md\0.png', 'it contains a NUL character'],
    ['.env', 'hidden files and folders are not resources'],
    ['references/.hidden.md', 'hidden files and folders are not resources'],
    ['.', 'it names the skill folder itself, not a file'],
    ['./', 'it names the skill folder itself, not a file'],
    ['', 'it is empty'],
  ];
  for (const [path, why] of cases)
    it(`SK-7: refuses ${JSON.stringify(path)}`, async () => {
      const shown = path.replace(/\0/g, '\\x00');
      expect(await refusal(path)).toBe(invalid(shown, why));
    });

  it('SK-7: the absolute path of a real file inside the skill is refused too', async () => {
    const absolute = join(root, 'demo/references/guide.md');
    expect(await refusal(absolute)).toBe(invalid(absolute, 'absolute paths are refused; give a path relative to the skill folder'));
  });

  it('SK-7: symbolic links that leave the skill folder are refused, to a file or through a folder', async () => {
    expect(await refusal('references/escape.md')).toBe(invalid('references/escape.md', 'it leaves the skill folder through a symbolic link'));
    expect(await refusal('references/outside-dir/secret.txt')).toBe(
      invalid('references/outside-dir/secret.txt', 'it leaves the skill folder through a symbolic link'),
    );
    expect(await refusal('references/outside-dir/skills/other/references/private.md')).toMatch(/through a symbolic link$/);
  });

  it('nothing is decoded: percent-encoded and full-width dots name ordinary (here missing) files', async () => {
    expect(await refusal('%2e%2e/secret.txt')).toBe('SKILL_RESOURCE_NOT_FOUND: resource "%2e%2e/secret.txt" not found in skill "demo"');
    // A name starting with "." is hidden, whatever follows.
    expect(await refusal('..%2fsecret.txt')).toBe(invalid('..%2fsecret.txt', 'hidden files and folders are not resources'));
    expect(await refusal('references/%2e%2e%2f%2e%2e%2fsecret.txt')).toMatch(/^SKILL_RESOURCE_NOT_FOUND/);
    expect(await refusal('\uFF0E\uFF0E/secret.txt')).toMatch(/^SKILL_RESOURCE_NOT_FOUND/);
    expect(new TextDecoder().decode(await source.loadResource('demo', '%2e%2e/x.md'))).toBe('a folder really named %2e%2e');
  });

  it('a 2,000-character path and a folder are refused; a missing file is SKILL_RESOURCE_NOT_FOUND', async () => {
    expect(await refusal('a/'.repeat(1000))).toMatch(/: it is longer than 1024 characters$/);
    expect(await refusal('references')).toBe(invalid('references', 'it is a folder, not a regular file'));
    expect(await refusal('references/missing.md')).toBe('SKILL_RESOURCE_NOT_FOUND: resource "references/missing.md" not found in skill "demo"');
  });

  it('paths are cleaned lexically first (SK-7): ./, a/../ and links that stay inside are fine', async () => {
    const text = async (path: string) => new TextDecoder().decode(await source.loadResource('demo', path));
    expect(await text('references/guide.md')).toBe('# Guide\n');
    expect(await text('./references/guide.md')).toBe('# Guide\n');
    expect(await text('references/deeper/../guide.md')).toBe('# Guide\n');
    expect(await text('references/alias.md')).toBe('# Guide\n');
    expect(await source.loadResource('demo', 'assets/logo.png')).toEqual(PNG);
  });

  it('listResources lists the skill files only: no hidden files, no links leading out, and refuses a subpath leading out', async () => {
    expect(await source.listResources('demo')).toEqual([
      '%2e%2e/x.md',
      'assets/logo.png',
      'references/alias.md',
      'references/deeper/notes.md',
      'references/guide.md',
    ]);
    expect(await source.listResources('demo', 'references/deeper')).toEqual(['references/deeper/notes.md']);
    await expect(source.listResources('demo', '../other')).rejects.toThrow('invalid resource path "../other" for skill "demo": it leaves the skill folder');
  });

  it('SK-7 through the skill name: names are looked up, never joined into paths', async () => {
    for (const name of ['../other', 'demo/..', '/', '.'])
      await expect(source.loadResource(name, 'references/guide.md')).rejects.toMatchObject({ code: 'SKILL_NOT_FOUND' });
  });

  it('the in-memory source applies the same path rules', async () => {
    const memory = inMemorySource([{ frontmatter: { name: 'demo', description: 'd' }, resources: { 'references/guide.md': '# Guide\n' } }]);
    expect(await refusal('../secret.txt', memory)).toBe(invalid('../secret.txt', 'it leaves the skill folder'));
    expect(await refusal('/references/guide.md', memory)).toMatch(/absolute paths are refused/);
    expect(new TextDecoder().decode(await memory.loadResource('demo', 'references/x/../guide.md'))).toBe('# Guide\n');
  });
});

describe('SK-10 size limit', () => {
  it('a file of exactly the limit loads; one byte more is refused with the SK-10 message', async () => {
    await writeFile(join(root, 'demo/assets/exact.bin'), new Uint8Array(1000));
    await writeFile(join(root, 'demo/assets/over.bin'), new Uint8Array(1001));
    expect((await source.loadResource('demo', 'assets/exact.bin', { maxBytes: 1000 })).length).toBe(1000);
    await expect(source.loadResource('demo', 'assets/over.bin', { maxBytes: 1000 })).rejects.toMatchObject({
      code: 'SKILL_RESOURCE_TOO_LARGE',
      message: "resource 'assets/over.bin' from skill 'demo' is too large (limit: 1000 bytes)",
    });
    const memory = inMemorySource([{ frontmatter: { name: 'demo', description: 'd' }, resources: { 'a.bin': new Uint8Array(1001) } }]);
    await expect(memory.loadResource('demo', 'a.bin', { maxBytes: 1000 })).rejects.toThrow(
      "resource 'a.bin' from skill 'demo' is too large (limit: 1000 bytes)",
    );
  });

  it('a 50 MB file is refused at the default 10 MiB limit', async () => {
    // A sparse 50 MB file: refused by its size before any of it is read.
    await writeFile(join(root, 'demo/assets/huge.bin'), '');
    await truncate(join(root, 'demo/assets/huge.bin'), 50 * 1024 * 1024);
    await expect(source.loadResource('demo', 'assets/huge.bin')).rejects.toThrow(
      "resource 'assets/huge.bin' from skill 'demo' is too large (limit: 10485760 bytes)",
    );
  });
});
