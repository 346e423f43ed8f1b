import type { TransferSetup } from '../agents/agentTransfer.js';
import { buildContents } from './buildContents.js';
import { cloneData } from '../content/cloneData.js';
import type { EventActions } from '../content/eventActions.js';
import { errorMessage } from '../errors.js';
import { FlowContext } from '../context/flowContext.js';
import { injectSessionState } from '../agents/instructionTemplate.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import { appendInstructions, type LlmRequest } from '../model/llmRequest.js';
import { declareTool, packTool, registerTool } from '../tools/packTool.js';
import { packHead, type PackedHead } from '../tools/packPlan.js';
import type { ResolvedTools } from './resolveTools.js';
import { SET_MODEL_RESPONSE_INSTRUCTION } from './setModelResponseTool.js';
import type { StepProblem } from './stepProblem.js';
import { sweepDeclarations, toolRefusal } from './declarationGuard.js';
import { isRequestProcessor, isRunnableTool, isStreamingTool } from '../tools/tool.js';

/**
 * Request processors in ADK's order (FL-1), then per-tool (FL-3) and per-toolset (FL-4) processing.
 * Processors write into `actions`, which the step's model event carries, so their state is saved.
 * A tool whose declaration cannot be sent is left out, with a problem in `problems`, before any
 * callback or adapter sees the request. A promise only when something on the way answers later
 * (an instruction, a processor that returns one, a toolset): most steps wait for nothing (#24).
 */
export function buildRequest(
  agent: LlmAgent,
  context: InvocationContext,
  request: LlmRequest,
  resolved: ResolvedTools,
  transfer: TransferSetup | undefined,
  actions: EventActions,
  problems: StepProblem[],
): void | Promise<void> {
  if (agent.generateContentConfig) Object.assign(request.config, cloneData(agent.generateContentConfig));
  const hasTools = resolved.tools.length > 0;
  if (agent.compiledOutputSchema && !hasTools) {
    request.config.responseMimeType = 'application/json';
    request.config.responseJsonSchema = agent.compiledOutputSchema.check.jsonSchema;
  }
  const identity =
    `You are an agent. Your internal name is "${agent.name}".` +
    (agent.description ? ` The description about you is "${agent.description}".` : '');
  const build = new RequestBuild(agent, context, request, resolved, transfer, actions, problems);
  if (!agent.instruction) {
    appendInstructions(request, [identity]);
    return build.rest();
  }
  return instructionOf(agent, context).then((instruction) => {
    appendInstructions(request, [instruction, identity]);
    return build.rest();
  });
}

/** The agent's instruction for this step: its provider's answer, or its template filled from state. */
async function instructionOf(agent: LlmAgent, context: InvocationContext): Promise<string> {
  // The context is made only for an agent that has an instruction to read it (#24).
  const readonly = new FlowContext(context);
  if (typeof agent.instruction === 'function') return agent.instruction(readonly);
  return injectSessionState(agent.instruction!, readonly.state, (name) => readonly.loadArtifact(name));
}

/** One step's request past its instructions: the history, then the tools and toolsets in order. */
class RequestBuild {
  private head: PackedHead | undefined;
  private processing: FlowContext | undefined;
  // Whether a processor ran after the head: one may have moved or replaced the head's declarations.
  private processed = false;

  constructor(
    private readonly agent: LlmAgent,
    private readonly context: InvocationContext,
    private readonly request: LlmRequest,
    private readonly resolved: ResolvedTools,
    private readonly transfer: TransferSetup | undefined,
    private readonly actions: EventActions,
    private readonly problems: StepProblem[],
  ) {}

  rest(): void | Promise<void> {
    const { agent, request, transfer, resolved } = this;
    request.contents = buildContents(this.context.session.events, agent.name, this.context.branch);

    // The flow's own tools are declared first; then the tools that only pack themselves, all at once
    // (#24), before anything registers, so that the step's table can start as a copy; the rest are
    // processed one by one, in order.
    const structured = agent.compiledOutputSchema && resolved.tools.length > 0 ? agent.compiledOutputSchema.tool : undefined;
    if (structured) {
      declareTool(request, structured);
      appendInstructions(request, [SET_MODEL_RESPONSE_INSTRUCTION]);
    }
    if (transfer) {
      appendInstructions(request, [transfer.instructions]);
      declareTool(request, transfer.tool);
    }
    this.head = packHead(agent, request, resolved.tools);
    if (structured) registerTool(request, structured);
    if (transfer) registerTool(request, transfer.tool);
    return this.tools(this.head.count);
  }

  /** The tools from `from` on, in order; a processor that answers later is waited for, then the rest. */
  private tools(from: number): void | Promise<void> {
    const { request, resolved } = this;
    for (let i = from; i < resolved.tools.length; i++) {
      const tool = resolved.tools[i]!;
      const refused = toolRefusal(tool);
      if (refused) {
        this.problems.push(refused);
        continue;
      }
      if (isRequestProcessor(tool)) {
        this.processed = true;
        // Most tools register synchronously: only a promise is waited for (#24).
        const pending = tool.processRequest(this.processingContext(), request);
        if (pending) return Promise.resolve(pending).then(() => this.tools(i + 1));
      } else if (isStreamingTool(tool) || isRunnableTool(tool)) packTool(request, tool);
    }
    if (resolved.toolsets.some(isRequestProcessor)) return this.toolsets().then(() => this.sweep());
    this.sweep();
  }

  private async toolsets(): Promise<void> {
    for (const toolset of this.resolved.toolsets) {
      if (!isRequestProcessor(toolset)) continue;
      this.processed = true;
      try {
        await toolset.processRequest(this.processingContext(), this.request);
      } catch (error) {
        throw new Error(`process request by toolset "${toolset.name}": ${errorMessage(error)}`, { cause: error });
      }
    }
  }

  private sweep(): void {
    sweepDeclarations(this.request, this.problems, this.processed ? undefined : this.head);
  }

  /** The one context every processor of the step shares, made when the first one runs. */
  private processingContext(): FlowContext {
    return (this.processing ??= new FlowContext(this.context, { actions: this.actions }));
  }
}
