import { ConfigError, errorMessage, quoted, stderrLogger } from '@adkit/flow';
import { SkillError, resourceNotFound, skillNotFound } from './errors.js';
import { cleanResourcePath } from './resourcePath.js';
import type { SkillFrontmatter } from './skillFrontmatter.js';
import {
  DEFAULT_MAX_RESOURCE_BYTES,
  type LoadResourceOptions,
  type SkillLogger,
  type SkillSource,
  type SkillSourceCallOptions,
} from './skillSource.js';
import { validateFrontmatter } from './validateFrontmatter.js';

/** A skill given as data: its frontmatter fields, its instructions and its resources. */
export interface InMemorySkill {
  /** The fields as a SKILL.md would have them (`name`, `description`, `allowed-tools`, …); validated like one. */
  frontmatter: Readonly<Record<string, unknown>>;
  /** The markdown instructions (the body of a SKILL.md). */
  instructions?: string;
  /** Resources by skill-relative path (`references/guide.md`): text, or bytes for binary files. */
  resources?: Readonly<Record<string, string | Uint8Array>> | ReadonlyMap<string, string | Uint8Array>;
}

/** Options of `inMemorySource`. */
export interface InMemorySourceOptions {
  /** Refuse every rule break at construction (a `ConfigError`); by default they are warnings. */
  strict?: boolean;
  /** Where warnings go when a call passes no logger; stderr by default. */
  logger?: SkillLogger;
}

interface Stored {
  readonly frontmatter: SkillFrontmatter;
  readonly instructions: string;
  readonly resources: ReadonlyMap<string, Uint8Array>;
}

const encoder = new TextEncoder();

class MemorySource implements SkillSource {
  private readonly skills = new Map<string, Stored>();
  private readonly frontmatters: readonly SkillFrontmatter[];
  private pending: string[] = [];
  private readonly logger: SkillLogger;

  constructor(skills: readonly InMemorySkill[], options: InMemorySourceOptions) {
    if (!Array.isArray(skills))
      throw new ConfigError('inMemorySource: pass an array of skills, e.g. [{ frontmatter: { name, description }, instructions }].');
    this.logger = options.logger ?? stderrLogger;
    skills.forEach((skill, index) => {
      const label = `inMemorySource: skill #${index + 1}`;
      if (typeof skill !== 'object' || skill === null)
        throw new ConfigError(`${label} must be an object { frontmatter, instructions?, resources? }.`);
      let validated;
      try {
        validated = validateFrontmatter(skill.frontmatter, { strict: options.strict === true });
      } catch (error) {
        throw new ConfigError(`${label}: ${errorMessage(error)}; fix the frontmatter.`, { cause: error });
      }
      const { name } = validated.frontmatter;
      if (this.skills.has(name)) throw new ConfigError(`${label}: duplicate skill "${name}"; skill names must be unique.`);
      if (skill.instructions !== undefined && typeof skill.instructions !== 'string')
        throw new ConfigError(`${label} ("${name}"): instructions must be a string of markdown.`);
      this.skills.set(name, {
        frontmatter: validated.frontmatter,
        instructions: skill.instructions ?? '',
        resources: resourcesOf(`${label} ("${name}")`, name, skill.resources),
      });
      for (const warning of validated.warnings) this.pending.push(`skill "${name}": ${warning} (lenient mode)`);
    });
    this.frontmatters = Object.freeze([...this.skills.values()].map((skill) => skill.frontmatter));
  }

  async listFrontmatters(options: SkillSourceCallOptions = {}): Promise<readonly SkillFrontmatter[]> {
    this.report(options);
    return this.frontmatters;
  }

  async loadFrontmatter(name: string, options: SkillSourceCallOptions = {}): Promise<SkillFrontmatter> {
    return this.skill(name, options).frontmatter;
  }

  async loadInstructions(name: string, options: SkillSourceCallOptions = {}): Promise<string> {
    return this.skill(name, options).instructions;
  }

  async listResources(name: string, subpath = '', options: SkillSourceCallOptions = {}): Promise<readonly string[]> {
    const skill = this.skill(name, options);
    const prefix = subpath === '' || subpath === '.' ? '' : `${cleanResourcePath(name, subpath)}/`;
    return [...skill.resources.keys()].filter((path) => path.startsWith(prefix)).sort();
  }

  async loadResource(name: string, path: string, options: LoadResourceOptions = {}): Promise<Uint8Array> {
    const skill = this.skill(name, options);
    const cleaned = cleanResourcePath(name, path);
    const bytes = skill.resources.get(cleaned);
    if (!bytes) throw resourceNotFound(name, cleaned);
    const limit = options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
    if (bytes.length > limit)
      throw new SkillError('SKILL_RESOURCE_TOO_LARGE', `resource '${quoted(cleaned, 200)}' from skill '${quoted(name)}' is too large (limit: ${limit} bytes)`, {
        skillName: name,
      });
    return bytes.slice();
  }

  private skill(name: string, options: SkillSourceCallOptions): Stored {
    this.report(options);
    const skill = this.skills.get(name);
    if (!skill) throw skillNotFound(name);
    return skill;
  }

  /** Reports the construction-time warnings once, to the first caller's logger. */
  private report(options: SkillSourceCallOptions): void {
    if (this.pending.length === 0) return;
    const pending = this.pending;
    this.pending = [];
    const logger = options.logger ?? this.logger;
    for (const warning of pending) logger.warn(`@adkit/skill-toolset: ${warning}`);
  }
}

function resourcesOf(label: string, name: string, resources: InMemorySkill['resources']): ReadonlyMap<string, Uint8Array> {
  const stored = new Map<string, Uint8Array>();
  if (resources === undefined) return stored;
  if (typeof resources !== 'object' || resources === null)
    throw new ConfigError(`${label}: resources must map paths to text or bytes, e.g. { 'references/guide.md': '# Guide' }.`);
  const entries = resources instanceof Map ? [...resources.entries()] : Object.entries(resources);
  for (const [path, content] of entries) {
    let cleaned: string;
    try {
      cleaned = cleanResourcePath(name, String(path));
    } catch (error) {
      throw new ConfigError(`${label}: ${errorMessage(error)}.`, { cause: error });
    }
    if (typeof content === 'string') stored.set(cleaned, encoder.encode(content));
    else if (content instanceof Uint8Array) stored.set(cleaned, content.slice());
    else throw new ConfigError(`${label}: resource "${cleaned}" must be a string or a Uint8Array.`);
  }
  return stored;
}

/**
 * Skills given as data, e.g. generated at start-up or bundled with an app. Frontmatter is validated
 * as a SKILL.md's would be (without the folder-name rule): strict mode throws at construction;
 * lenient mode (the default) reports its warnings at the first call. Resource paths follow SK-7.
 *
 * ```ts
 * const source = inMemorySource([
 *   { frontmatter: { name: 'greeting', description: 'How to greet.' }, instructions: 'Say hello.' },
 * ]);
 * ```
 */
export function inMemorySource(skills: readonly InMemorySkill[], options: InMemorySourceOptions = {}): SkillSource {
  return new MemorySource(skills, options);
}
