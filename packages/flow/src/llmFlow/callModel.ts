import { firstResult } from '../runner/callbacks.js';
import type { EventActions } from '../content/eventActions.js';
import { errorMessage } from '../errors.js';
import { FlowContext } from '../context/flowContext.js';
import { newFunctionCallId } from '../content/ids.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { LlmRequest } from '../model/llmRequest.js';
import type { LlmResponse } from '../model/llmResponse.js';
import type { Model } from '../model/model.js';
import { pluginCallbacks } from '../runner/plugin.js';

/** Calls the model between the model callbacks, plugins first (FL-5, FL-13). */
export async function* callModel(
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
