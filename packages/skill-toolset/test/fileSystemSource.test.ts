// The folder source (SK-1, SK-5, SK-6): discovery, caching, lenient skipping and strict failure,
// duplicates, concurrency. Bad input tried: YAML that does not parse, a missing description, a
// SKILL.md that is a folder, a frontmatter with no closing line in its first 256 KiB, an 11 MiB
// SKILL.md, duplicate names, hidden folders and node_modules, a symbolic link back to the root,
// a missing root, `__proto__` / `constructor` / `../x` as skill names, 50 concurrent cold listings.
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSystemSource, isSkillError } from '../src/index.js';
import { collectingLogger, skillMd, tempDir, writeFiles } from './support.js';

async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isSkillError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a SkillError');
}

describe('discovery (SK-1, SK-6)', () => {
  it('immediate folders with SKILL.md, sorted; loose files, folders without SKILL.md, hidden folders and node_modules are skipped', async () => {
    const root = await tempDir();
    await writeFiles(root, {
      'zeta/SKILL.md': skillMd('zeta'),
      'alpha/SKILL.md': skillMd('alpha'),
      'notes/readme.md': '# not a skill',
      '.hidden/SKILL.md': skillMd('hidden'),
      'node_modules/pkg/SKILL.md': skillMd('pkg'),
      'README.md': '# skills',
      'alpha/nested/SKILL.md': skillMd('nested'),
    });
    await mkdir(join(root, 'dir-skill/SKILL.md'), { recursive: true });
    const source = fileSystemSource(root, { logger: collectingLogger() });
    expect((await source.listFrontmatters()).map((skill) => skill.name)).toEqual(['alpha', 'zeta']);
    expect((await fileSystemSource(root, { depth: 2, logger: collectingLogger() }).listFrontmatters()).map((s) => s.name)).toEqual([
      'alpha',
      'nested',
      'zeta',
    ]);
  });

  it('symbolic links to skill folders are followed but never walked into, so a link back to the root cannot loop', async () => {
    const root = await tempDir();
    const elsewhere = await tempDir();
    await writeFiles(elsewhere, { 'linked/SKILL.md': skillMd('linked') });
    await writeFiles(root, { 'own/SKILL.md': skillMd('own') });
    await symlink(join(elsewhere, 'linked'), join(root, 'linked'));
    await symlink(root, join(root, 'own', 'loop'));
    const logger = collectingLogger();
    const listed = await fileSystemSource(root, { depth: 8, logger }).listFrontmatters();
    expect(listed.map((skill) => skill.name)).toEqual(['linked', 'own']);
    // own/loop is a folder (the root, through the link) without SKILL.md of its own: not a skill.
    expect(logger.warnings).toEqual([]);
  });

  it('lenient mode skips unusable skills with a warning naming the file; strict mode fails the listing (SK-6)', async () => {
    const root = await tempDir();
    await writeFiles(root, {
      'good/SKILL.md': skillMd('good'),
      'broken-yaml/SKILL.md': '---\nname: broken-yaml\ndescription: [unclosed\n---\n',
      'no-description/SKILL.md': '---\nname: no-description\n---\n',
      'no-frontmatter/SKILL.md': '# Just markdown\n',
      'endless/SKILL.md': `---\nname: endless\ndescription: ${'x'.repeat(300_000)}\n`,
    });
    const logger = collectingLogger();
    expect((await fileSystemSource(root, { logger }).listFrontmatters()).map((skill) => skill.name)).toEqual(['good']);
    expect(logger.warnings.map((warning) => warning.replace(/: parse frontmatter: .*/, ': parse frontmatter: … (skipped)'))).toEqual([
      '@adkit/skill-toolset: broken-yaml/SKILL.md: invalid frontmatter: parse frontmatter: … (skipped)',
      "@adkit/skill-toolset: endless/SKILL.md: invalid frontmatter: no closing '---' in the first 262160 bytes; keep the frontmatter short (skipped)",
      '@adkit/skill-toolset: no-description/SKILL.md: description must be between 1 and 1024 characters long (skipped)',
      "@adkit/skill-toolset: no-frontmatter/SKILL.md: invalid frontmatter separator line: must be '---' followed by a new line (skipped)",
    ]);
    expect(await rejection(fileSystemSource(root, { strict: true }).listFrontmatters())).toMatchObject({
      code: 'SKILL_INVALID_FRONTMATTER',
      message: expect.stringMatching(/^broken-yaml\/SKILL.md: invalid frontmatter: parse frontmatter: /),
    });
  });

  it('SK-5 duplicate skill: lenient keeps the first with a warning, strict refuses', async () => {
    const root = await tempDir();
    await writeFiles(root, { 'a/SKILL.md': skillMd('same'), 'b/SKILL.md': skillMd('same', 'The second.') });
    const logger = collectingLogger();
    const listed = await fileSystemSource(root, { logger }).listFrontmatters();
    expect(listed).toEqual([{ name: 'same', description: 'Does same things.' }]);
    expect(logger.warnings.at(-1)).toBe('@adkit/skill-toolset: duplicate skill "same": a/SKILL.md and b/SKILL.md; rename one (the second is skipped)');
    const strict = await rejection(fileSystemSource(root, { strict: true }).listFrontmatters());
    expect(strict).toEqual({ code: 'SKILL_INVALID_NAME', message: 'a/SKILL.md: name in SKILL.md ("same") does not match directory name ("a")' });
    await writeFiles(root, { 'a/SKILL.md': '---\nname: a\ndescription: d\n---\n', 'b/SKILL.md': '---\nname: a\ndescription: d\n---\n' });
    await rename(join(root, 'b'), join(root, 'c'));
    const linked = await tempDir();
    await symlink(join(root, 'a'), join(linked, 'a'));
    await mkdir(join(linked, 'nested'));
    await symlink(join(root, 'a'), join(linked, 'nested', 'a'));
    expect(await rejection(fileSystemSource(linked, { strict: true, depth: 2 }).listFrontmatters())).toEqual({
      code: 'SKILL_DUPLICATE',
      message: 'duplicate skill "a": a/SKILL.md and nested/a/SKILL.md; rename one',
    });
  });

  it('a missing root is SKILL_SOURCE_UNAVAILABLE naming the folder', async () => {
    const root = join(await tempDir(), 'nope');
    expect(await rejection(fileSystemSource(root).listFrontmatters())).toEqual({
      code: 'SKILL_SOURCE_UNAVAILABLE',
      message: expect.stringContaining(`skills folder "${root}" cannot be read: ENOENT`),
    });
  });

  it('unknown names are SKILL_NOT_FOUND, including __proto__, constructor and paths; a skill really named __proto__ loads', async () => {
    const root = await tempDir();
    await writeFiles(root, { demo: '', 'odd/SKILL.md': '---\nname: __proto__\ndescription: Odd.\n---\nodd body\n' });
    const logger = collectingLogger();
    const source = fileSystemSource(root, { logger });
    for (const name of ['constructor', 'toString', '../odd', 'odd', 'x'.repeat(10_000)])
      expect((await rejection(source.loadFrontmatter(name))).code).toBe('SKILL_NOT_FOUND');
    expect(await rejection(source.loadInstructions('hasOwnProperty'))).toEqual({ code: 'SKILL_NOT_FOUND', message: 'skill "hasOwnProperty" not found' });
    expect(await source.loadFrontmatter('__proto__')).toEqual({ name: '__proto__', description: 'Odd.' });
    expect(await source.loadInstructions('__proto__')).toBe('odd body\n');
    expect(logger.warnings[0]).toBe(
      '@adkit/skill-toolset: odd/SKILL.md: name may only contain lowercase alphanumeric characters (a-z, 0-9) and hyphens (lenient mode)',
    );
  });

  it('an aborted signal fails the call before it reads', async () => {
    const root = await tempDir();
    await writeFiles(root, { 'one/SKILL.md': skillMd('one') });
    const source = fileSystemSource(root);
    const signal = AbortSignal.abort(new Error('stop'));
    await expect(source.listFrontmatters({ signal })).rejects.toThrow('stop');
    await expect(source.loadInstructions('one', { signal })).rejects.toThrow('stop');
    expect(await source.loadInstructions('one')).toBe('# one\n\nStep one.\n');
  });

  it('options are checked at construction with messages naming the fix', () => {
    expect(() => fileSystemSource('')).toThrow('fileSystemSource: dir must be the path of a folder of skill folders');
    expect(() => fileSystemSource('x', { depth: 0 })).toThrow('depth must be an integer from 1 to 8, got 0');
    expect(() => fileSystemSource('x', { resourceFolders: ['../up'] })).toThrow('resourceFolders must be folder names');
    expect(() => fileSystemSource('x', { maxSkillMdBytes: -1 })).toThrow('maxSkillMdBytes must be a positive integer');
  });
});

