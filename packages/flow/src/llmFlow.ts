import { cloneData } from './cloneData.js';
import { Compile } from 'typebox/compile';
import { buildContents } from './buildContents.js';
import { firstResult, type ToolResult } from './callbacks.js';
import type { ToolCallbacks } from './callTool.js';
import { confirmationEvent } from './confirmationEvent.js';
import type { Content, Part } from './content.js';
import { errorMessage } from './errors.js';
import { createEvent, getFunctionCalls, getFunctionResponses, isFinalResponse, type Event } from './event.js';
import { createEventActions, type EventActions } from './eventActions.js';
import { executeFunctionCalls } from './executeFunctionCalls.js';
import { FlowContext } from './flowContext.js';
import { newFunctionCallId, newId } from './ids.js';
import { injectSessionState } from './instructionTemplate.js';
import type { InvocationContext } from './invocationContext.js';
import type { LlmAgent } from './llmAgent.js';
import { appendInstructions, createLlmRequest, type LlmRequest } from './llmRequest.js';
import type { LlmResponse } from './llmResponse.js';
import type { Model } from './model.js';
import { packTool } from './packTool.js';
import { pluginCallbacks, type Plugin } from './plugin.js';
import { ToolResolver, type ResolvedTools } from './resolveTools.js';
import { resumeConfirmedCalls } from './resumeConfirmedCalls.js';
import { SET_MODEL_RESPONSE, SET_MODEL_RESPONSE_INSTRUCTION, setModelResponseTool } from './setModelResponseTool.js';
import { isRequestProcessor, isRunnableTool, isStreamingTool } from './tool.js';

/**
 * Runs an LLM agent: steps (one model call plus its tools) repeat until the last event is a
 * final response (FL-6). Failures become error events; a cancelled run just stops.
 */
export async function* runLlmFlow(agent: LlmAgent, context: InvocationContext): AsyncGenerator<Event, void, undefined> {
  const resolver = new ToolResolver(agent);
  const callbacks = toolCallbacks(agent, context.plugins);
  const outputCheck = agent.outputSchema ? Compile(agent.outputSchema) : undefined;
  while (true) {
    let last: Event | undefined;
    let lastWasPartial = false;
    let final = false;
    for await (const event of runStep(agent, context, resolver, callbacks, outputCheck)) {
      if (context.signal.aborted) return;
      yield event;
      lastWasPartial = event.partial === true;
      if (event.partial) continue;
      // An event that only carries actions (state of a tool that answers later) does not decide.
      final = isActionsOnly(event) ? final || event.actions.skipSummarization === true : isFinalResponse(event);
      last = event;
    }
    if (context.signal.aborted || context.endInvocation || !last || lastWasPartial) return;
    if (final && !isThoughtOnly(last)) return;
  }
}

function isActionsOnly(event: Event): boolean {
  return !event.content && !event.errorCode;
}

function isThoughtOnly(event: Event): boolean {
  const parts = event.content?.parts ?? [];
  return parts.length > 0 && parts.every((part) => part.thought === true);
}

function toolCallbacks(agent: LlmAgent, plugins: readonly Plugin[]): ToolCallbacks {
  return {
    before: { plugins: pluginCallbacks(plugins, 'beforeToolCallback'), agent: agent.beforeToolCallbacks },
    after: { plugins: pluginCallbacks(plugins, 'afterToolCallback'), agent: agent.afterToolCallbacks },
    onError: { plugins: pluginCallbacks(plugins, 'onToolErrorCallback'), agent: agent.onToolErrorCallbacks },
  };
}

function errorEvent(context: InvocationContext, code: string, message: string): Event {
  return createEvent({
    invocationId: context.invocationId,
    author: context.agentName,
    branch: context.branch,
    errorCode: code,
    errorMessage: message,
  });
}

