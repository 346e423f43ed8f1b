import { firstOfChains, firstResult, type ModelCallbackArgs } from '../runner/callbacks.js';
import type { EventActions } from '../content/eventActions.js';
import { errorMessage } from '../errors.js';
import { FlowContext } from '../context/flowContext.js';
import { newFunctionCallId } from '../content/ids.js';
import { exceedsDepth, MAX_VALUE_DEPTH } from '../content/valueDepth.js';
import { REQUEST_CONFIRMATION_FUNCTION } from './buildContents.js';
import { quoted } from './quoted.js';
import { REQUEST_CREDENTIAL_FUNCTION } from '../auth/authTypes.js';
import type { InvocationContext } from '../context/invocationContext.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { LlmRequest } from '../model/llmRequest.js';
import type { LlmResponse } from '../model/llmResponse.js';
import type { Model } from '../model/model.js';
import { pluginCallbacks } from '../runner/plugin.js';
import { modelCallOptions } from './modelCallOptions.js';

/**
 * Calls the model between the model callbacks, plugins first (FL-5, FL-13). Every function call
 * that comes out has an id (FL-7), whether the model or a callback made it; calls that must not
 * run (a reserved name, arguments nested too deep) get their reason in `refusals`.
 */
export async function* callModel(
  agent: LlmAgent,
  context: InvocationContext,
  model: Model,
  request: LlmRequest,
  actions: EventActions,
  refusals: Map<string, string>,
): AsyncGenerator<LlmResponse, void, undefined> {
  // Built only for a callback: a run with none makes no context for them (#24).
  let built: ModelCallbackArgs | undefined;
  const args = () => (built ??= { context: new FlowContext(context, { actions }), request });
  const plugins = context.plugins;

  const before = firstOfChains(pluginCallbacks(plugins, 'beforeModelCallback'), agent.beforeModelCallbacks, args);
  const early = before && (await before);
  if (early) {
    yield checkedCalls(early, refusals);
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
    const stream = model.generateContent(request, modelCallOptions(context));
    for await (const raw of stream) {
      if (context.aborted) return;
      const response = checkedCalls(raw, refusals);
      const after = firstOfChains(afterPlugins, agent.afterModelCallbacks, () => ({ ...args(), response }));
      const replaced = after && (await after);
      yield replaced ? checkedCalls(replaced, refusals) : response;
    }
  } catch (error) {
    if (context.aborted) return;
    const recovered = await firstResult(pluginCallbacks(plugins, 'onModelErrorCallback'), { ...args(), error });
    yield recovered ?? { errorCode: 'MODEL_ERROR', errorMessage: `Model "${model.model}" failed: ${errorMessage(error)}` };
  }
}

/**
 * Gives every function call without an id a client id `adk-…` (FL-7). A call to the reserved
 * confirmation name is refused (only the flow asks for confirmation); arguments nested deeper than
 * `MAX_VALUE_DEPTH` are replaced by `{}` so the event can be stored, and the call is refused.
 */
function checkedCalls(response: LlmResponse, refusals: Map<string, string>): LlmResponse {
  const parts = response.content?.parts;
  if (!parts?.some((part) => part.functionCall)) return response;
  return {
    ...response,
    content: {
      ...response.content,
      parts: parts.map((part) => {
        const call = part.functionCall;
        if (!call) return part;
        const id = call.id || newFunctionCallId();
        const tooDeep = exceedsDepth(call.args);
        if (!response.partial) {
          if (call.name === REQUEST_CONFIRMATION_FUNCTION)
            refusals.set(
              id,
              `"${REQUEST_CONFIRMATION_FUNCTION}" is reserved for adkit's confirmation protocol: only the framework asks the user for approval. Call the tool you need directly; if it needs approval, it asks.`,
            );
          else if (call.name === REQUEST_CREDENTIAL_FUNCTION)
            refusals.set(
              id,
              `"${REQUEST_CREDENTIAL_FUNCTION}" is reserved for adkit's credential protocol: only the framework asks the user for a credential. Call the tool you need directly; if it needs one, it asks.`,
            );
          else if (tooDeep)
            refusals.set(
              id,
              `The arguments of "${quoted(call.name)}" nest deeper than ${MAX_VALUE_DEPTH} levels, which is not accepted; call it again with flatter arguments.`,
            );
        }
        if (id === call.id && !tooDeep) return part;
        return { ...part, functionCall: { ...call, id, ...(tooDeep ? { args: {} } : {}) } };
      }),
    },
  };
}
