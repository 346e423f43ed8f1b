// Every real skill of the corpus (test/fixtures/skills, a copy of shared/fixtures/skills; 28
// SKILL.md files, 8 of them nested inside qdrant-scaling): what is listed, what loads, which
// resources resolve, which warnings each produces in lenient mode, and that strict mode refuses
// exactly the rule breakers. Bad input tried: the corpus's own rule breaks (name ≠ folder, a
// 1068-character description, allowed-tools as lists, a list in metadata, unknown fields), a
// folder without SKILL.md (_licenses), loose files at the root (PROVENANCE.md).
import { readdirSync, readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fileSystemSource, isSkillError, parseSkillMd } from '../src/index.js';
import { collectingLogger, FIXTURES, tempDir } from './support.js';

/** Folder (relative to the corpus) → the skill's name, in listing order (sorted pre-order). */
const SKILLS: [string, string][] = [
  ['acquire-codebase-knowledge', 'acquire-codebase-knowledge'],
  ['algorithmic-art', 'algorithmic-art'],
  ['azure-role-selector', 'azure-role-selector'],
  ['brand-guidelines', 'brand-guidelines'],
  ['claude-api', 'claude-api'],
  ['composition-patterns', 'vercel-composition-patterns'],
  ['gh-fix-ci', 'gh-fix-ci'],
  ['git-commit', 'git-commit'],
  ['mcp-builder', 'mcp-builder'],
  ['mentoring-juniors', 'mentoring-juniors'],
  ['microsoft-skill-creator', 'microsoft-skill-creator'],
  ['notion-knowledge-capture', 'notion-knowledge-capture'],
  ['qdrant-scaling', 'qdrant-scaling'],
  ['qdrant-scaling/minimize-latency', 'qdrant-minimize-latency'],
  ['qdrant-scaling/scaling-data-volume', 'qdrant-scaling-data-volume'],
  ['qdrant-scaling/scaling-data-volume/horizontal-scaling', 'qdrant-horizontal-scaling'],
  ['qdrant-scaling/scaling-data-volume/sliding-time-window', 'qdrant-sliding-time-window'],
  ['qdrant-scaling/scaling-data-volume/tenant-scaling', 'qdrant-tenant-scaling'],
  ['qdrant-scaling/scaling-data-volume/vertical-scaling', 'qdrant-vertical-scaling'],
  ['qdrant-scaling/scaling-qps', 'qdrant-scaling-qps'],
  ['qdrant-scaling/scaling-query-volume', 'qdrant-scaling-query-volume'],
  ['skill-creator', 'skill-creator'],
  ['slack-gif-creator', 'slack-gif-creator'],
  ['systematic-debugging', 'systematic-debugging'],
  ['test-driven-development', 'test-driven-development'],
  ['theme-factory', 'theme-factory'],
  ['web-design-guidelines', 'web-design-guidelines'],
  ['webapp-testing', 'webapp-testing'],
];
const TOP_LEVEL = SKILLS.filter(([folder]) => !folder.includes('/'));

const FIELDS = '(the Agent Skills fields are name, description, license, compatibility, metadata, allowed-tools)';
const LIST = 'allowed-tools must be one space-separated string (e.g. "Bash(git:*) Read"), got a list';
const mismatch = (name: string, folder: string) => `name in SKILL.md ("${name}") does not match directory name ("${folder}")`;

/** What each rule-breaking SKILL.md reports in lenient mode (the others report nothing). */
const WARNINGS: Record<string, string[]> = {
  'acquire-codebase-knowledge': [
    `unknown field "argument-hint" ${FIELDS}; it is ignored`,
    'metadata "enhancements" must be a string, got a list; it is kept as JSON text',
  ],
  'azure-role-selector': [`${LIST}; the list is used`],
  'claude-api': ['description must be between 1 and 1024 characters long (it has 1068); it is used in full'],
  'composition-patterns': [mismatch('vercel-composition-patterns', 'composition-patterns')],
  'mentoring-juniors': [`unknown field "authors" ${FIELDS}; it is ignored`],
  'microsoft-skill-creator': [`unknown field "context" ${FIELDS}; it is ignored`],
  'qdrant-scaling': [`${LIST}; the list is used`],
  'qdrant-scaling/minimize-latency': [mismatch('qdrant-minimize-latency', 'minimize-latency')],
  'qdrant-scaling/scaling-data-volume': [`${LIST}; the list is used`, mismatch('qdrant-scaling-data-volume', 'scaling-data-volume')],
  'qdrant-scaling/scaling-data-volume/horizontal-scaling': [mismatch('qdrant-horizontal-scaling', 'horizontal-scaling')],
  'qdrant-scaling/scaling-data-volume/sliding-time-window': [mismatch('qdrant-sliding-time-window', 'sliding-time-window')],
  'qdrant-scaling/scaling-data-volume/tenant-scaling': [mismatch('qdrant-tenant-scaling', 'tenant-scaling')],
  'qdrant-scaling/scaling-data-volume/vertical-scaling': [mismatch('qdrant-vertical-scaling', 'vertical-scaling')],
  'qdrant-scaling/scaling-qps': [mismatch('qdrant-scaling-qps', 'scaling-qps')],
  'qdrant-scaling/scaling-query-volume': [mismatch('qdrant-scaling-query-volume', 'scaling-query-volume')],
};

