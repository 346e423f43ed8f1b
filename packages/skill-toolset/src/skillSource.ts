import type { Logger } from '@adkit/flow';
import type { SkillFrontmatter } from './skillFrontmatter.js';

/**
 * Where a source reports what lenient mode let through: the `warn` of a `Logger`. `console`, the
 * runner's logger (the toolset passes `ctx.logger`) and pino-style loggers fit.
 */
export type SkillLogger = Pick<Logger, 'warn'>;

/** Options every source call takes. */
export interface SkillSourceCallOptions {
  /**
   * Where warnings found while (re)reading skills go; the source's own `logger` option when
   * omitted. Each warning is reported when the file is parsed, not again while it stays cached.
   */
  logger?: SkillLogger;
  /**
   * An aborted signal makes the call fail before it reads anything. (A listing shared by
   * concurrent callers is not cancelled by one of them.)
   */
  signal?: AbortSignal;
}

/** Options of `loadResource`. */
export interface LoadResourceOptions extends SkillSourceCallOptions {
  /** Refuse resources larger than this many bytes (`SKILL_RESOURCE_TOO_LARGE`); 10 MiB by default. */
  maxBytes?: number;
}

/** The default resource size limit (SK-8, SK-10): 10 MiB. */
export const DEFAULT_MAX_RESOURCE_BYTES = 10 * 1024 * 1024;

/**
 * Where skills come from (SK-5): a folder of skill folders (`fileSystemSource`), objects in memory
 * (`inMemorySource`) or several sources in order (`mergedSource`). Every method is safe to call
 * concurrently. Failures are `SkillError`s with a code: `SKILL_NOT_FOUND`,
 * `SKILL_INVALID_FRONTMATTER`, `SKILL_INVALID_NAME`, `SKILL_DUPLICATE`,
 * `SKILL_INVALID_RESOURCE_PATH`, `SKILL_RESOURCE_NOT_FOUND`, `SKILL_RESOURCE_TOO_LARGE`.
 */
export interface SkillSource {
  /** Every skill's frontmatter, in source order. A source may return the same frozen array while nothing changed. */
  listFrontmatters(options?: SkillSourceCallOptions): Promise<readonly SkillFrontmatter[]>;
  /** One skill's frontmatter, by its `name`. */
  loadFrontmatter(name: string, options?: SkillSourceCallOptions): Promise<SkillFrontmatter>;
  /** The markdown body of the skill's SKILL.md. */
  loadInstructions(name: string, options?: SkillSourceCallOptions): Promise<string>;
  /**
   * The skill's resource files as skill-relative paths (`references/guide.md`), sorted; `subpath`
   * narrows the walk to one folder. SKILL.md itself is not listed.
   */
  listResources(name: string, subpath?: string, options?: SkillSourceCallOptions): Promise<readonly string[]>;
  /** A resource's bytes; the path is relative to the skill's folder and may not leave it (SK-7). */
  loadResource(name: string, path: string, options?: LoadResourceOptions): Promise<Uint8Array>;
}