async function* runStep(
  agent: LlmAgent,
  context: InvocationContext,
  resolver: ToolResolver,
  callbacks: ToolCallbacks,
  outputCheck: ReturnType<typeof Compile> | undefined,
): AsyncGenerator<Event, void, undefined> {
  const model = agent.canonicalModel;
  if (!model) {
    yield errorEvent(context, 'NO_MODEL', `Agent "${agent.name}" has no model; pass \`model\` to it or to an ancestor LlmAgent.`);
    return;
  }
  const request = createLlmRequest({ model: model.model });
  try {
    const resolved = await resolver.resolve(new FlowContext(context));
    yield* resumeConfirmedCalls(context, resolved.tools, callbacks, agent);
    if (context.signal.aborted || context.endInvocation) return;
    await buildRequest(agent, context, request, resolved);
  } catch (error) {
    if (!context.signal.aborted) yield errorEvent(context, 'REQUEST_ERROR', errorMessage(error));
    return;
  }
  if (context.signal.aborted) return;

  let actions = createEventActions();
  let eventId = newId();
  try {
    for await (const response of callModel(agent, context, model, request, actions)) {
      if (!response.content && !response.errorCode && !response.interrupted) continue;
      const event = modelEvent(context, request, response, eventId, response.partial ? undefined : actions);
      if (!response.partial) {
        actions = createEventActions();
        eventId = newId();
        if (agent.outputKey) saveOutput(agent, event, outputCheck);
      }
      yield event;
      if (response.partial || getFunctionCalls(event).length === 0) continue;

      let responses: Event | undefined;
      for await (const produced of executeFunctionCalls({
        invocation: context,
        calls: getFunctionCalls(event),
        tools: request.tools,
        callbacks,
        maxConcurrency: agent.maxToolConcurrency,
        toolTimeoutMs: agent.toolTimeoutMs,
      })) {
        if (!produced.partial) responses = produced;
        yield produced;
      }
      if (!responses || context.signal.aborted) return;
      const confirmation = confirmationEvent(context, event, responses);
      if (confirmation) yield confirmation;
      const structured = structuredAnswer(context, agent, responses, outputCheck);
      if (structured) yield structured;
      if (responses.actions.transferToAgent) yield* transfer(agent, context, responses.actions.transferToAgent);
      return;
    }
  } catch (error) {
    if (!context.signal.aborted) yield errorEvent(context, 'FLOW_ERROR', errorMessage(error));
  }
}