/** What strict mode says about each rule breaker: its first broken rule. */
const STRICT_ERRORS: Record<string, string> = {
  'acquire-codebase-knowledge': `unknown field "argument-hint" ${FIELDS}`,
  'azure-role-selector': LIST,
  'claude-api': 'description must be between 1 and 1024 characters long (it has 1068)',
  'composition-patterns': mismatch('vercel-composition-patterns', 'composition-patterns'),
  'mentoring-juniors': `unknown field "authors" ${FIELDS}`,
  'microsoft-skill-creator': `unknown field "context" ${FIELDS}`,
  'qdrant-scaling': LIST,
  'qdrant-scaling/minimize-latency': mismatch('qdrant-minimize-latency', 'minimize-latency'),
  'qdrant-scaling/scaling-data-volume': LIST,
  'qdrant-scaling/scaling-data-volume/horizontal-scaling': mismatch('qdrant-horizontal-scaling', 'horizontal-scaling'),
  'qdrant-scaling/scaling-data-volume/sliding-time-window': mismatch('qdrant-sliding-time-window', 'sliding-time-window'),
  'qdrant-scaling/scaling-data-volume/tenant-scaling': mismatch('qdrant-tenant-scaling', 'tenant-scaling'),
  'qdrant-scaling/scaling-data-volume/vertical-scaling': mismatch('qdrant-vertical-scaling', 'vertical-scaling'),
  'qdrant-scaling/scaling-qps': mismatch('qdrant-scaling-qps', 'scaling-qps'),
  'qdrant-scaling/scaling-query-volume': mismatch('qdrant-scaling-query-volume', 'scaling-query-volume'),
};

/** The file's YAML and body, cut independently of the code under test. */
function rawSkill(folder: string): { yaml: Record<string, unknown>; body: string } {
  const text = readFileSync(join(FIXTURES, folder, 'SKILL.md'), 'utf8');
  const close = text.indexOf('\n---\n', 3);
  return { yaml: parse(text.slice(4, close + 1)) as Record<string, unknown>, body: text.slice(close + 5) };
}

/** Every file below a skill folder but its own SKILL.md, skill-relative. */
function filesOf(folder: string): string[] {
  const root = join(FIXTURES, folder);
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter((path) => path !== 'SKILL.md')
    .sort();
}

