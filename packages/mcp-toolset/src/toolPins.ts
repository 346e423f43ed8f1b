import { createHash } from 'node:crypto';
import { errorMessage, type FunctionDeclaration, type ReadonlyContext, type RequestContext, type Tool } from '@adkit/flow';
import { BaseTool, ToolError } from '@adkit/tool';
import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';

/** The parts of a tool's definition that are pinned. */
export type McpToolField = 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations';

/** A tool whose definition differs from the one pinned when it was first seen. */
export interface McpToolChange {
  /** The tool's name on the server. */
  readonly toolName: string;
  /** What changed, in the order of `McpToolField`. */
  readonly changed: readonly McpToolField[];
  /** The definition the server sends now. */
  readonly definition: SdkTool;
}

/** Options of `pinTools` on `mcpToolset`. */
export interface McpPinToolsOptions {
  /**
   * Decides on a changed definition: `true` pins the new one and lets the tool through; `false`
   * (or no function, or a throw) keeps the tool refused. Called at each listing until approved.
   */
  approve?: (change: McpToolChange, ctx: ReadonlyContext) => boolean | Promise<boolean>;
}

const FIELDS: readonly McpToolField[] = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'];
const FORMAT = 'adkit.mcpPins/1';
/** Listings whose new pins wait for the step's `processRequest`; a bound for listings made outside runs. */
const MAX_WAITING = 256;

type Digests = Record<McpToolField, string>;

/**
 * Pinned tool definitions (against the "rug pull": a server that changes a tool after it was
 * trusted). The first time a tool is seen, a digest of each part of its definition is saved in
 * app state (`app:adkit.mcpPins.<toolset name>`, so every user and session of the app shares it,
 * in whatever session store the runner uses); it is written with the step's model event, from
 * `processRequest`, since a listing cannot write state. A tool whose definition later differs is
 * replaced, until `approve` says yes, by a stand-in the model sees as unavailable, whose calls are
 * refused with an error naming what changed; a warning says the same. Deleting the state key
 * approves every change at once.
 */
export class ToolPins {
  readonly stateKey: string;
  private readonly waiting = new Map<string, Record<string, Digests>>();
  private readonly digests = new WeakMap<SdkTool, Digests>();

  constructor(
    private readonly owner: string,
    toolsetName: string,
    private readonly options: McpPinToolsOptions,
  ) {
    this.stateKey = `app:adkit.mcpPins.${toolsetName}`;
  }

  /** The tools to offer: pinned ones as they are, changed ones refused unless approved. */
  async check(definitions: readonly SdkTool[], tools: readonly Tool[], ctx: ReadonlyContext): Promise<Tool[]> {
    const saved = pinsOf(ctx.state.get(this.stateKey));
    const fresh: Record<string, Digests> = {};
    const result: Tool[] = [];
    for (let i = 0; i < definitions.length; i++) {
      const definition = definitions[i]!;
      const tool = tools[i]!;
      const digests = this.digestsOf(definition);
      const pinned = Object.hasOwn(saved, definition.name) ? saved[definition.name] : undefined;
      const changed = pinned ? FIELDS.filter((field) => pinned[field] !== digests[field]) : [];
      if (changed.length > 0 && !(await this.approved({ toolName: definition.name, changed, definition }, ctx))) {
        ctx.logger.warn(
          `${this.owner}: the server changed tool "${definition.name}" (${changed.join(', ')}) since it was pinned; it is refused until the app approves the change`,
        );
        result.push(new ChangedMcpTool(tool.name, definition.name, changed));
        continue;
      }
      if (!pinned || changed.length > 0) Object.defineProperty(fresh, definition.name, { value: digests, enumerable: true, writable: true, configurable: true });
      result.push(tool);
    }
    if (Object.keys(fresh).length > 0) {
      this.waiting.set(ctx.invocationId, { ...this.waiting.get(ctx.invocationId), ...fresh });
      for (const key of this.waiting.keys()) {
        if (this.waiting.size <= MAX_WAITING) break;
        this.waiting.delete(key);
      }
    }
    return result;
  }

  /** Saves the tools first seen (or approved) in this step, with the step's model event. */
  record(ctx: RequestContext): void {
    const fresh = this.waiting.get(ctx.invocationId);
    if (!fresh) return;
    this.waiting.delete(ctx.invocationId);
    const tools: Record<string, Digests> = { ...pinsOf(ctx.state.get(this.stateKey)) };
    for (const name of Object.keys(fresh)) Object.defineProperty(tools, name, { value: fresh[name], enumerable: true, writable: true, configurable: true });
    ctx.state.set(this.stateKey, { format: FORMAT, tools });
  }

  private async approved(change: McpToolChange, ctx: ReadonlyContext): Promise<boolean> {
    const approve = this.options.approve;
    if (!approve) return false;
    try {
      return (await approve(change, ctx)) === true;
    } catch (error) {
      ctx.logger.warn(`${this.owner}: pinTools.approve failed for tool "${change.toolName}" (${errorMessage(error)}); the tool stays refused`);
      return false;
    }
  }

  private digestsOf(definition: SdkTool): Digests {
    let digests = this.digests.get(definition);
    if (!digests) {
      const parts = {
        title: definition.title,
        description: definition.description,
        inputSchema: definition.inputSchema,
        outputSchema: definition.outputSchema,
        annotations: definition.annotations,
      };
      digests = Object.fromEntries(FIELDS.map((field) => [field, digest(parts[field])])) as Digests;
      this.digests.set(definition, digests);
    }
    return digests;
  }
}

/** A tool refused because its definition changed: unavailable to the model, its calls answered with the reason. */
class ChangedMcpTool extends BaseTool {
  private readonly declared: FunctionDeclaration;

  constructor(
    name: string,
    private readonly mcpName: string,
    private readonly changed: readonly McpToolField[],
  ) {
    const description = `Unavailable: the MCP server changed this tool (${changed.join(', ')}) and it is refused until the app approves the change. Do not call it.`;
    super({ name, description });
    this.declared = Object.freeze({ name, description, parametersJsonSchema: { type: 'object', properties: {} } });
  }

  declaration(): FunctionDeclaration {
    return this.declared;
  }

  async run(): Promise<Record<string, unknown>> {
    throw new ToolError(
      `Tool "${this.name}" was refused: the MCP server changed its definition (${this.changed.join(', ')}) since it was pinned as "${this.mcpName}"; the app must approve the change before it can be called.`,
      { code: 'MCP_TOOL_CHANGED', toolName: this.name },
    );
  }
}

/** The saved pins, when the state holds them (a store could hand back anything). */
function pinsOf(value: unknown): Record<string, Digests> {
  const saved = value as { format?: unknown; tools?: unknown } | undefined;
  if (saved?.format !== FORMAT || typeof saved.tools !== 'object' || saved.tools === null) return {};
  return saved.tools as Record<string, Digests>;
}

function digest(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'undefined';
  } catch {
    text = 'unserializable'; // a cyclic or too deep value: flow refuses such a tool anyway
  }
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
