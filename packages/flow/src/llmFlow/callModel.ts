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
import type { FunctionCall } from '../content/content.js';
import type { LlmAgent } from '../agents/llmAgent.js';
import type { LlmRequest } from '../model/llmRequest.js';
import type { LlmResponse } from '../model/llmResponse.js';
import type { Model } from '../model/model.js';
import { pluginCallbacks } from '../runner/plugin.js';
import { modelCallOptions } from './modelCallOptions.js';

/**
 * Calls the model between the model callbacks, plugins first (FL-5, FL-13). Every function call
 * that comes out has an id (FL-7), whether the model or a callback made it; calls that must not
 * run (a reserved name, arguments nested too deep) get their reason in the call's `refusals`.
 */
export function callModel(
  agent: LlmAgent,
  context: InvocationContext,
  model: Model,
  request: LlmRequest,
  actions: EventActions,
): ModelResponses {
  return new ModelCall(agent, context, model, request, actions);
}

/** A model call's responses, and the calls in them that must not run. */
export interface ModelResponses extends AsyncIterableIterator<LlmResponse> {
  /** Call id → why it must not run; undefined while no call was refused (most steps, #24). */
  readonly refusals: ReadonlyMap<string, string> | undefined;
}

const DONE: IteratorResult<LlmResponse, undefined> = Object.freeze({ done: true, value: undefined });
const done = (): IteratorResult<LlmResponse, undefined> => DONE;

/**
 * `callModel`'s responses, one `next()` each. Written by hand, not as an async generator: a
 * generator layer cost every step about 2 KB and half a microsecond more (#24).
 */
class ModelCall implements ModelResponses {
  refusals: Map<string, string> | undefined = undefined;
  private state: 'new' | 'streaming' | 'done' = 'new';
  private stream?: AsyncIterator<LlmResponse>;
  // Built only for a callback: a run with none makes no context for them (#24).
  private built?: ModelCallbackArgs;

