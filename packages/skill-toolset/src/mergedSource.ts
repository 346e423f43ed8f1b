import { ConfigError, stderrLogger } from '@adkit/flow';
import { SkillError, isSkillError, skillNotFound } from './errors.js';
import type { SkillFrontmatter } from './skillFrontmatter.js';
import type { LoadResourceOptions, SkillLogger, SkillSource, SkillSourceCallOptions } from './skillSource.js';

/** Options of `mergedSource`. */
export interface MergedSourceOptions {
  /**
   * What a skill name found in two sources does: `'error'` (the default, SK-8) fails the listing
   * with `SKILL_DUPLICATE`; `'firstWins'` keeps the first source's skill and logs a warning, so a
   * project's skills can override a user's.
   */
  duplicates?: 'error' | 'firstWins';
  /** Where warnings go when a call passes no logger; stderr by default. */
  logger?: SkillLogger;
}

class MergedSource implements SkillSource {
  private last?: { parts: readonly (readonly SkillFrontmatter[])[]; merged: readonly SkillFrontmatter[] };

  constructor(
    private readonly sources: readonly SkillSource[],
    private readonly options: MergedSourceOptions,
  ) {}

  async listFrontmatters(options: SkillSourceCallOptions = {}): Promise<readonly SkillFrontmatter[]> {
    const parts = await Promise.all(this.sources.map((source) => source.listFrontmatters(options)));
    const last = this.last;
    if (last && last.parts.length === parts.length && last.parts.every((part, i) => part === parts[i])) return last.merged;
    const seen = new Map<string, number>();
    const merged: SkillFrontmatter[] = [];
    parts.forEach((part, index) => {
      for (const frontmatter of part) {
        const first = seen.get(frontmatter.name);
        if (first === undefined) {
          seen.set(frontmatter.name, index);
          merged.push(frontmatter);
          continue;
        }
        const message = `duplicate skill "${frontmatter.name}" in sources #${first + 1} and #${index + 1}`;
        if (this.options.duplicates !== 'firstWins')
          throw new SkillError('SKILL_DUPLICATE', `${message}; rename one, or pass { duplicates: 'firstWins' } to mergedSource`, {
            skillName: frontmatter.name,
          });
        (options.logger ?? this.options.logger ?? stderrLogger).warn(
          `@adkit/skill-toolset: ${message}; the one in source #${first + 1} is used`,
        );
      }
    });
    const result = Object.freeze(merged);
    this.last = { parts, merged: result };
    return result;
  }

  loadFrontmatter(name: string, options?: SkillSourceCallOptions): Promise<SkillFrontmatter> {
    return this.first(name, (source) => source.loadFrontmatter(name, options));
  }

  loadInstructions(name: string, options?: SkillSourceCallOptions): Promise<string> {
    return this.first(name, (source) => source.loadInstructions(name, options));
  }

  listResources(name: string, subpath?: string, options?: SkillSourceCallOptions): Promise<readonly string[]> {
    return this.first(name, (source) => source.listResources(name, subpath, options));
  }

  loadResource(name: string, path: string, options?: LoadResourceOptions): Promise<Uint8Array> {
    return this.first(name, (source) => source.loadResource(name, path, options));
  }

  /** SK-8: the first source that does not answer "skill not found"; other errors pass through. */
  private async first<T>(name: string, call: (source: SkillSource) => Promise<T>): Promise<T> {
    for (const source of this.sources) {
      try {
        return await call(source);
      } catch (error) {
        if (!isSkillError(error, 'SKILL_NOT_FOUND') || error.skillName !== name) throw error;
      }
    }
    throw skillNotFound(name);
  }
}

/**
 * Several sources as one (SK-8): listed in order; a lookup takes the first source that has the
 * skill. A name in two sources fails the listing unless `duplicates: 'firstWins'`.
 *
 * ```ts
 * const source = mergedSource([fileSystemSource('./.agents/skills'), fileSystemSource(userSkills)], { duplicates: 'firstWins' });
 * ```
 */
export function mergedSource(sources: readonly SkillSource[], options: MergedSourceOptions = {}): SkillSource {
  if (!Array.isArray(sources) || sources.length === 0)
    throw new ConfigError('mergedSource: pass a non-empty array of skill sources, e.g. [fileSystemSource("./skills"), inMemorySource([...])].');
  sources.forEach((source, index) => {
    if (typeof source !== 'object' || source === null || typeof (source as Partial<SkillSource>).listFrontmatters !== 'function')
      throw new ConfigError(`mergedSource: source #${index + 1} is not a skill source (it has no listFrontmatters); pass fileSystemSource(dir), inMemorySource([...]) or another source.`);
  });
  if (options.duplicates !== undefined && options.duplicates !== 'error' && options.duplicates !== 'firstWins')
    throw new ConfigError(`mergedSource: duplicates must be 'error' or 'firstWins', got ${JSON.stringify(options.duplicates)}.`);
  return new MergedSource([...sources], options);
}
