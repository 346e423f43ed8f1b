import type { AnySchema } from '../schema/standardSchema.js';
import { SchemaCheck } from '../schema/schemaCheck.js';
import { BaseAgent, type BaseAgentOptions } from './baseAgent.js';
import {
  callbackList,
  type AfterModelCallback,
  type AfterToolCallback,
  type BeforeModelCallback,
  type BeforeToolCallback,
  type OneOrMany,
  type OnToolErrorCallback,
} from '../runner/callbacks.js';
import type { GenerateContentConfig } from '../content/content.js';
import { ConfigError } from '../errors.js';
import { CompiledOutputSchema, SET_MODEL_RESPONSE } from '../llmFlow/setModelResponseTool.js';
import { TRANSFER_TO_AGENT } from './agentTransfer.js';
import { MIN_TOOL_OUTPUT_BYTES } from '../llmFlow/toolOutputBudget.js';
import type { Event } from '../content/event.js';
import type { InvocationContext } from '../context/invocationContext.js';
import { runLlmFlow } from '../llmFlow/llmFlow.js';
import type { BeforeToolSelectionCallback } from '../llmFlow/toolSelection.js';
import { singleTurnTool } from './singleTurnTool.js';
import { taskAgentTool } from './taskAgentTool.js';
import { finishTaskTool } from './finishTaskTool.js';
import { isModel, type Model } from '../model/model.js';
import type { ReadonlyContext } from '../context/readonlyContext.js';
import {
  isRequestProcessor,
  isResumableTool,
  isRunnableTool,
  isStreamingTool,
  isToolset,
  type Tool,
  type Toolset,
} from '../tools/tool.js';

/** An instruction computed per request; its result is used as is (no `{key}` templating). */
export type InstructionProvider = (context: ReadonlyContext) => string | Promise<string>;

export interface LlmAgentOptions extends BaseAgentOptions {
  /** The model; when absent, the nearest ancestor LlmAgent's model. */
  model?: Model;
  /** The system instruction; `{key}` is filled from state, `{key?}` may be missing. */
  instruction?: string | InstructionProvider;
  /** Tools the model may call. A toolset here is treated as if listed in `toolsets`. */
  tools?: readonly (Tool | Toolset)[];
  /** Groups of tools resolved once per agent run (FL-2). */
  toolsets?: readonly Toolset[];
  /**
   * The input when this agent is used as a tool (`agentTool`): a TypeBox or Standard JSON Schema
   * (zod 4, valibot, arktype). Declared as the tool's parameters and checked on each call.
   */
  inputSchema?: AnySchema;
  /**
   * The final answer must be JSON of this schema (TypeBox or Standard JSON Schema); with
   * `outputKey`, the checked value (a Standard Schema's output) is saved. In `task` mode it is the
   * parameters of `finish_task` instead (a non-object schema wrapped as `{result}`).
   */
  outputSchema?: AnySchema;
  /** Saves the final answer's text (or parsed JSON with `outputSchema`) to this state key. */
  outputKey?: string;
  beforeModelCallback?: OneOrMany<BeforeModelCallback>;
  afterModelCallback?: OneOrMany<AfterModelCallback>;
  beforeToolCallback?: OneOrMany<BeforeToolCallback>;
  afterToolCallback?: OneOrMany<AfterToolCallback>;
  onToolErrorCallback?: OneOrMany<OnToolErrorCallback>;
  /**
   * Chooses the tools each model step declares (after the toolsets' and the plugins' selectors):
   * each gets the list the one before left and returns the tools to declare, or `undefined`.
   */
  beforeToolSelectionCallback?: OneOrMany<BeforeToolSelectionCallback>;
  /** Generation settings, deep-copied into every request. */
  generateContentConfig?: GenerateContentConfig;
  /** At most this many of one step's function calls run at once (default: all). */
  maxToolConcurrency?: number;
  /** Default per-call time limit for this agent's tools, in ms (a tool's own `timeoutMs` wins). */
  toolTimeoutMs?: number;
  /**
   * Limit in ms for listing one toolset's tools (`tools(ctx)`, once per run); a toolset that takes
   * longer, fails or clashes is left out of the run with a warning and an error event, and the
   * other tools keep working. 60,000 by default.
   */
  toolsetTimeoutMs?: number;
  /**
   * The largest tool response, in bytes of JSON, that reaches the model as it is. A larger one is
   * saved as an artifact (`tool-outputs/<tool>-<call id>.json`) and the model gets its first bytes,
   * its size and the artifact's name instead (`budgetToolOutput`). At least 1024; default: no limit.
   */
  maxToolOutputBytes?: number;
  /** The model may not hand the conversation back to the parent agent. */
  disallowTransferToParent?: boolean;
  /** The model may not hand the conversation to the parent's other sub-agents. */
  disallowTransferToPeers?: boolean;
  /**
   * How the agent serves its parent (ADK Go's modes); `chat` (the default) is a transfer target
   * as usual. The other two are installed on the parent as a tool named after the agent (declared
   * with its `inputSchema`, else `{request: string}`) and are never transferred to:
   * - `single_turn`: each call runs the agent isolated, told it gets no replies; its answer is
   *   the call's result;
   * - `task`: a call opens a task the agent works on with the user, on the parent's session, over
   *   as many turns as it needs, until it calls `finish_task` (whose parameters are its
   *   `outputSchema`); that output answers the parent's call.
   */
  mode?: 'chat' | 'single_turn' | 'task';
}

