import {
  ConfigError,
  SET_MODEL_RESPONSE,
  TRANSFER_TO_AGENT,
  appendInstructions,
  isRequestProcessor,
  isRunnableTool,
  isStreamingTool,
  isToolset,
  packTool,
  type LlmRequest,
  type ReadonlyContext,
  type RequestContext,
  type RequestProcessor,
  type Tool,
  type Toolset,
} from '@adkit/flow';
import { toFunctionName } from '@adkit/tool';
import { attachBinaryResources } from './attachBinaryResources.js';
import { isSkillError } from './errors.js';
import { listSkillsTool } from './listSkillsTool.js';
import { readLoadedSkills, type LoadedSkills } from './loadedSkills.js';
import { loadSkillResourceTool } from './loadSkillResourceTool.js';
import { loadSkillTool } from './loadSkillTool.js';
import { grantedToolNames, restrictTools } from './restrictTools.js';
import type { SkillFrontmatter } from './skillFrontmatter.js';
import { DEFAULT_MAX_RESOURCE_BYTES, type SkillLogger, type SkillSource } from './skillSource.js';
import { cappedSkillsXml } from './skillsToXml.js';
import { DEFAULT_SKILL_SYSTEM_INSTRUCTION } from './systemInstruction.js';
import { ADDITIONAL_TOOLS_KEY } from './validateFrontmatter.js';

/** Options of `skillToolset`. */
export interface SkillToolsetOptions {
  /** Where the skills come from: `fileSystemSource(dir)`, `inMemorySource([...])`, `mergedSource([...])`. */
  source: SkillSource;
  /** The toolset's name, in errors and in the state key of loaded skills; `SkillToolset` by default. */
  name?: string;
  /** Replaces the instruction put before the skill listing (SK-12). */
  systemInstruction?: string;
  /**
   * Tools (or toolsets) the model gets only once it has loaded a skill that names them in its
   * `metadata.adk_additional_tools` (a YAML list, or a space-separated string).
   */
  additionalTools?: readonly (Tool | Toolset)[];
  /** Refuse calls outside the loaded skill's `allowed-tools` (default `true`); see the README. */
  enforceAllowedTools?: boolean;
  /** The largest resource `load_skill_resource` returns, in bytes; 10 MiB by default. */
  maxResourceBytes?: number;
  /**
   * The longest skill listing put in the system instruction of every request, in characters;
   * 50,000 by default. A longer one lists the first skills that fit and says how many more there
   * are (`list_skills` lists them all), with a warning naming this option.
   */
  maxListingChars?: number;
}

/** The default of `maxListingChars`: about 12,000 tokens, some 300 skills of ordinary length. */
export const DEFAULT_MAX_LISTING_CHARS = 50_000;

/** The skill toolset: three tools, and a request processor that lists the skills for the model. */
export interface SkillToolset extends Toolset, RequestProcessor {
  readonly source: SkillSource;
  /** `list_skills`, `load_skill`, `load_skill_resource` (SK-9), then the tools loaded skills unlocked. */
  tools(ctx: ReadonlyContext): Promise<Tool[]>;
  /** Closes the additional tools and toolsets that have `close()`. */
  close(): Promise<void>;
}

const OWN_TOOL_NAMES = new Set(['list_skills', 'load_skill', 'load_skill_resource']);

class SkillToolsetImpl implements SkillToolset {
  readonly name: string;
  readonly source: SkillSource;
  private readonly instruction: string;
  private readonly additional: readonly (Tool | Toolset)[];
  private readonly enforce: boolean;
  private readonly maxBytes: number;
  private readonly own: readonly Tool[];
  private readonly maxListingChars: number;
  private readonly xml = new WeakMap<readonly SkillFrontmatter[], string>();
  private candidates?: { invocationId: string; tools: Promise<Map<string, Tool>> };
  private readonly reported = new Set<string>();

