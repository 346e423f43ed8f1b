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
import { packTool } from '../tools/packTool.js';
import { declareHead, plainHead, registerHead } from '../tools/packPlan.js';
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

  const readonly = new FlowContext(context);
  const instructions: string[] = [];
  if (typeof agent.instruction === 'function') instructions.push(await agent.instruction(readonly));
  else if (agent.instruction)
    instructions.push(
      await injectSessionState(agent.instruction, readonly.state, (name) => readonly.loadArtifact(name)),
    );
  instructions.push(
    `You are an agent. Your internal name is "${agent.name}".` +
      (agent.description ? ` The description about you is "${agent.description}".` : ''),
  );
  appendInstructions(request, instructions);

  request.contents = buildContents(context.session.events, agent.name, context.branch);

  // The tools that only pack themselves go in first, all at once (#24); their declarations still
  // follow the flow's own, and the rest are processed one by one, in order.
  const head = plainHead(agent, resolved.tools);
  registerHead(request, head);

  if (agent.compiledOutputSchema && hasTools) {
    packTool(request, agent.compiledOutputSchema.tool);
    appendInstructions(request, [SET_MODEL_RESPONSE_INSTRUCTION]);
  }

  if (transfer) {
    appendInstructions(request, [transfer.instructions]);
    packTool(request, transfer.tool);
  }

  declareHead(request, head);
  const processing = new FlowContext(context, { actions });
  for (let i = head.tools.length; i < resolved.tools.length; i++) {
    const tool = resolved.tools[i]!;
    const refused = toolRefusal(tool);
    if (refused) {
      problems.push(refused);
      continue;
    }
    if (isRequestProcessor(tool)) {
      // Most tools register synchronously: only a promise is waited for (#24).
      const pending = tool.processRequest(processing, request);
      if (pending) await pending;
    }
    else if (isStreamingTool(tool) || isRunnableTool(tool)) packTool(request, tool);
  }
  for (const toolset of resolved.toolsets) {
    if (!isRequestProcessor(toolset)) continue;
    try {
      await toolset.processRequest(processing, request);
    } catch (error) {
      throw new Error(`process request by toolset "${toolset.name}": ${errorMessage(error)}`, { cause: error });
    }
  }
  sweepDeclarations(request, problems);
}
