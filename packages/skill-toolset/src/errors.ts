import { AdkitError, quoted } from '@adkit/flow';

/**
 * Stable codes of the skill errors (SK-5's sentinel errors, plus the size limit and a skills
 * folder that cannot be read). Check them with
 * `isSkillError(error, code)`, never with `instanceof`.
 */
export type SkillErrorCode =
  | 'SKILL_INVALID_NAME'
  | 'SKILL_INVALID_FRONTMATTER'
  | 'SKILL_NOT_FOUND'
  | 'SKILL_DUPLICATE'
  | 'SKILL_INVALID_RESOURCE_PATH'
  | 'SKILL_RESOURCE_NOT_FOUND'
  | 'SKILL_RESOURCE_TOO_LARGE'
  | 'SKILL_SOURCE_UNAVAILABLE'
  | 'SKILL_NOT_A_FILE';

const SKILL_ERROR = Symbol.for('adkit.skillError');

/**
 * A skill could not be listed, found, parsed or read. The message says which skill, which file
 * and what to change; the tools hand it to the model as `{error}`.
 */
export class SkillError extends AdkitError {
  declare readonly code: SkillErrorCode;
  /** The skill concerned, when there is one. */
  declare readonly skillName?: string;

  constructor(code: SkillErrorCode, message: string, options: { skillName?: string; cause?: unknown } = {}) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SkillError';
    if (options.skillName !== undefined) this.skillName = options.skillName;
    Object.defineProperty(this, SKILL_ERROR, { value: true });
  }
}

/** Whether the value is a `SkillError` (from any copy of the package), optionally with that code. */
export function isSkillError(value: unknown, code?: SkillErrorCode): value is SkillError {
  if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[SKILL_ERROR] !== true) return false;
  return code === undefined || (value as SkillError).code === code;
}

/** `SKILL_NOT_FOUND` for a name (quoted: cut to 100 characters), with why when known. */
export function skillNotFound(name: string, why?: string): SkillError {
  return new SkillError('SKILL_NOT_FOUND', `skill "${quoted(name)}" not found${why ? ` (${why})` : ''}`, { skillName: name });
}

/** `SKILL_RESOURCE_NOT_FOUND` for a skill's cleaned resource path. */
export function resourceNotFound(skill: string, path: string): SkillError {
  return new SkillError('SKILL_RESOURCE_NOT_FOUND', `resource "${quoted(path)}" not found in skill "${quoted(skill)}"`, { skillName: skill });
}