  constructor(options: SkillToolsetOptions) {
    const source = options?.source as Partial<SkillSource> | undefined;
    if (typeof source?.listFrontmatters !== 'function' || typeof source.loadResource !== 'function')
      throw new ConfigError('skillToolset: skill source must be provided; pass { source: fileSystemSource("./skills") }.');
    const name = options.name ?? 'SkillToolset';
    if (typeof name !== 'string' || name.length === 0) throw new ConfigError('skillToolset: name must be a non-empty string.');
    const instruction = options.systemInstruction ?? DEFAULT_SKILL_SYSTEM_INSTRUCTION;
    if (typeof instruction !== 'string') throw new ConfigError('skillToolset: systemInstruction must be a string.');
    const maxBytes = options.maxResourceBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
    if (!Number.isInteger(maxBytes) || maxBytes < 1)
      throw new ConfigError(`skillToolset "${name}": maxResourceBytes must be a positive integer, got ${String(maxBytes)}.`);
    const maxListingChars = options.maxListingChars ?? DEFAULT_MAX_LISTING_CHARS;
    if (!Number.isSafeInteger(maxListingChars) || maxListingChars < 1_000)
      throw new ConfigError(`skillToolset "${name}": maxListingChars must be a whole number of characters, at least 1000, got ${String(maxListingChars)}.`);
    const additional = options.additionalTools ?? [];
    if (!Array.isArray(additional) || additional.some((item) => typeof item !== 'object' || item === null || typeof item.name !== 'string'))
      throw new ConfigError(`skillToolset "${name}": additionalTools must be an array of tools and toolsets.`);
    for (const item of additional)
      if (!isToolset(item) && OWN_TOOL_NAMES.has(item.name))
        throw new ConfigError(`skillToolset "${name}": additional tool "${item.name}" clashes with a skill tool; rename it.`);
    this.name = name;
    this.source = source as SkillSource;
    this.instruction = instruction;
    this.additional = [...additional];
    this.enforce = options.enforceAllowedTools ?? true;
    this.maxBytes = maxBytes;
    this.maxListingChars = maxListingChars;
    this.own = Object.freeze([listSkillsTool(this.source), loadSkillTool(this.source, name), loadSkillResourceTool(this.source, maxBytes)]);
  }

  async tools(ctx: ReadonlyContext): Promise<Tool[]> {
    const { loaded } = readLoadedSkills(ctx, this.name);
    return [...this.own, ...(await this.unlocked(ctx, loaded)).values()];
  }

  /**
   * Every model step (SK-9): the instruction and the listing (when there are skills); the tools
   * unlocked since the run began; the `allowed-tools` restriction of the active skill; binary
   * resources loaded by the previous step, as inline data.
   */
  async processRequest(ctx: RequestContext, request: LlmRequest): Promise<void> {
    const logger = ctx.logger;
    const frontmatters = await this.source.listFrontmatters({ logger, signal: ctx.signal });
    if (frontmatters.length > 0) appendInstructions(request, [this.instruction, this.listing(frontmatters, logger)]);

    const record = readLoadedSkills(ctx, this.name);
    const unlocked = await this.unlocked(ctx, record.loaded, logger);
    for (const tool of unlocked.values()) {
      if (Object.hasOwn(request.tools, tool.name) && request.tools[tool.name] === tool) continue;
      if (isRequestProcessor(tool)) await tool.processRequest(ctx, request);
      else if (isRunnableTool(tool) || isStreamingTool(tool)) packTool(request, tool);
    }
    if (this.enforce) await this.restrict(ctx, request, record, logger);
    await attachBinaryResources(request, 'load_skill_resource', this.source, { logger, signal: ctx.signal, maxBytes: this.maxBytes });
  }

  async close(): Promise<void> {
    await Promise.all(
      this.additional.map(async (item) => {
        const closable = item as Partial<{ close(): Promise<void> }>;
        if (typeof closable.close === 'function') await closable.close();
      }),
    );
  }

  /** The listing for the system instruction, built once per listing and capped at `maxListingChars`. */
  private listing(frontmatters: readonly SkillFrontmatter[], logger: SkillLogger): string {
    let xml = this.xml.get(frontmatters);
    if (xml === undefined) {
      const capped = cappedSkillsXml(frontmatters, this.maxListingChars);
      xml = capped.xml;
      this.xml.set(frontmatters, xml);
      if (capped.listed < frontmatters.length)
        this.reportOnce(
          logger,
          `skill toolset "${this.name}": the listing of ${frontmatters.length} skills is over maxListingChars (${this.maxListingChars} characters), so every request lists only the first ${capped.listed}; raise maxListingChars to list more, or split the skills across toolsets`,
        );
    }
    return xml;
  }