describe('caching (frontmatter read once)', () => {
  it('a warm listing is the same frozen array; a new or removed skill folder shows at the next listing', async () => {
    const root = await tempDir();
    await writeFiles(root, { 'one/SKILL.md': skillMd('one') });
    const source = fileSystemSource(root);
    const first = await source.listFrontmatters();
    expect(Object.isFrozen(first)).toBe(true);
    expect(await source.listFrontmatters()).toBe(first);
    await writeFiles(root, { 'two/SKILL.md': skillMd('two') });
    expect((await source.listFrontmatters()).map((skill) => skill.name)).toEqual(['one', 'two']);
    await rm(join(root, 'one'), { recursive: true });
    expect((await source.listFrontmatters()).map((skill) => skill.name)).toEqual(['two']);
  });

  it('an edited SKILL.md shows in load_skill (SK-6 re-read) and then in the listing; reload() forgets everything', async () => {
    const root = await tempDir();
    await writeFiles(root, { 'one/SKILL.md': skillMd('one', 'Old.'), 'two/SKILL.md': skillMd('two', 'Two.') });
    const logger = collectingLogger();
    const source = fileSystemSource(root, { logger });
    expect((await source.listFrontmatters())[0]!.description).toBe('Old.');
    await writeFile(join(root, 'one/SKILL.md'), skillMd('one', 'New.', 'license: MIT\nextra: 1\n', 'New body.\n'));
    expect((await source.listFrontmatters())[0]!.description).toBe('Old.');
    expect(await source.loadInstructions('one')).toBe('New body.\n');
    expect(await source.loadFrontmatter('one')).toEqual({ name: 'one', description: 'New.', license: 'MIT' });
    expect((await source.listFrontmatters()).map((skill) => skill.description)).toEqual(['New.', 'Two.']);
    expect(logger.warnings).toEqual([
      '@adkit/skill-toolset: one/SKILL.md: unknown field "extra" (the Agent Skills fields are name, description, license, compatibility, metadata, allowed-tools); it is ignored (lenient mode)',
    ]);
    await writeFile(join(root, 'two/SKILL.md'), skillMd('two', 'Two again.'));
    source.reload();
    expect((await source.listFrontmatters()).map((skill) => skill.description)).toEqual(['New.', 'Two again.']);
  });

  it('a SKILL.md renamed inside is reported as not found and the listing is rebuilt', async () => {
    const root = await tempDir();
    await writeFiles(root, { 'one/SKILL.md': skillMd('one') });
    const source = fileSystemSource(root, { logger: collectingLogger() });
    await source.listFrontmatters();
    await writeFile(join(root, 'one/SKILL.md'), skillMd('uno'));
    expect(await rejection(source.loadInstructions('one'))).toEqual({
      code: 'SKILL_NOT_FOUND',
      message: 'skill "one" not found (its SKILL.md now names it "uno")',
    });
    expect((await source.listFrontmatters()).map((skill) => skill.name)).toEqual(['uno']);
  });

  it('SK-5: 50 concurrent cold listings share one scan: one array, each warning once', async () => {
    const root = await tempDir();
    await writeFiles(root, Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`s${i}/SKILL.md`, skillMd(`s${i}`, 'd', 'unknown: 1\n')])));
    const logger = collectingLogger();
    const source = fileSystemSource(root, { logger });
    const listings = await Promise.all(Array.from({ length: 50 }, () => source.listFrontmatters()));
    expect(new Set(listings).size).toBe(1);
    expect(listings[0]).toHaveLength(40);
    expect(logger.warnings).toHaveLength(40);
  });

  it('frontmatters longer than the first read (8 KiB) are read on, with LF or CRLF', async () => {
    const root = await tempDir();
    const metadata = Array.from({ length: 600 }, (_, i) => `  key${i}: value ${i}`).join('\n');
    const long = skillMd('long', 'Long.', `metadata:\n${metadata}\n`, 'x'.repeat(20_000));
    await writeFiles(root, { 'long/SKILL.md': long, 'crlf/SKILL.md': long.replace('name: long', 'name: crlf').replace(/\n/g, '\r\n') });
    const listed = await fileSystemSource(root).listFrontmatters();
    expect(listed.map((skill) => [skill.name, Object.keys(skill.metadata!).length])).toEqual([
      ['crlf', 600],
      ['long', 600],
    ]);
  });

  it('load_skill reads at most maxSkillMdBytes of SKILL.md; the listing reads only the frontmatter', async () => {
    const root = await tempDir();
    await writeFiles(root, { 'big/SKILL.md': skillMd('big', 'Big.', '', 'x'.repeat(11 * 1024 * 1024)) });
    const source = fileSystemSource(root, { logger: collectingLogger() });
    expect(await source.listFrontmatters()).toEqual([{ name: 'big', description: 'Big.' }]);
    expect(await rejection(source.loadInstructions('big'))).toEqual({
      code: 'SKILL_RESOURCE_TOO_LARGE',
      message: "resource 'SKILL.md' from skill 'big' is too large (limit: 10485760 bytes)",
    });
  });
});
