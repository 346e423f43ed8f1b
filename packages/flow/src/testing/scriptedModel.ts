import { cloneData } from '../content/cloneData.js';
import type { Content, FunctionCall, Part } from '../content/content.js';
import { AdkitError } from '../errors.js';
import type { LlmRequest } from '../model/llmRequest.js';
import type { LlmResponse } from '../model/llmResponse.js';
import type { GenerateContentOptions, Model } from '../model/model.js';

/**
 * One scripted model turn: a response; an array of chunks (streamed as partial responses, then
 * their aggregate); or a function of the request that returns either.
 */
export type ScriptStep =
  | LlmResponse
  | readonly LlmResponse[]
  | ((request: LlmRequest) => LlmResponse | readonly LlmResponse[] | Promise<LlmResponse | readonly LlmResponse[]>);

/** A request as the model received it, copied when it arrived. */
export type RecordedRequest = Omit<LlmRequest, 'tools'> & { readonly tools: Readonly<Record<string, unknown>> };

/**
 * A real `Model` that answers from a script, for tests and offline demos. It records every
 * request it gets (`requests`), and running past the last step throws a clear error.
 */
export class ScriptedModel implements Model {
  readonly model: string;
  readonly requests: RecordedRequest[] = [];
  private readonly steps: readonly ScriptStep[];
  private next = 0;

  constructor(steps: readonly ScriptStep[], options: { model?: string } = {}) {
    this.steps = steps;
    this.model = options.model ?? 'scripted-model';
  }

  /** How many steps have not been used yet. */
  get remaining(): number {
    return this.steps.length - this.next;
  }

  async *generateContent(request: LlmRequest, options: GenerateContentOptions): AsyncGenerator<LlmResponse> {
    this.requests.push(snapshot(request));
    if (this.next >= this.steps.length)
      throw new AdkitError(
        'SCRIPT_EXHAUSTED',
        `ScriptedModel "${this.model}" got request #${this.requests.length} but its script has only ${this.steps.length} step(s). Add a step, or check why the agent called the model again.`,
      );
    const step = this.steps[this.next++]!;
    const answer = typeof step === 'function' ? await step(request) : step;
    if (options.signal?.aborted) return;
    if (!Array.isArray(answer)) {
      yield cloneData(answer as LlmResponse);
      return;
    }
    const chunks = answer as readonly LlmResponse[];
    for (const chunk of chunks) {
      if (options.signal?.aborted) return;
      yield { ...cloneData(chunk), partial: true };
    }
    yield aggregate(chunks);
  }
}

function snapshot(request: LlmRequest): RecordedRequest {
  const copy = cloneData({ model: request.model, contents: request.contents, config: request.config });
  return { ...copy, tools: { ...request.tools } } as RecordedRequest;
}

/** Joins streamed chunks: adjacent text parts of the same kind merge; other parts keep their order. */
function aggregate(chunks: readonly LlmResponse[]): LlmResponse {
  const parts: Part[] = [];
  for (const chunk of chunks)
    for (const part of chunk.content?.parts ?? []) {
      const last = parts[parts.length - 1];
      const isText = part.text !== undefined && Object.keys(part).every((k) => k === 'text' || k === 'thought');
      const lastIsText =
        last !== undefined && last.text !== undefined && Object.keys(last).every((k) => k === 'text' || k === 'thought');
      if (isText && lastIsText && Boolean(last.thought) === Boolean(part.thought)) last.text += part.text!;
      else parts.push(cloneData(part));
    }
  const { content: _content, partial: _partial, ...rest } = chunks[chunks.length - 1] ?? {};
  return { ...cloneData(rest), content: { role: 'model', parts } };
}

/** A model response with one text part. */
export function textResponse(text: string, extra: Partial<LlmResponse> = {}): LlmResponse {
  return { content: { role: 'model', parts: [{ text }] }, ...extra };
}

/** A model response calling functions, in order; ids are optional (the flow adds `adk-` ids). */
export function functionCallResponse(
  calls: readonly { name: string; args?: Record<string, unknown>; id?: string }[],
  extra: Partial<LlmResponse> = {},
): LlmResponse {
  const content: Content = {
    role: 'model',
    parts: calls.map((call) => {
      const functionCall: FunctionCall = { name: call.name, args: call.args ?? {} };
      if (call.id !== undefined) functionCall.id = call.id;
      return { functionCall };
    }),
  };
  return { content, ...extra };
}