describe('the real skills corpus, lenient (the default)', () => {
  it('SK-1, SK-6: depth 1 lists the 20 top-level skills in folder order; _licenses and PROVENANCE.md are no skills', async () => {
    const logger = collectingLogger();
    const listed = await fileSystemSource(FIXTURES, { logger }).listFrontmatters();
    expect(listed.map((skill) => skill.name)).toEqual(TOP_LEVEL.map(([, name]) => name));
  });

  it('depth 3 also lists the 8 nested qdrant skills, after their parent', async () => {
    const listed = await fileSystemSource(FIXTURES, { depth: 3, logger: collectingLogger() }).listFrontmatters();
    expect(listed.map((skill) => skill.name)).toEqual(SKILLS.map(([, name]) => name));
  });

  it('each rule breaker produces exactly its warnings, once, on the logger it was given', async () => {
    const logger = collectingLogger();
    const source = fileSystemSource(FIXTURES, { depth: 3, logger });
    await source.listFrontmatters();
    const expected = SKILLS.flatMap(([folder]) =>
      (WARNINGS[folder] ?? []).map((warning) => `@adkit/skill-toolset: ${folder}/SKILL.md: ${warning} (lenient mode)`),
    );
    expect(logger.warnings).toEqual(expected);
    // Cached: listing again, loading frontmatter and loading instructions of unchanged files warn no more.
    await source.listFrontmatters();
    for (const [, name] of SKILLS) await source.loadInstructions(name);
    expect(logger.warnings).toHaveLength(expected.length);
  });

  it('every skill loads: frontmatter as written (normalised), instructions = the body of SKILL.md', async () => {
    const source = fileSystemSource(FIXTURES, { depth: 3, logger: collectingLogger() });
    for (const [folder, name] of SKILLS) {
      const { yaml, body } = rawSkill(folder);
      const frontmatter = await source.loadFrontmatter(name);
      expect(frontmatter.name).toBe(name);
      expect(frontmatter.description).toBe(yaml.description);
      expect(frontmatter.license).toBe(yaml.license);
      expect(frontmatter.compatibility).toBe(yaml.compatibility);
      const allowed = yaml['allowed-tools'];
      expect(frontmatter['allowed-tools']).toEqual(allowed === undefined ? undefined : Array.isArray(allowed) ? allowed : [allowed]);
      const metadata = yaml.metadata as Record<string, unknown> | undefined;
      expect(frontmatter.metadata).toEqual(
        metadata && Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])),
      );
      expect(Object.keys(frontmatter).every((key) => ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'].includes(key))).toBe(true);
      expect(await source.loadInstructions(name)).toBe(body);
    }
  });

  it('quirks survive: the literal block keeps its newlines, the multi-line plain scalar folds, YAML escapes and é decode', async () => {
    const source = fileSystemSource(FIXTURES, { logger: collectingLogger() });
    const claude = await source.loadFrontmatter('claude-api');
    expect(claude.description.split('\n')).toHaveLength(3);
    expect([...claude.description]).toHaveLength(1068);
    const composition = await source.loadFrontmatter('vercel-composition-patterns');
    expect(composition.description).toMatch(/^React composition patterns that scale\. Use when refactoring components with boolean/);
    expect(composition.description).not.toContain('\n');
    const mentoring = await source.loadFrontmatter('mentoring-juniors');
    expect(mentoring.description).toContain(`"I'm stuck"`);
    expect([...mentoring.description]).toHaveLength(1011);
    expect(await source.loadFrontmatter('git-commit')).toMatchObject({ 'allowed-tools': ['Bash'] });
    expect(await source.loadFrontmatter('azure-role-selector')).toMatchObject({
      'allowed-tools': ['Azure MCP/documentation', 'Azure MCP/bicepschema', 'Azure MCP/extension_cli_generate', 'Azure MCP/get_bestpractices'],
    });
    expect((await source.loadFrontmatter('acquire-codebase-knowledge')).metadata?.enhancements).toMatch(/^\["Multi-language manifest detection/);
  });

  it('SK-7: every file of every skill is a resource and loads byte for byte (reference/, shared/, themes/, top-level files, the PDF)', async () => {
    const source = fileSystemSource(FIXTURES, { depth: 3, logger: collectingLogger() });
    let total = 0;
    for (const [folder, name] of SKILLS) {
      const files = filesOf(folder);
      expect(await source.listResources(name)).toEqual(files);
      for (const file of files) {
        const bytes = await source.loadResource(name, file);
        expect(Buffer.from(bytes).equals(readFileSync(join(FIXTURES, folder, file)))).toBe(true);
        total++;
      }
    }
    // Nested skills' files count for their parents too (qdrant-scaling lists 8 SKILL.md files of its nested skills).
    expect(total).toBe(150);
    expect(await source.listResources('theme-factory')).toContain('theme-showcase.pdf');
    expect(await source.listResources('qdrant-scaling')).toContain('scaling-data-volume/tenant-scaling/SKILL.md');
    expect(await source.listResources('mcp-builder', 'reference')).toEqual([
      'reference/evaluation.md',
      'reference/mcp_best_practices.md',
      'reference/node_mcp_server.md',
      'reference/python_mcp_server.md',
    ]);
  });

  it("SK-7 with SK-7's folders: only references/, assets/ and scripts/ are resources", async () => {
    const source = fileSystemSource(FIXTURES, { resourceFolders: ['references', 'assets', 'scripts'], logger: collectingLogger() });
    expect(await source.listResources('acquire-codebase-knowledge')).toEqual(
      filesOf('acquire-codebase-knowledge').filter((file) => /^(references|assets|scripts)\//.test(file)),
    );
    expect(await source.listResources('mcp-builder')).toEqual(['scripts/example_evaluation.xml', 'scripts/requirements.txt']);
    await expect(source.loadResource('mcp-builder', 'reference/evaluation.md')).rejects.toThrow(
      `invalid resource path "reference/evaluation.md" for skill "mcp-builder": it must be within 'references/', 'assets/', 'scripts/' (relative to the skill directory)`,
    );
  });
});

describe('the real skills corpus, strict', () => {
  it('strict mode refuses exactly the rule breakers, each with its first broken rule', () => {
    const refused: Record<string, string> = {};
    for (const [folder] of SKILLS) {
      const text = readFileSync(join(FIXTURES, folder, 'SKILL.md'), 'utf8');
      try {
        parseSkillMd(text, { strict: true, directoryName: folder.split('/').pop()! });
      } catch (error) {
        if (!isSkillError(error)) throw error;
        refused[folder] = error.message;
      }
    }
    expect(refused).toEqual(STRICT_ERRORS);
  });

  it('SK-6: a strict folder source fails the whole listing at a rule breaker, and lists a folder of clean skills', async () => {
    for (const [folder] of TOP_LEVEL) {
      const root = await tempDir();
      await symlink(join(FIXTURES, folder), join(root, folder));
      const listing = fileSystemSource(root, { strict: true }).listFrontmatters();
      if (STRICT_ERRORS[folder]) await expect(listing).rejects.toThrow(`${folder}/SKILL.md: ${STRICT_ERRORS[folder]}`);
      else expect((await listing).map((skill) => skill.name)).toEqual([folder]);
    }
    await expect(fileSystemSource(FIXTURES, { strict: true }).listFrontmatters()).rejects.toThrow(
      `acquire-codebase-knowledge/SKILL.md: unknown field "argument-hint" ${FIELDS}`,
    );
  });
});
