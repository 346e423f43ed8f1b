// The in-memory and merged sources (SK-5, SK-8). Bad input tried: rule-breaking frontmatter in
// strict and lenient mode, duplicate names, resource keys that climb out or are hidden, non-string
// resources, a `__proto__` resource key in a Map, a merged source where one source fails with
// something other than "not found", an empty source list.
import { describe, expect, it } from 'vitest';
import { fileSystemSource, inMemorySource, isSkillError, mergedSource } from '../src/index.js';
import { collectingLogger, skillMd, tempDir, writeFiles } from './support.js';

describe('inMemorySource', () => {
  it('lists, loads instructions and resources (text as UTF-8, bytes as given)', async () => {
    const source = inMemorySource([
      {
        frontmatter: { name: 'greeting', description: 'How to greet.', 'allowed-tools': 'Read Bash(echo:*)' },
        instructions: 'Say hello.',
        resources: { 'references/words.md': 'héllo', 'assets/a.bin': Uint8Array.of(0, 1, 2) },
      },
      { frontmatter: { name: 'empty', description: 'Nothing.' } },
    ]);
    expect(await source.listFrontmatters()).toEqual([
      { name: 'greeting', description: 'How to greet.', 'allowed-tools': ['Read', 'Bash(echo:*)'] },
      { name: 'empty', description: 'Nothing.' },
    ]);
    expect(await source.loadInstructions('greeting')).toBe('Say hello.');
    expect(await source.loadInstructions('empty')).toBe('');
    expect(new TextDecoder().decode(await source.loadResource('greeting', 'references/words.md'))).toBe('héllo');
    expect(await source.loadResource('greeting', 'assets/a.bin')).toEqual(Uint8Array.of(0, 1, 2));
    expect(await source.listResources('greeting')).toEqual(['assets/a.bin', 'references/words.md']);
    expect(await source.listResources('greeting', 'references')).toEqual(['references/words.md']);
    await expect(source.loadResource('greeting', 'references/none.md')).rejects.toMatchObject({ code: 'SKILL_RESOURCE_NOT_FOUND' });
    await expect(source.loadFrontmatter('nope')).rejects.toMatchObject({ code: 'SKILL_NOT_FOUND', message: 'skill "nope" not found' });
  });

  it('returned bytes are copies: a caller changing them changes nothing', async () => {
    const source = inMemorySource([{ frontmatter: { name: 'a', description: 'd' }, resources: { 'a.bin': Uint8Array.of(1) } }]);
    (await source.loadResource('a', 'a.bin'))[0] = 9;
    expect(await source.loadResource('a', 'a.bin')).toEqual(Uint8Array.of(1));
  });

  it('strict mode throws at construction; lenient mode reports warnings once, at the first call, to its logger', async () => {
    const skills = [{ frontmatter: { name: 'Bad_Name', description: 'd', extra: true } }];
    expect(() => inMemorySource(skills, { strict: true })).toThrow(
      'inMemorySource: skill #1: unknown field "extra" (the Agent Skills fields are name, description, license, compatibility, metadata, allowed-tools); fix the frontmatter.',
    );
    const logger = collectingLogger();
    const source = inMemorySource(skills);
    await source.listFrontmatters({ logger });
    await source.listFrontmatters({ logger });
    expect(logger.warnings).toEqual([
      '@adkit/skill-toolset: skill "Bad_Name": unknown field "extra" (the Agent Skills fields are name, description, license, compatibility, metadata, allowed-tools); it is ignored (lenient mode)',
      '@adkit/skill-toolset: skill "Bad_Name": name may only contain lowercase alphanumeric characters (a-z, 0-9) and hyphens (lenient mode)',
    ]);
  });

  it('programmer errors throw ConfigErrors naming the fix', () => {
    expect(() => inMemorySource('x' as never)).toThrow('inMemorySource: pass an array of skills');
    const skill = { frontmatter: { name: 'a', description: 'd' } };
    expect(() => inMemorySource([skill, skill])).toThrow('inMemorySource: skill #2: duplicate skill "a"; skill names must be unique.');
    expect(() => inMemorySource([{ ...skill, resources: { '../x': 'y' } }])).toThrow(
      'inMemorySource: skill #1 ("a"): invalid resource path "../x" for skill "a": it leaves the skill folder.',
    );
    expect(() => inMemorySource([{ ...skill, resources: { '.env': 'y' } }])).toThrow('hidden files and folders are not resources');
    expect(() => inMemorySource([{ ...skill, resources: { 'a.txt': 5 as never } }])).toThrow('resource "a.txt" must be a string or a Uint8Array');
    expect(() => inMemorySource([{ frontmatter: { name: 'a' } }])).toThrow(
      'inMemorySource: skill #1: description must be between 1 and 1024 characters long; fix the frontmatter.',
    );
  });

  it('a Map of resources may hold a "__proto__" key as an ordinary path', async () => {
    const source = inMemorySource([{ frontmatter: { name: 'a', description: 'd' }, resources: new Map([['__proto__', 'data']]) }]);
    expect(new TextDecoder().decode(await source.loadResource('a', '__proto__'))).toBe('data');
    await expect(source.loadResource('a', 'constructor')).rejects.toMatchObject({ code: 'SKILL_RESOURCE_NOT_FOUND' });
  });
});