/** An agent driven by a language model, with tools (the heart of adkit). */
export class LlmAgent extends BaseAgent {
  readonly model?: Model;
  readonly instruction?: string | InstructionProvider;
  readonly tools: readonly Tool[];
  readonly toolsets: readonly Toolset[];
  readonly inputSchema?: AnySchema;
  readonly outputSchema?: AnySchema;
  /** The input schema's check and JSON Schema (what `agentTool` declares and validates with). */
  readonly inputSchemaCheck?: SchemaCheck;
  /** The output schema as the flow uses it: compiled on first use, with its `set_model_response` tool. */
  readonly compiledOutputSchema?: CompiledOutputSchema;
  readonly outputKey?: string;
  readonly generateContentConfig?: GenerateContentConfig;
  readonly maxToolConcurrency?: number;
  readonly toolTimeoutMs?: number;
  readonly toolsetTimeoutMs?: number;
  readonly maxToolOutputBytes?: number;
  readonly disallowTransferToParent: boolean;
  readonly disallowTransferToPeers: boolean;
  readonly mode: 'chat' | 'single_turn' | 'task';
  readonly beforeModelCallbacks: readonly BeforeModelCallback[];
  readonly afterModelCallbacks: readonly AfterModelCallback[];
  readonly beforeToolCallbacks: readonly BeforeToolCallback[];
  readonly afterToolCallbacks: readonly AfterToolCallback[];
  readonly onToolErrorCallbacks: readonly OnToolErrorCallback[];
  readonly beforeToolSelectionCallbacks: readonly BeforeToolSelectionCallback[];

