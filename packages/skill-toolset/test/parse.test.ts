// SKILL.md parsing (SK-2, SK-3, SK-4) in both modes. Bad input tried: missing or broken separators,
// CRLF, a byte-order mark, a closing line at EOF, YAML that does not parse (the unquoted
// "description: Use when: …"), `__proto__` keys, 10,000-deep nesting, an alias bomb, custom tags,
// duplicate keys, a 50 MB frontmatter, every SK-3 rule break in order, allowed-tools with
// unbalanced parentheses.
import { describe, expect, it } from 'vitest';
import {
  formatSkillMd,
  isSkillError,
  MAX_FRONTMATTER_LENGTH,
  parseAllowedTools,
  parseSkillMd,
  validateFrontmatter,
  type SkillError,
} from '../src/index.js';

function thrown(run: () => unknown): SkillError {
  try {
    run();
  } catch (error) {
    if (isSkillError(error)) return error;
    throw error;
  }
  throw new Error('expected a SkillError');
}

describe('SK-4 splitting', () => {
  it('SK-4: frontmatter between the first two "---" lines, the body untrimmed after the closing line', () => {
    const parsed = parseSkillMd('---\nname: a\ndescription: b\n---\n\n# Body\n  kept  \n');
    expect(parsed).toEqual({ frontmatter: { name: 'a', description: 'b' }, body: '\n# Body\n  kept  \n', warnings: [] });
  });

  it('SK-4: CRLF separators count; the body keeps its CRLFs', () => {
    expect(parseSkillMd('---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n').body).toBe('body\r\n');
  });

  it('SK-4: the first line must be exactly "---" and a new line', () => {
    for (const text of ['name: a\n', '--- \nname: a\n---\n', '----\nname: a\n---\n', '---', ''])
      expect(thrown(() => parseSkillMd(text)).message).toBe("invalid frontmatter separator line: must be '---' followed by a new line");
  });

  it('SK-4: a missing closing line fails; strict mode also refuses a closing "---" at EOF without a new line', () => {
    const missing = "missing closing frontmatter separator line: must be '---' followed by a new line";
    expect(thrown(() => parseSkillMd('---\nname: a\ndescription: b\n')).message).toBe(missing);
    expect(thrown(() => parseSkillMd('---\nname: a\ndescription: b\n---', { strict: true })).message).toBe(missing);
    expect(parseSkillMd('---\nname: a\ndescription: b\n---').warnings).toEqual([
      'the closing "---" is the last line of SKILL.md without a new line after it; add one',
    ]);
  });

  it('SK-4: a byte-order mark is refused in strict mode and a warning in lenient mode', () => {
    const text = '\uFEFF---\nname: a\ndescription: b\n---\n';
    expect(thrown(() => parseSkillMd(text, { strict: true })).code).toBe('SKILL_INVALID_FRONTMATTER');
    expect(parseSkillMd(text).warnings).toEqual(['SKILL.md starts with a byte-order mark; remove it (the first line must be exactly "---")']);
  });
});