  /**
   * While the active skill (loaded last, in this run) declares `allowed-tools`, every other tool
   * of the request answers with an error naming the skill; the skill tools, the tools the skill
   * unlocks, `transfer_to_agent` and `set_model_response` stay usable.
   */
  private async restrict(ctx: RequestContext, request: LlmRequest, record: LoadedSkills, logger: SkillLogger): Promise<void> {
    if (record.active === undefined || record.invocationId !== ctx.invocationId) return;
    const active = record.active;
    let frontmatter: SkillFrontmatter;
    try {
      frontmatter = await this.source.loadFrontmatter(active, { logger, signal: ctx.signal });
    } catch (error) {
      if (isSkillError(error, 'SKILL_NOT_FOUND')) return;
      throw error;
    }
    const declared = frontmatter['allowed-tools'];
    if (!declared || declared.length === 0) return;
    const granted = grantedToolNames(declared);
    const unlocked = new Set((await this.unlocked(ctx, [active], logger)).keys());
    const own = new Set(this.own);
    const allowed = (name: string, tool: Tool) =>
      own.has(tool) || granted.has(name) || unlocked.has(name) || name === TRANSFER_TO_AGENT || name === SET_MODEL_RESPONSE;
    const refused = restrictTools(
      request,
      allowed,
      (name) =>
        `Tool "${name}" is not allowed while skill "${active}" is loaded; its allowed-tools are: ${declared.join(', ')}. ` +
        'Use one of those tools or the skill tools, or load another skill.',
    );
    if (refused.length === 0) return;
    const usable = Object.entries(request.tools)
      .filter(([name, tool]) => allowed(name, tool))
      .map(([name]) => name);
    appendInstructions(request, [
      `Skill "${active}" is loaded and allows only these tools: ${usable.join(', ')}. ` +
        'Calls to other tools are refused until this run ends or another skill is loaded.',
    ]);
  }

  /** The additional tools the given skills unlock, by name, in the skills' order. */
  private async unlocked(ctx: ReadonlyContext, skills: readonly string[], logger: SkillLogger = ctx.logger): Promise<Map<string, Tool>> {
    const result = new Map<string, Tool>();
    if (this.additional.length === 0 || skills.length === 0) return result;
    let candidates: Map<string, Tool> | undefined;
    for (const skill of skills) {
      let frontmatter: SkillFrontmatter;
      try {
        frontmatter = await this.source.loadFrontmatter(skill, { logger });
      } catch (error) {
        if (isSkillError(error, 'SKILL_NOT_FOUND')) continue;
        throw error;
      }
      const wanted = additionalToolNames(frontmatter);
      if (wanted.length === 0) continue;
      candidates ??= await this.candidateTools(ctx);
      for (const name of wanted) {
        const tool = candidates.get(name) ?? candidates.get(toFunctionName(name).name);
        if (tool) result.set(tool.name, tool);
        else this.reportOnce(logger, `skill "${skill}" unlocks tool "${name}" (metadata.${ADDITIONAL_TOOLS_KEY}), but no such tool is in additionalTools of skill toolset "${this.name}"`);
      }
    }
    return result;
  }

  /** The additional tools by name; toolsets are listed once per run. */
  private candidateTools(ctx: ReadonlyContext): Promise<Map<string, Tool>> {
    if (this.candidates?.invocationId !== ctx.invocationId) {
      const tools = (async () => {
        const byName = new Map<string, Tool>();
        for (const item of this.additional)
          for (const tool of isToolset(item) ? await item.tools(ctx) : [item])
            if (!OWN_TOOL_NAMES.has(tool.name) && !byName.has(tool.name)) byName.set(tool.name, tool);
        return byName;
      })();
      this.candidates = { invocationId: ctx.invocationId, tools };
      tools.catch(() => {
        if (this.candidates?.tools === tools) this.candidates = undefined;
      });
    }
    return this.candidates!.tools;
  }

  private reportOnce(logger: SkillLogger, message: string): void {
    if (this.reported.has(message)) return;
    this.reported.add(message);
    logger.warn(`@adkit/skill-toolset: ${message}`);
  }
}

/**
 * The tool names a skill unlocks: its `metadata.adk_additional_tools`, given as a YAML list or as
 * a string of names separated by spaces or commas.
 */
export function additionalToolNames(frontmatter: SkillFrontmatter): string[] {
  const value = frontmatter.metadata?.[ADDITIONAL_TOOLS_KEY];
  if (typeof value !== 'string' || !Object.hasOwn(frontmatter.metadata!, ADDITIONAL_TOOLS_KEY)) return [];
  if (value.trimStart().startsWith('[')) {
    try {
      const list: unknown = JSON.parse(value);
      if (Array.isArray(list)) return list.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim());
    } catch {
      // Not JSON: read it as a list of names.
    }
  }
  return value.split(/[\s,]+/).filter(Boolean);
}

/**
 * Agent Skills as a toolset (SK-9 … SK-12): the model gets `list_skills`, `load_skill` and
 * `load_skill_resource`, and every request carries the skill instruction and the
 * `<available_skills>` listing in its system instruction. Loaded skills are recorded in session
 * state; the one loaded last restricts calls to its `allowed-tools` for the rest of the run, and
 * skills can unlock `additionalTools` through `metadata.adk_additional_tools`.
 *
 * ```ts
 * const agent = new LlmAgent({ name: 'helper', model, toolsets: [skillToolset({ source: fileSystemSource('./skills') })] });
 * ```
 */
export function skillToolset(options: SkillToolsetOptions): SkillToolset {
  return new SkillToolsetImpl(options);
}