  constructor(options: LlmAgentOptions) {
    super(options);
    if (options.model !== undefined && !isModel(options.model))
      throw new ConfigError(
        `LlmAgent "${options.name}": model must be a Model object such as openai('gpt-4.1-mini') or gemini('gemini-2.5-flash'), got ${typeof options.model}.`,
      );
    if (options.maxToolConcurrency !== undefined && !(Number.isInteger(options.maxToolConcurrency) && options.maxToolConcurrency > 0))
      throw new ConfigError(
        `LlmAgent "${options.name}": maxToolConcurrency must be a positive integer, got ${options.maxToolConcurrency}.`,
      );
    if (options.toolTimeoutMs !== undefined && !(options.toolTimeoutMs > 0))
      throw new ConfigError(`LlmAgent "${options.name}": toolTimeoutMs must be a positive number of milliseconds.`);
    if (options.toolsetTimeoutMs !== undefined && !(typeof options.toolsetTimeoutMs === 'number' && options.toolsetTimeoutMs > 0 && Number.isFinite(options.toolsetTimeoutMs)))
      throw new ConfigError(`LlmAgent "${options.name}": toolsetTimeoutMs must be a positive number of milliseconds; leave it out for 60000.`);
    if (options.maxToolOutputBytes !== undefined && !(Number.isSafeInteger(options.maxToolOutputBytes) && options.maxToolOutputBytes >= MIN_TOOL_OUTPUT_BYTES))
      throw new ConfigError(
        `LlmAgent "${options.name}": maxToolOutputBytes must be a whole number of bytes, at least ${MIN_TOOL_OUTPUT_BYTES} (e.g. 100000), got ${String(options.maxToolOutputBytes)}.`,
      );
    if (options.generateContentConfig?.tools?.some((t) => t.functionDeclarations))
      throw new ConfigError(
        `LlmAgent "${options.name}": declare function tools in \`tools\`, not in generateContentConfig.tools, so the flow can call them.`,
      );
    this.model = options.model;
    this.instruction = options.instruction;
    const tools: Tool[] = [];
    const toolsets: Toolset[] = [...(options.toolsets ?? [])];
    for (const [i, entry] of (options.tools ?? []).entries()) {
      if (!entry || typeof entry.name !== 'string')
        throw new ConfigError(`LlmAgent "${options.name}": tools[${i}] is not a tool (it has no name).`);
      if (isToolset(entry)) toolsets.push(entry);
      else if (isRunnableTool(entry) || isStreamingTool(entry) || isResumableTool(entry) || isRequestProcessor(entry)) tools.push(entry);
      else
        throw new ConfigError(
          `LlmAgent "${options.name}": tools[${i}] ("${entry.name}") cannot be called by the flow: it has no declaration()/run(), runStream() or processRequest()` +
            (typeof (entry as { execute?: unknown }).execute === 'function' ? ' (an object with execute() looks like another SDK\'s tool)' : '') +
            '. Wrap it with functionTool({ name, description, parameters, execute }) from @adkit/function-tool.',
        );
    }
    this.tools = tools;
    this.toolsets = toolsets;
    this.inputSchema = options.inputSchema;
    this.outputSchema = options.outputSchema;
    if (options.inputSchema !== undefined)
      this.inputSchemaCheck = new SchemaCheck(options.inputSchema, { label: `LlmAgent "${options.name}": inputSchema` });
    if (options.mode !== undefined && options.mode !== 'chat' && options.mode !== 'single_turn' && options.mode !== 'task')
      throw new ConfigError(`LlmAgent "${options.name}": mode must be 'chat', 'single_turn' or 'task', got ${JSON.stringify(options.mode)}.`);
    this.mode = options.mode ?? 'chat';
    // A task agent's output is what it passes to finish_task, not the form of its answers.
    if (this.mode === 'task') tools.push(finishTaskTool(options.name, options.outputSchema));
    else if (options.outputSchema !== undefined)
      this.compiledOutputSchema = new CompiledOutputSchema(options.outputSchema, `LlmAgent "${options.name}": outputSchema`);
    this.outputKey = options.outputKey;
    this.generateContentConfig = options.generateContentConfig;
    this.maxToolConcurrency = options.maxToolConcurrency;
    this.toolTimeoutMs = options.toolTimeoutMs;
    this.toolsetTimeoutMs = options.toolsetTimeoutMs;
    this.maxToolOutputBytes = options.maxToolOutputBytes;
    this.disallowTransferToParent = options.disallowTransferToParent ?? false;
    this.disallowTransferToPeers = options.disallowTransferToPeers ?? false;
    // Single-turn and task sub-agents answer as tools of this agent (ADK Go's agent tools).
    for (const sub of this.subAgents) {
      if (!(sub instanceof LlmAgent)) continue;
      if (sub.mode === 'single_turn') tools.push(singleTurnTool(sub, sub.inputSchemaCheck));
      else if (sub.mode === 'task') tools.push(taskAgentTool(sub, sub.inputSchemaCheck));
    }
    assertNoClash(options.name, tools, this.subAgents.some((sub) => !(sub instanceof LlmAgent && sub.mode !== 'chat')), this.compiledOutputSchema !== undefined);
    this.beforeModelCallbacks = callbackList(options.beforeModelCallback);
    this.afterModelCallbacks = callbackList(options.afterModelCallback);
    this.beforeToolCallbacks = callbackList(options.beforeToolCallback);
    this.afterToolCallbacks = callbackList(options.afterToolCallback);
    this.onToolErrorCallbacks = callbackList(options.onToolErrorCallback);
    this.beforeToolSelectionCallbacks = callbackList(options.beforeToolSelectionCallback);
  }

  /** This agent's model, or the nearest ancestor LlmAgent's. */
  get canonicalModel(): Model | undefined {
    for (let agent: BaseAgent | undefined = this; agent; agent = agent.parentAgent)
      if (agent instanceof LlmAgent && agent.model) return agent.model;
    return undefined;
  }

  protected runImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    return runLlmFlow(this, context);
  }
}

/**
 * Two tools of one agent under one name, or a tool named like one the flow adds itself, can never
 * both be called: a `ConfigError` at construction. (A clash that only appears at run time, with a
 * toolset's tools or a parent that enables transfer, leaves the later tool out of that run.)
 */
function assertNoClash(agent: string, tools: readonly Tool[], transfers: boolean, structured: boolean): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!isRunnableTool(tool) && !isStreamingTool(tool)) continue;
    if (seen.has(tool.name))
      throw new ConfigError(`LlmAgent "${agent}": two tools are named "${tool.name}" (a tool or a single-turn sub-agent); rename one, since the model could only ever call one of them.`);
    if (transfers && tool.name === TRANSFER_TO_AGENT)
      throw new ConfigError(`LlmAgent "${agent}": a tool is named "${TRANSFER_TO_AGENT}", which the flow declares itself for handing over to the sub-agents; rename the tool.`);
    if (structured && tool.name === SET_MODEL_RESPONSE)
      throw new ConfigError(`LlmAgent "${agent}": a tool is named "${SET_MODEL_RESPONSE}", which the flow declares itself for the outputSchema answer; rename the tool.`);
    seen.add(tool.name);
  }
}
