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
import { packHead } from '../tools/packPlan.js';
import type { ResolvedTools } from './resolveTools.js';
import { SET_MODEL_RESPONSE_INSTRUCTION } from './setModelResponseTool.js';
import type { StepProblem } from './stepProblem.js';
import { sweepDeclarations, toolRefusal } from './declarationGuard.js';
import { isRequestProcessor, isRunnableTool, isStreamingTool } from '../tools/tool.js';

/**
 * Request processors in ADK's order (FL-1), then per-tool (FL-3) and per-toolset (FL-4) processing.
 * Processors write into `actions`, which the step's model event carries, so their state is saved.
 * A tool whose declaration cannot be sent is left out, with a problem in `problems`, before any
 * callback or adapter sees the request.
 */
export async function buildRequest(
  agent: LlmAgent,
  context: InvocationContext,
  request: LlmRequest,
  resolved: ResolvedTools,
  transfer: TransferSetup | undefined,
  actions: EventActions,
  problems: StepProblem[],
) {
  if (agent.generateContentConfig) Object.assign(request.config, cloneData(agent.generateContentConfig));
  const hasTools = resolved.tools.length > 0;
  if (agent.compiledOutputSchema && !hasTools) {
    request.config.responseMimeType = 'application/json';
    request.config.responseJsonSchema = agent.compiledOutputSchema.check.jsonSchema;
  }

  // The contexts below are made only for what reads them: most steps have neither an instruction
  // provider nor a request processor (#24).
  const instructions: string[] = [];
  if (typeof agent.instruction === 'function') instructions.push(await agent.instruction(new FlowContext(context)));
  else if (agent.instruction) {
    const readonly = new FlowContext(context);
    instructions.push(await injectSessionState(agent.instruction, readonly.state, (name) => readonly.loadArtifact(name)));
  }
  instructions.push(
    `You are an agent. Your internal name is "${agent.name}".` +
      (agent.description ? ` The description about you is "${agent.description}".` : ''),
  );
  appendInstructions(request, instructions);

  request.contents = buildContents(context.session.events, agent.name, context.branch);

  // The flow's own tools are declared first; then the tools that only pack themselves, all at once
  // (#24), before anything registers, so that the step's table can start as a copy; the rest are
  // processed one by one, in order.
  const structured = agent.compiledOutputSchema && hasTools ? agent.compiledOutputSchema.tool : undefined;
  if (structured) {
    declareTool(request, structured);
    appendInstructions(request, [SET_MODEL_RESPONSE_INSTRUCTION]);
  }
  if (transfer) {
    appendInstructions(request, [transfer.instructions]);
    declareTool(request, transfer.tool);
  }
  const head = packHead(agent, request, resolved.tools);
  if (structured) registerTool(request, structured);
  if (transfer) registerTool(request, transfer.tool);

  let processing: FlowContext | undefined;
  // Whether a processor ran after the head: one may have moved or replaced the head's declarations.
  let processed = false;
  for (let i = head.count; i < resolved.tools.length; i++) {
    const tool = resolved.tools[i]!;
    const refused = toolRefusal(tool);
    if (refused) {
      problems.push(refused);
      continue;
    }
    if (isRequestProcessor(tool)) {
      processed = true;
      // Most tools register synchronously: only a promise is waited for (#24).
      const pending = tool.processRequest((processing ??= new FlowContext(context, { actions })), request);
      if (pending) await pending;
    }
    else if (isStreamingTool(tool) || isRunnableTool(tool)) packTool(request, tool);
  }
  for (const toolset of resolved.toolsets) {
    if (!isRequestProcessor(toolset)) continue;
    processed = true;
    try {
      await toolset.processRequest((processing ??= new FlowContext(context, { actions })), request);
    } catch (error) {
      throw new Error(`process request by toolset "${toolset.name}": ${errorMessage(error)}`, { cause: error });
    }
  }
  sweepDeclarations(request, problems, processed ? undefined : head);
}