  constructor(
    private readonly agent: LlmAgent,
    private readonly context: InvocationContext,
    private readonly model: Model,
    private readonly request: LlmRequest,
    private readonly actions: EventActions,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<LlmResponse, undefined>> {
    if (this.state === 'done') return Promise.resolve(DONE);
    if (this.state === 'streaming') return this.read();
    this.state = 'streaming';
    // The before-model callbacks and the call limit run once, here and not in read(): the frame
    // of every later call stays small (#24). A failure here rejects, as an async next() would.
    try {
      const before = firstOfChains(pluginCallbacks(this.context.plugins, 'beforeModelCallback'), this.agent.beforeModelCallbacks, this.args);
      if (before) return this.afterBefore(before);
      return this.limited() ?? this.read();
    } catch (error) {
      this.state = 'done';
      return Promise.reject(error);
    }
  }

  private async afterBefore(before: Promise<LlmResponse | undefined>): Promise<IteratorResult<LlmResponse, undefined>> {
    const early = await before;
    if (early) return this.last(checkedCalls(early, this));
    return this.limited() ?? this.read();
  }

  /** The call limit's error, when this call would pass it (counted otherwise). */
  private limited(): Promise<IteratorResult<LlmResponse, undefined>> | undefined {
    const { context } = this;
    if (context.countLlmCall()) return undefined;
    return Promise.resolve(
      this.last({
        errorCode: 'LLM_CALLS_LIMIT_EXCEEDED',
        errorMessage: `The invocation reached its limit of ${context.runConfig.maxLlmCalls ?? 500} model calls; raise runConfig.maxLlmCalls if this is expected.`,
      }),
    );
  }

  /** The model's next response, past the after-model callbacks; a failure is the model's error. */
  private async read(): Promise<IteratorResult<LlmResponse, undefined>> {
    let received = false;
    try {
      this.stream ??= this.model.generateContent(this.request, modelCallOptions(this.context))[Symbol.asyncIterator]();
      const raw = await this.stream.next();
      if (raw.done) {
        this.state = 'done';
        return DONE;
      }
      received = true;
      if (this.context.aborted) return await this.close();
      const response = checkedCalls(raw.value, this);
      const after = firstOfChains(pluginCallbacks(this.context.plugins, 'afterModelCallback'), this.agent.afterModelCallbacks, () => ({ ...this.args(), response }));
      if (!after) return { done: false, value: response };
      const replaced = await after;
      return { done: false, value: replaced ? checkedCalls(replaced, this) : response };
    } catch (error) {
      return this.failed(error, received);
    }
  }

  private async failed(error: unknown, received: boolean): Promise<IteratorResult<LlmResponse, undefined>> {
    // A callback that failed on a response leaves the stream unfinished: it is closed, as a loop
    // over it would be; a stream that failed itself is over already.
    if (received) await this.close().catch(() => {});
    this.state = 'done';
    if (this.context.aborted) return DONE;
    const recovered = await firstResult(pluginCallbacks(this.context.plugins, 'onModelErrorCallback'), { ...this.args(), error });
    return { done: false, value: recovered ?? { errorCode: 'MODEL_ERROR', errorMessage: `Model "${this.model.model}" failed: ${errorMessage(error)}` } };
  }

  /** Leaving early (the flow stopped reading, the run was cancelled) closes the model's stream. */
  return(): Promise<IteratorResult<LlmResponse, undefined>> {
    return this.state === 'done' ? Promise.resolve(DONE) : this.close();
  }

  private readonly args = (): ModelCallbackArgs =>
    (this.built ??= { context: new FlowContext(this.context, { actions: this.actions }), request: this.request });

  /** `response`, after which nothing more comes. */
  private last(response: LlmResponse): IteratorResult<LlmResponse, undefined> {
    this.state = 'done';
    return { done: false, value: response };
  }

  /**
   * Closes the model's stream. Not async: each step whose calls run closes the stream before it
   * ends, and two async layers here were 3 promises of it (#24). A stream whose `return()`
   * throws rejects, as an async one would.
   */
  private close(): Promise<IteratorResult<LlmResponse, undefined>> {
    this.state = 'done';
    const stream = this.stream;
    this.stream = undefined;
    try {
      const closing = stream?.return?.();
      return closing === undefined ? Promise.resolve(DONE) : Promise.resolve(closing).then(done);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

/**
 * Gives every function call without an id a client id `adk-…` (FL-7). A call to the reserved
 * confirmation name is refused (only the flow asks for confirmation); arguments nested deeper than
 * `MAX_VALUE_DEPTH` are replaced by `{}` so the event can be stored, and the call is refused.
 */
function checkedCalls(response: LlmResponse, owner: { refusals: Map<string, string> | undefined }): LlmResponse {
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
        const refusal = response.partial ? undefined : refusalOf(call.name, tooDeep);
        if (refusal !== undefined) (owner.refusals ??= new Map()).set(id, refusal);
        if (id === call.id && !tooDeep) return part;
        // Written out, not spread from a conditional object: that spread took 3% of a turn (#24).
        const checked: FunctionCall = { ...call, id };
        if (tooDeep) checked.args = {};
        return { ...part, functionCall: checked };
      }),
    },
  };
}

/** Why a complete call must not run, or undefined when it may. */
function refusalOf(name: string, tooDeep: boolean): string | undefined {
  if (name === REQUEST_CONFIRMATION_FUNCTION)
    return `"${REQUEST_CONFIRMATION_FUNCTION}" is reserved for adkit's confirmation protocol: only the framework asks the user for approval. Call the tool you need directly; if it needs approval, it asks.`;
  if (name === REQUEST_CREDENTIAL_FUNCTION)
    return `"${REQUEST_CREDENTIAL_FUNCTION}" is reserved for adkit's credential protocol: only the framework asks the user for a credential. Call the tool you need directly; if it needs one, it asks.`;
  if (tooDeep)
    return `The arguments of "${quoted(name)}" nest deeper than ${MAX_VALUE_DEPTH} levels, which is not accepted; call it again with flatter arguments.`;
  return undefined;
}
