import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('@adkit/skill-toolset exports', () => {
  it('pins the public API (a new export is an API decision)', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'ADDITIONAL_TOOLS_KEY',
        'DEFAULT_MAX_LISTING_CHARS',
        'DEFAULT_MAX_RESOURCE_BYTES',
        'DEFAULT_SKILL_SYSTEM_INSTRUCTION',
        'FRONTMATTER_FIELDS',
        'MAX_FRONTMATTER_LENGTH',
        'SKILL_LIMITS',
        'SkillError',
        'additionalToolNames',
        'fileSystemSource',
        'formatSkillMd',
        'inMemorySource',
        'isSkillError',
        'loadedSkillsKey',
        'mergedSource',
        'parseAllowedTools',
        'parseSkillMd',
        'readLoadedSkills',
        'skillToolset',
        'skillsToXml',
        'validateFrontmatter',
      ].sort(),
    );
  });

  it('SkillError is an AdkitError checked by its marker and code, not instanceof', async () => {
    const { isAdkitError } = await import('@adkit/flow');
    const error = new api.SkillError('SKILL_NOT_FOUND', 'skill "x" not found', { skillName: 'x' });
    expect(isAdkitError(error)).toBe(true);
    expect(api.isSkillError(error, 'SKILL_NOT_FOUND')).toBe(true);
    expect(api.isSkillError(error, 'SKILL_DUPLICATE')).toBe(false);
    expect(api.isSkillError({ code: 'SKILL_NOT_FOUND' })).toBe(false);
    expect(error).toMatchObject({ name: 'SkillError', code: 'SKILL_NOT_FOUND', skillName: 'x' });
  });
});