/** Request processors in ADK's order (FL-1), then per-tool (FL-3) and per-toolset (FL-4) processing. */
async function buildRequest(agent: LlmAgent, context: InvocationContext, request: LlmRequest, resolved: ResolvedTools) {
  if (agent.generateContentConfig) Object.assign(request.config, cloneData(agent.generateContentConfig));
  const hasTools = resolved.tools.length > 0;
  if (agent.outputSchema && !hasTools) {
    request.config.responseMimeType = 'application/json';
    request.config.responseJsonSchema = agent.outputSchema as Record<string, unknown>;
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

  if (agent.outputSchema && hasTools) {
    packTool(request, setModelResponseTool(agent.outputSchema));
    appendInstructions(request, [SET_MODEL_RESPONSE_INSTRUCTION]);
  }

  for (const tool of resolved.tools) {
    // A throwaway context: actions written while shaping the request are discarded (FL-3).
    const scratch = new FlowContext(context, { functionCallId: newId() });
    if (isRequestProcessor(tool)) await tool.processRequest(scratch, request);
    else if (isStreamingTool(tool) || isRunnableTool(tool)) packTool(request, tool);
  }
  for (const toolset of resolved.toolsets) {
    if (!isRequestProcessor(toolset)) continue;
    try {
      await toolset.processRequest(new FlowContext(context, { functionCallId: newId() }), request);
    } catch (error) {
      throw new Error(`process request by toolset "${toolset.name}": ${errorMessage(error)}`, { cause: error });
    }
  }
}

/** Calls the model between the model callbacks, plugins first (FL-5, FL-13). */
async function* callModel(
  agent: LlmAgent,
  context: InvocationContext,
  model: Model,
  request: LlmRequest,
  actions: EventActions,
): AsyncGenerator<LlmResponse, void, undefined> {
  const args = { context: new FlowContext(context, { actions }), request };
  const plugins = context.plugins;

  const early =
    (await firstResult(pluginCallbacks(plugins, 'beforeModelCallback'), args)) ??
    (await firstResult(agent.beforeModelCallbacks, args));
  if (early) {
    yield early;
    return;
  }
  if (!context.countLlmCall()) {
    yield {
      errorCode: 'LLM_CALLS_LIMIT_EXCEEDED',
      errorMessage: `The invocation reached its limit of ${context.runConfig.maxLlmCalls ?? 500} model calls; raise runConfig.maxLlmCalls if this is expected.`,
    };
    return;
  }
  const afterPlugins = pluginCallbacks(plugins, 'afterModelCallback');
  try {
    const stream = model.generateContent(request, { stream: context.runConfig.streamingMode === 'sse', signal: context.signal });
    for await (const raw of stream) {
      if (context.signal.aborted) return;
      const response = withClientIds(raw);
      const after = { ...args, response };
      yield (await firstResult(afterPlugins, after)) ?? (await firstResult(agent.afterModelCallbacks, after)) ?? response;
    }
  } catch (error) {
    if (context.signal.aborted) return;
    const recovered = await firstResult(pluginCallbacks(plugins, 'onModelErrorCallback'), { ...args, error });
    yield recovered ?? { errorCode: 'MODEL_ERROR', errorMessage: `Model "${model.model}" failed: ${errorMessage(error)}` };
  }
}

/** Gives every function call without an id a client id `adk-…` (FL-7). */
function withClientIds(response: LlmResponse): LlmResponse {
  const parts = response.content?.parts;
  if (!parts?.some((part) => part.functionCall && !part.functionCall.id)) return response;
  return {
    ...response,
    content: {
      ...response.content,
      parts: parts.map((part) =>
        part.functionCall && !part.functionCall.id
          ? { ...part, functionCall: { ...part.functionCall, id: newFunctionCallId() } }
          : part,
      ),
    },
  };
}

/** The event for one model response (FL-8). */
function modelEvent(
  context: InvocationContext,
  request: LlmRequest,
  response: LlmResponse,
  id: string,
  actions: EventActions | undefined,
): Event {
  const event = createEvent({ id, invocationId: context.invocationId, author: context.agentName, actions });
  if (context.branch !== undefined) event.branch = context.branch;
  for (const key of [
    'content',
    'partial',
    'turnComplete',
    'finishReason',
    'errorCode',
    'errorMessage',
    'usageMetadata',
    'groundingMetadata',
    'modelVersion',
    'customMetadata',
  ] as const)
    if (response[key] !== undefined) (event as unknown as Record<string, unknown>)[key] = response[key];
  if (!response.partial) {
    const longRunning: string[] = [];
    for (const call of getFunctionCalls(event)) {
      const tool = call.id && Object.hasOwn(request.tools, call.name) ? request.tools[call.name] : undefined;
      if (tool?.isLongRunning) longRunning.push(call.id!);
    }
    if (longRunning.length > 0) event.longRunningToolIds = longRunning;
  }
  return event;
}

/** Saves a final answer to the agent's `outputKey` (parsed and checked with `outputSchema`). */
function saveOutput(agent: LlmAgent, event: Event, outputCheck: ReturnType<typeof Compile> | undefined): void {
  if (!isFinalResponse(event) || event.errorCode || getFunctionResponses(event).length > 0) return;
  const text = (event.content?.parts ?? [])
    .filter((part: Part) => part.text !== undefined && !part.thought)
    .map((part) => part.text)
    .join('');
  if (!text) return;
  if (!outputCheck) {
    event.actions.stateDelta[agent.outputKey!] = text;
    return;
  }
  const parsed = parseStructured(text, outputCheck);
  if ('value' in parsed) event.actions.stateDelta[agent.outputKey!] = parsed.value;
  else {
    event.errorCode = 'INVALID_OUTPUT';
    event.errorMessage = `Agent "${agent.name}" answered with output that does not match its outputSchema: ${parsed.problem}`;
  }
}

function parseStructured(text: string, check: ReturnType<typeof Compile>): { value: unknown } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'the answer is not JSON' };
  }
  if (check.Check(value)) return { value };
  return {
    problem: [...check.Errors(value)]
      .slice(0, 8)
      .map((e) => `${e.instancePath || '/'}: ${e.message}`)
      .join('; '),
  };
}

/** The final answer given through `set_model_response`, as a model text event (FL-5). */
function structuredAnswer(
  context: InvocationContext,
  agent: LlmAgent,
  responses: Event,
  outputCheck: ReturnType<typeof Compile> | undefined,
): Event | undefined {
  const answer = getFunctionResponses(responses).find(
    (r) => r.name === SET_MODEL_RESPONSE && r.response && !Object.hasOwn(r.response, 'error'),
  );
  if (!answer) return undefined;
  const content: Content = { role: 'model', parts: [{ text: JSON.stringify(answer.response as ToolResult) }] };
  const event = createEvent({ invocationId: context.invocationId, author: agent.name, branch: context.branch, content });
  if (agent.outputKey) saveOutput(agent, event, outputCheck);
  return event;
}

async function* transfer(agent: LlmAgent, context: InvocationContext, name: string): AsyncGenerator<Event, void, undefined> {
  const target = agent.rootAgent.findAgent(name);
  if (!target) {
    yield errorEvent(context, 'TRANSFER_ERROR', `failed to find agent: ${name}`);
    return;
  }
  yield* target.runAsync(context);
}