describe('SK-3 validation, in order', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['name too long', { name: 'a'.repeat(65), description: 'd' }, 'name must be between 1 and 64 characters long'],
    ['leading hyphen', { name: '-a', description: 'd' }, 'name must not start or end with a hyphen'],
    ['trailing hyphen', { name: 'a-', description: 'd' }, 'name must not start or end with a hyphen'],
    ['double hyphen', { name: 'a--b', description: 'd' }, 'name must not contain consecutive hyphens'],
    ['upper case', { name: 'PDF', description: 'd' }, 'name may only contain lowercase alphanumeric characters (a-z, 0-9) and hyphens'],
    ['__proto__', { name: '__proto__', description: 'd' }, 'name may only contain lowercase alphanumeric characters (a-z, 0-9) and hyphens'],
    ['description too long', { name: 'a', description: 'd'.repeat(1025) }, 'description must be between 1 and 1024 characters long (it has 1025)'],
    ['compatibility too long', { name: 'a', description: 'd', compatibility: 'c'.repeat(501) }, 'compatibility must not exceed 500 characters (it has 501)'],
    // name rules come before description rules (SK-3's order).
    ['both broken', { name: 'A', description: 'd'.repeat(2000) }, 'name may only contain lowercase alphanumeric characters (a-z, 0-9) and hyphens'],
  ];
  for (const [label, fields, message] of cases)
    it(`SK-3: strict refuses ${label}; lenient keeps the skill with the same message as a warning`, () => {
      expect(thrown(() => validateFrontmatter(fields, { strict: true })).message).toBe(message);
      const lenient = validateFrontmatter(fields);
      expect(lenient.frontmatter.name).toBe(fields.name);
      expect(lenient.warnings[0]).toMatch(new RegExp(`^${message.replace(/[()]/g, '\\$&')}`));
    });

  it('SK-3: limits count characters (code points), so 1024 non-ASCII characters pass', () => {
    expect(validateFrontmatter({ name: 'a', description: 'é'.repeat(1024) }, { strict: true }).warnings).toEqual([]);
    expect(validateFrontmatter({ name: 'a'.repeat(64), description: '😀'.repeat(1024), compatibility: 'ü'.repeat(500) }, { strict: true }).warnings).toEqual([]);
  });

  it('both modes refuse what makes a skill unusable: no mapping, no name, no description', () => {
    expect(thrown(() => validateFrontmatter(['a'])).message).toBe('frontmatter must be a YAML mapping of fields, got a list');
    expect(thrown(() => validateFrontmatter({ description: 'd' }))).toMatchObject({ code: 'SKILL_INVALID_NAME', message: 'name is required' });
    expect(thrown(() => validateFrontmatter({ name: '', description: 'd' })).message).toBe('name must be between 1 and 64 characters long');
    expect(thrown(() => validateFrontmatter({ name: 7, description: 'd' })).message).toBe('name must be a string, got number 7');
    expect(thrown(() => validateFrontmatter({ name: 'a' })).message).toBe('description must be between 1 and 1024 characters long');
    expect(thrown(() => validateFrontmatter({ name: 'a', description: '' })).message).toBe('description must be between 1 and 1024 characters long');
    expect(thrown(() => validateFrontmatter({ name: 'a', description: { 'Use when': 'x' } })).message).toBe(
      'description must be a string, got a mapping (quote the value if it contains ": ")',
    );
  });

  it('SK-1: name ≠ folder is refused in strict mode (SK-1 message) and a warning in lenient mode', () => {
    const fields = { name: 'vercel-x', description: 'd' };
    expect(thrown(() => validateFrontmatter(fields, { strict: true, directoryName: 'x' }))).toMatchObject({
      code: 'SKILL_INVALID_NAME',
      message: 'name in SKILL.md ("vercel-x") does not match directory name ("x")',
    });
    expect(validateFrontmatter(fields, { directoryName: 'x' }).warnings).toEqual(['name in SKILL.md ("vercel-x") does not match directory name ("x")']);
  });

  it('SK-2: unknown fields are refused in strict mode, dropped with a warning in lenient mode', () => {
    const fields = { name: 'a', description: 'd', 'argument-hint': 'x', context: 'fork' };
    expect(thrown(() => validateFrontmatter(fields, { strict: true })).message).toBe(
      'unknown field "argument-hint" (the Agent Skills fields are name, description, license, compatibility, metadata, allowed-tools)',
    );
    const lenient = validateFrontmatter(fields);
    expect(lenient.frontmatter).toEqual({ name: 'a', description: 'd' });
    expect(lenient.warnings).toEqual([
      'unknown field "argument-hint" (the Agent Skills fields are name, description, license, compatibility, metadata, allowed-tools); it is ignored',
      'unknown field "context" (the Agent Skills fields are name, description, license, compatibility, metadata, allowed-tools); it is ignored',
    ]);
  });

  it('SK-2: metadata is a map of strings; lenient mode keeps other values as JSON text', () => {
    const fields = { name: 'a', description: 'd', metadata: { version: '1', list: ['x', 'y'], n: 2 } };
    expect(thrown(() => validateFrontmatter(fields, { strict: true })).message).toBe('metadata "list" must be a string, got a list');
    expect(validateFrontmatter(fields)).toEqual({
      frontmatter: { name: 'a', description: 'd', metadata: { version: '1', list: '["x","y"]', n: '2' } },
      warnings: ['metadata "list" must be a string, got a list; it is kept as JSON text', 'metadata "n" must be a string, got number 2; it is kept as JSON text'],
    });
    expect(validateFrontmatter({ name: 'a', description: 'd', metadata: 'x' }).warnings).toEqual([
      'metadata must be a map of string keys to string values, got string "x"; it is ignored',
    ]);
  });

  it('metadata.adk_additional_tools may be a list of strings in both modes (ADK convention)', () => {
    const fields = { name: 'a', description: 'd', metadata: { adk_additional_tools: ['read_file', 'write_file'] } };
    expect(validateFrontmatter(fields, { strict: true }).frontmatter.metadata).toEqual({ adk_additional_tools: '["read_file","write_file"]' });
  });

  it('SK-2: allowed-tools strings split on whitespace and on commas outside parentheses', () => {
    expect(parseAllowedTools('Bash(git add, git commit) Read')).toEqual(['Bash(git add, git commit)', 'Read']);
    expect(parseAllowedTools('Read Edit Bash(git:*) Bash(gh issue:*)')).toEqual(['Read', 'Edit', 'Bash(git:*)', 'Bash(gh issue:*)']);
    expect(parseAllowedTools('Bash, Write, Read')).toEqual(['Bash', 'Write', 'Read']);
    expect(parseAllowedTools('Bash(a(b, c)) ,, Read')).toEqual(['Bash(a(b, c))', 'Read']);
    expect(parseAllowedTools('')).toEqual([]);
  });

  it('SK-2: unbalanced parentheses give SK-2 messages; lenient mode splits naively with a warning', () => {
    const prefix = 'allowed-tools must be a whitespace- or comma-separated list of Tool or Tool(well-balanced expression)';
    expect(() => parseAllowedTools('Bash) Read')).toThrow(`${prefix}: unexpected ')'`);
    expect(() => parseAllowedTools('Bash(git Read')).toThrow(`${prefix}: unclosed '('`);
    expect(thrown(() => validateFrontmatter({ name: 'a', description: 'd', 'allowed-tools': 'Bash(' }, { strict: true })).message).toBe(
      `${prefix}: unclosed '('`,
    );
    expect(validateFrontmatter({ name: 'a', description: 'd', 'allowed-tools': 'Bash(git Read' })).toEqual({
      frontmatter: { name: 'a', description: 'd', 'allowed-tools': ['Bash(git', 'Read'] },
      warnings: [`${prefix}: unclosed '('; it is split on whitespace and commas instead`],
    });
  });

  it('SK-2: allowed-tools as a list is refused in strict mode (the spec asks for one string) and used in lenient mode', () => {
    const fields = { name: 'a', description: 'd', 'allowed-tools': ['Read', 'Grep', 7] };
    expect(thrown(() => validateFrontmatter(fields, { strict: true })).message).toBe(
      'allowed-tools must be one space-separated string (e.g. "Bash(git:*) Read"), got a list',
    );
    expect(validateFrontmatter(fields)).toEqual({
      frontmatter: { name: 'a', description: 'd', 'allowed-tools': ['Read', 'Grep'] },
      warnings: [
        'allowed-tools must be one space-separated string (e.g. "Bash(git:*) Read"), got a list; the list is used',
        'allowed-tools entries must be non-empty strings; the others are ignored',
      ],
    });
    expect(validateFrontmatter({ name: 'a', description: 'd', 'allowed-tools': 3 }).warnings).toEqual([
      'allowed-tools must be a string or a sequence of strings, got number 3; it is ignored',
    ]);
    expect(validateFrontmatter({ name: 'a', description: 'd', 'allowed-tools': null }, { strict: true }).frontmatter).toEqual({ name: 'a', description: 'd' });
  });

  it('SK-2: license and compatibility are strings; lenient mode keeps numbers as text', () => {
    expect(thrown(() => validateFrontmatter({ name: 'a', description: 'd', license: 2 }, { strict: true })).message).toBe(
      'license must be a string, got number 2',
    );
    expect(validateFrontmatter({ name: 'a', description: 'd', license: 2, compatibility: ['x'] })).toEqual({
      frontmatter: { name: 'a', description: 'd', license: '2' },
      warnings: ['license must be a string, got number 2; it is kept as text', 'compatibility must be a string, got a list; it is ignored'],
    });
  });
});

