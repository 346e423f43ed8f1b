import { errorMessage } from '../errors.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { ReadonlyContext } from '../context/readonlyContext.js';
import { isRequestProcessor, isResumableTool, isRunnableTool, isStreamingTool, type Tool, type Toolset } from '../tools/tool.js';
import { quoted } from './quoted.js';
import type { StepProblem } from './stepProblem.js';

const NO_PROBLEMS: readonly StepProblem[] = Object.freeze([]);

/** How long listing one toolset may take when the agent sets no `toolsetTimeoutMs`. */
export const DEFAULT_TOOLSET_TIMEOUT_MS = 60_000;

/** The tools of one agent run: the agent's tools, then each toolset's, in order (FL-2). */
export interface ResolvedTools {
  tools: readonly Tool[];
  toolsets: readonly Toolset[];
  /** What was left out of the run and why: each becomes a warning and an error event. */
  problems: readonly StepProblem[];
}

/**
 * Resolves an agent's tools once per agent run and caches them, so a toolset (an MCP server,
 * say) is listed once per run, not once per step. Toolsets are listed at once, each bounded by
 * the agent's `toolsetTimeoutMs`. One that fails, times out, returns something that is not a
 * list of tools, or exposes a name another tool already has (or one the flow reserves) is left out
 * of the run with a problem naming it; the other tools keep working.
 */
export class ToolResolver {
  private resolved?: Promise<ResolvedTools>;
  /** The run's tools once listed: later steps take them without a promise (#24). */
  private listed?: ResolvedTools;

  /** `reserved` names the tools the flow adds itself (`transfer_to_agent`, `set_model_response`). */
  constructor(
    private readonly agent: LlmAgent,
    private readonly reserved: readonly string[] = [],
  ) {}

  /** Made when the first problem is reported: most runs have none (#24). */
  private reported?: Set<string>;

  /**
   * The run's tools; `context` is made only on the first call, which lists them (#24). A promise
   * until they are listed, then the listing itself.
   */
  resolve(context: () => ReadonlyContext): ResolvedTools | Promise<ResolvedTools> {
    if (this.listed) return this.listed;
    return (this.resolved ??= this.load(context()).then((listed) => (this.listed = listed)));
  }

  /** The problems not yet reported this run: each is warned about and shown once, not every step. */
  unreported(problems: readonly StepProblem[]): readonly StepProblem[] {
    // Most steps have none: no array is made for them (#24).
    if (problems.length === 0) return NO_PROBLEMS;
    const reported = (this.reported ??= new Set());
    const fresh = problems.filter((problem) => !reported.has(problem.message));
    for (const problem of fresh) reported.add(problem.message);
    return fresh;
  }

  private async load(context: ReadonlyContext): Promise<ResolvedTools> {
    const timeoutMs = this.agent.toolsetTimeoutMs ?? DEFAULT_TOOLSET_TIMEOUT_MS;
    const listings = this.agent.toolsets.length > 0 ? await Promise.all(this.agent.toolsets.map((toolset) => listToolset(toolset, context, timeoutMs))) : [];
    const problems: StepProblem[] = [];
    // The agent's own tools never clash among themselves (LlmAgent refuses that at construction):
    // each is only checked against the names the flow reserves this run, so an agent without
    // toolsets pays one copy of its list per run, not a map entry per tool (#24).
    const tools: Tool[] = this.reserved.length === 0 ? this.agent.tools.slice() : [];
    if (this.reserved.length > 0)
      for (const tool of this.agent.tools) {
        if (isDeclared(tool) && this.reserved.includes(tool.name)) {
          problems.push({
            code: 'TOOL_NAME_CLASH',
            message: `Tool "${quoted(tool.name)}" of agent "${this.agent.name}" is left out: the flow uses that name this run; rename the tool.`,
          });
          continue;
        }
        tools.push(tool);
      }
    if (listings.length === 0) return { tools, toolsets: [], problems };
    const owners = new Map<string, string>();
    for (const name of this.reserved) owners.set(name, 'the flow');
    const agentOwner = `agent "${this.agent.name}"`;
    for (const tool of tools) if (isDeclared(tool) && !owners.has(tool.name)) owners.set(tool.name, agentOwner);
    const toolsets: Toolset[] = [];
    for (const [i, toolset] of this.agent.toolsets.entries()) {
      const listing = listings[i]!;
      const label = `Toolset "${quoted(toolset.name)}"`;
      if (!listing.ok) {
        problems.push({ code: 'TOOLSET_UNAVAILABLE', message: `${label} is left out: it failed to list its tools: ${listing.reason}` });
        continue;
      }
      const clash = firstClash(listing.tools, owners);
      if (clash) {
        problems.push({
          code: 'TOOL_NAME_CLASH',
          message: `${label} is left out: its tool "${quoted(clash.name)}" clashes with a tool of ${clash.owner}; rename one, or give the toolset a prefix.`,
        });
        continue;
      }
      const owner = `toolset "${quoted(toolset.name)}"`;
      for (const tool of listing.tools) if (isDeclared(tool)) owners.set(tool.name, owner);
      tools.push(...listing.tools);
      toolsets.push(toolset);
    }
    return { tools, toolsets, problems };
  }
}

type Listing = { ok: true; tools: readonly Tool[] } | { ok: false; reason: string };

async function listToolset(toolset: Toolset, context: ReadonlyContext, timeoutMs: number): Promise<Listing> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Listing>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `no answer within ${timeoutMs} ms (the agent's toolsetTimeoutMs)` }), timeoutMs);
  });
  const listed = (async (): Promise<Listing> => {
    try {
      const tools: unknown = await toolset.tools(context);
      const problem = listingProblem(tools);
      return problem ? { ok: false, reason: problem } : { ok: true, tools: tools as Tool[] };
    } catch (error) {
      return { ok: false, reason: errorMessage(error) };
    }
  })();
  try {
    return await Promise.race([listed, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Why a toolset's answer is not a list of tools the flow can use, or undefined when it is. */
function listingProblem(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return `tools() returned ${tools === null ? 'null' : typeof tools}, not an array of tools`;
  for (const [i, tool] of tools.entries()) {
    if (typeof tool !== 'object' || tool === null || typeof (tool as Tool).name !== 'string' || (tool as Tool).name === '')
      return `entry ${i} is not a tool (it has no name)`;
    const usable = isRunnableTool(tool as Tool) || isStreamingTool(tool as Tool) || isResumableTool(tool as Tool) || isRequestProcessor(tool as Tool);
    if (!usable) return `tool "${quoted((tool as Tool).name)}" has no declaration()/run(), runStream() or processRequest()`;
  }
  return undefined;
}

/** Whether the tool is registered under its own name (by the flow, or by its own `processRequest`). */
function isDeclared(tool: Tool): boolean {
  return isRunnableTool(tool) || isStreamingTool(tool);
}

function firstClash(tools: readonly Tool[], owners: ReadonlyMap<string, string>): { name: string; owner: string } | undefined {
  const own = new Set<string>();
  for (const tool of tools) {
    if (!isDeclared(tool)) continue;
    const owner = owners.get(tool.name);
    if (owner) return { name: tool.name, owner };
    if (own.has(tool.name)) return { name: tool.name, owner: 'the same toolset' };
    own.add(tool.name);
  }
  return undefined;
}