describe('mergedSource (SK-8)', () => {
  const a = () => inMemorySource([{ frontmatter: { name: 'one', description: 'From A.' }, instructions: 'A' }]);
  const b = () =>
    inMemorySource([
      { frontmatter: { name: 'two', description: 'From B.' }, instructions: 'B' },
      { frontmatter: { name: 'one', description: 'From B too.' }, instructions: 'B1' },
    ]);

  it('SK-8: lists in source order and fails on a duplicate name across sources', async () => {
    const merged = mergedSource([a(), inMemorySource([{ frontmatter: { name: 'two', description: 'From B.' } }])]);
    expect((await merged.listFrontmatters()).map((skill) => skill.name)).toEqual(['one', 'two']);
    await expect(mergedSource([a(), b()]).listFrontmatters()).rejects.toMatchObject({
      code: 'SKILL_DUPLICATE',
      message: `duplicate skill "one" in sources #1 and #2; rename one, or pass { duplicates: 'firstWins' } to mergedSource`,
    });
  });

  it("duplicates: 'firstWins' keeps the first source's skill with a warning, and lookups agree", async () => {
    const logger = collectingLogger();
    const merged = mergedSource([a(), b()], { duplicates: 'firstWins' });
    expect((await merged.listFrontmatters({ logger })).map((skill) => skill.description)).toEqual(['From A.', 'From B.']);
    expect(logger.warnings).toEqual(['@adkit/skill-toolset: duplicate skill "one" in sources #1 and #2; the one in source #1 is used']);
    expect(await merged.loadInstructions('one')).toBe('A');
    expect(await merged.loadInstructions('two')).toBe('B');
  });

  it('SK-8: a lookup takes the first source that has the skill; other errors pass through; all missing is SKILL_NOT_FOUND', async () => {
    const root = await tempDir();
    await writeFiles(root, { 'disk/SKILL.md': skillMd('disk'), 'disk/references/r.md': 'on disk' });
    const merged = mergedSource([a(), fileSystemSource(root)]);
    expect(new TextDecoder().decode(await merged.loadResource('disk', 'references/r.md'))).toBe('on disk');
    await expect(merged.loadResource('disk', '../x')).rejects.toMatchObject({ code: 'SKILL_INVALID_RESOURCE_PATH' });
    await expect(merged.loadInstructions('none')).rejects.toMatchObject({ code: 'SKILL_NOT_FOUND', message: 'skill "none" not found' });
    const broken = mergedSource([fileSystemSource(`${root}/missing`), a()]);
    const error = await broken.loadInstructions('one').catch((thrown: unknown) => thrown);
    expect(isSkillError(error, 'SKILL_SOURCE_UNAVAILABLE')).toBe(true);
  });

  it('a warm merged listing is the same array while its sources return theirs', async () => {
    const merged = mergedSource([a(), inMemorySource([{ frontmatter: { name: 'two', description: 'B' } }])]);
    expect(await merged.listFrontmatters()).toBe(await merged.listFrontmatters());
  });

  it('programmer errors throw ConfigErrors', () => {
    expect(() => mergedSource([])).toThrow('mergedSource: pass a non-empty array of skill sources');
    expect(() => mergedSource([{} as never])).toThrow('mergedSource: source #1 is not a skill source');
    expect(() => mergedSource([a()], { duplicates: 'last' as never })).toThrow(`mergedSource: duplicates must be 'error' or 'firstWins', got "last".`);
  });
});