describe('YAML (attacker input)', () => {
  it('lenient mode retries an unquoted "description: Use when: …" with the value quoted, with a warning', () => {
    const text = '---\nname: pdf\ndescription: Use this skill when: the user has a PDF\n---\nbody\n';
    expect(thrown(() => parseSkillMd(text, { strict: true })).message).toMatch(/^invalid frontmatter: parse frontmatter: Nested mappings are not allowed/);
    const parsed = parseSkillMd(text);
    expect(parsed.frontmatter.description).toBe('Use this skill when: the user has a PDF');
    expect(parsed.warnings).toHaveLength(1);
    expect(parsed.warnings[0]).toMatch(/^invalid frontmatter: parse frontmatter: .*; loaded after quoting the values that contain ": "$/);
  });

  it('__proto__ keys stay plain data and pollute nothing', () => {
    const parsed = parseSkillMd('---\nname: a\ndescription: d\nmetadata:\n  __proto__: x\n  constructor: y\n---\n');
    expect(Object.getOwnPropertyNames(parsed.frontmatter.metadata)).toEqual(['__proto__', 'constructor']);
    expect(parsed.frontmatter.metadata!['__proto__']).toBe('x');
    const top = parseSkillMd('---\n__proto__: {polluted: 1}\nname: a\ndescription: d\n---\n');
    expect(top.warnings[0]).toMatch(/^unknown field "__proto__"/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(top.frontmatter)).toBe(Object.prototype);
  });

  it('10,000-deep nesting, an alias bomb and duplicate keys fail cleanly', () => {
    const deep = `---\nname: a\ndescription: d\nmetadata: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n---\n`;
    expect(thrown(() => parseSkillMd(deep)).message).toBe(
      'invalid frontmatter: its [ ] and { } collections nest 10000 levels deep (at most 64 are read)',
    );
    // Brackets inside quotes and comments do not count.
    const quoted = `---\nname: a\ndescription: "${'['.repeat(100)}" # ${'{'.repeat(100)}\nlicense: '${'['.repeat(100)}'\n---\n`;
    expect(parseSkillMd(quoted).frontmatter.description).toBe('['.repeat(100));
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 12; i++) bomb.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`);
    const bombed = `---\nname: a\ndescription: d\n${bomb.join('\n')}\n---\n`;
    expect(thrown(() => parseSkillMd(bombed)).message).toMatch(/^invalid frontmatter: parse frontmatter: .*alias/i);
    expect(thrown(() => parseSkillMd('---\nname: a\nname: b\ndescription: d\n---\n')).message).toMatch(/^invalid frontmatter: parse frontmatter: Map keys must be unique/);
  });

  it('custom tags are not executed: !!js/function stays a string', () => {
    const parsed = parseSkillMd('---\nname: a\ndescription: !!js/function "function () { return 1 }"\n---\n');
    expect(parsed.frontmatter.description).toBe('function () { return 1 }');
  });

  it(`a frontmatter over ${MAX_FRONTMATTER_LENGTH} characters (here 50 MB) is refused before YAML parsing`, () => {
    const huge = `---\nname: a\ndescription: ${'x'.repeat(50 * 1024 * 1024)}\n---\n`;
    expect(thrown(() => parseSkillMd(huge)).message).toBe(
      `invalid frontmatter: it is longer than ${MAX_FRONTMATTER_LENGTH} characters; move long text into the body`,
    );
  });

  it('YAML 1.2 core schema: yes/no and dates stay strings; numbers are reported as non-strings', () => {
    const parsed = parseSkillMd('---\nname: a\ndescription: yes\nlicense: 2024-01-01\nmetadata:\n  version: 1.0\n---\n');
    expect(parsed.frontmatter).toEqual({ name: 'a', description: 'yes', license: '2024-01-01', metadata: { version: '1' } });
    expect(parsed.warnings).toEqual(['metadata "version" must be a string, got number 1; it is kept as JSON text']);
  });
});

describe('SK-4 builder', () => {
  it('SK-4: formatSkillMd writes "---", YAML, "---", body, and parses back to the same skill', () => {
    const frontmatter = {
      name: 'git-helper',
      description: 'Commits: "carefully" & with notes',
      license: 'MIT',
      metadata: { author: 'me' },
      'allowed-tools': ['Bash(git add, git commit)', 'Read'],
    };
    const text = formatSkillMd(frontmatter, '# Steps\n');
    expect(text.startsWith('---\nname: git-helper\n')).toBe(true);
    expect(text.endsWith('---\n# Steps\n')).toBe(true);
    expect(parseSkillMd(text, { strict: true, directoryName: 'git-helper' })).toEqual({ frontmatter, body: '# Steps\n', warnings: [] });
  });

  it('SK-4: formatSkillMd validates first', () => {
    expect(() => formatSkillMd({ name: 'Bad', description: 'd' }, '')).toThrow(
      'name may only contain lowercase alphanumeric characters (a-z, 0-9) and hyphens',
    );
  });
});
