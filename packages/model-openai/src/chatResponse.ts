import type { LlmResponse, Part, ToolCallDelta } from '@adkit/flow';
import type OpenAI from 'openai';
import { parseCallArguments, malformedCall } from './functionCallArgs.js';
import { chatFinishReason, usageMetadata } from './genaiVocabulary.js';
import type { Reply } from './readReply.js';
import type { ResponseFormat } from './requestSettings.js';
import { removeStrictNulls } from './strictSchema.js';
import type { StrictPlan } from './toolSpecs.js';
import { count, describeBody, emptyReply, incompleteStream } from './unusableReply.js';

/** What the response mapping needs from the request. */
export interface ResponseContext {
  strictPlans: Map<string, StrictPlan>;
  format: ResponseFormat | undefined;
}

/** A Chat Completions answer, from one completion or accumulated from a stream. */
export interface ChatMessageState {
  reasoning: string;
  text: string;
  refusal: string;
  calls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string | null | undefined;
  usage: OpenAI.CompletionUsage | null | undefined;
  model: string | undefined;
}

/** Reasoning text some OpenAI-compatible servers add (`reasoning_content`: DeepSeek, vLLM; `reasoning`: Ollama). */
export function reasoningOf(message: unknown): string | undefined {
  const m = message as { reasoning_content?: unknown; reasoning?: unknown } | null | undefined;
  if (typeof m?.reasoning_content === 'string') return m.reasoning_content;
  return typeof m?.reasoning === 'string' ? m.reasoning : undefined;
}

/** Structured output text with the nulls of originally optional keys removed (strict mode). */
export function structuredText(text: string, format: ResponseFormat | undefined): string {
  if (!format?.plan) return text;
  try {
    return JSON.stringify(removeStrictNulls(JSON.parse(text), format.plan.plan, format.plan.defs));
  } catch {
    return text;
  }
}

/**
 * The complete response for a Chat Completions answer; an answer with nothing in it (no text, no
 * reasoning, no tool call) is an `EMPTY_RESPONSE` error, never a silent turn.
 */
export function chatResult(state: ChatMessageState, context: ResponseContext, model: string): LlmResponse {
  const response: LlmResponse = {};
  const finishReason = chatFinishReason(state.finishReason);
  if (finishReason) response.finishReason = finishReason;
  const usage = usageMetadata(state.usage);
  if (usage) response.usageMetadata = usage;
  if (state.model) response.modelVersion = state.model;
  if (state.refusal) return { ...response, errorCode: 'REFUSAL', errorMessage: `The model refused: ${state.refusal}` };

  const parts: Part[] = [];
  if (state.reasoning) parts.push({ text: state.reasoning, thought: true });
  if (state.text) parts.push({ text: structuredText(state.text, context.format) });
  for (const call of state.calls.filter(Boolean)) {
    const args = parseCallArguments(call.arguments, context.strictPlans.get(call.name));
    if (!args) return { ...response, ...malformedCall(call.name, call.arguments) };
    parts.push({ functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args } });
  }
  if (parts.length > 0) response.content = { role: 'model', parts };
  else if (finishReason && finishReason !== 'STOP') {
    response.errorCode = finishReason;
    response.errorMessage = `OpenAI stopped with finish reason "${state.finishReason}" and returned no content.`;
  } else {
    return { ...response, ...emptyReply(model, `the answer has no content and no tool calls (finish reason ${JSON.stringify(state.finishReason ?? null)})`) };
  }
  return response;
}

/**
 * The complete response for a non-streamed reply: its first choice, or `EMPTY_RESPONSE` saying
 * what came instead (`{}`, `choices: []`, an HTML page from a proxy).
 */
export function completionResult(reply: Reply<OpenAI.Chat.Completions.ChatCompletion>, context: ResponseContext, model: string): LlmResponse {
  if (reply.unreadable !== undefined) return emptyReply(model, `the reply could not be read (${reply.contentType}: ${reply.unreadable})`);
  const completion = reply.data as Partial<OpenAI.Chat.Completions.ChatCompletion> | string | null | undefined;
  if (typeof completion !== 'object' || completion === null || !Array.isArray(completion.choices)) {
    return emptyReply(model, `the reply is not a chat completion (${describeBody(completion, reply.contentType)})`);
  }
  if (completion.choices.length === 0) return emptyReply(model, `the reply has no choices (${describeBody(completion, reply.contentType)})`);
  return chatResult(completionState(completion as OpenAI.Chat.Completions.ChatCompletion), context, model);
}

/** The state of a non-streamed completion. */
export function completionState(completion: OpenAI.Chat.Completions.ChatCompletion): ChatMessageState {
  const choice = completion.choices?.[0];
  const message = choice?.message;
  const calls = (message?.tool_calls ?? []).flatMap((call) =>
    call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
  );
  const legacy = (message as { function_call?: { name: string; arguments: string } } | undefined)?.function_call;
  if (legacy) calls.push({ id: '', name: legacy.name, arguments: legacy.arguments });
  return {
    reasoning: reasoningOf(message) ?? '',
    text: message?.content ?? '',
    refusal: message?.refusal ?? '',
    calls,
    finishReason: choice?.finish_reason,
    usage: completion.usage,
    model: completion.model,
  };
}

/**
 * Accumulates a Chat Completions stream: text and reasoning deltas (returned for the partial
 * responses), tool-call deltas joined per index (id and name from the first, argument fragments
 * appended), the finish reason and the usage-only last chunk.
 */
export class ChatStreamState {
  readonly state: ChatMessageState = { reasoning: '', text: '', refusal: '', calls: [], finishReason: undefined, usage: undefined, model: undefined };
  /** How many chunks arrived. */
  events = 0;
  /** The calls that grew since the last `takeCallDeltas()`, for the partial responses. */
  #callDeltas: ToolCallDelta[] = [];

  /** Each call that grew in the chunks added since the last time, as it stands now. */
  takeCallDeltas(): ToolCallDelta[] {
    const deltas = this.#callDeltas;
    if (deltas.length > 0) this.#callDeltas = [];
    return deltas;
  }

  add(chunk: OpenAI.Chat.Completions.ChatCompletionChunk): Part[] {
    this.events++;
    const state = this.state;
    if (chunk.model) state.model = chunk.model;
    if (chunk.usage) state.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) return [];
    if (choice.finish_reason) state.finishReason = choice.finish_reason;
    const delta = choice.delta ?? {};
    const deltas: Part[] = [];
    const reasoning = reasoningOf(delta);
    if (reasoning) {
      state.reasoning += reasoning;
      deltas.push({ text: reasoning, thought: true });
    }
    if (delta.content) {
      state.text += delta.content;
      deltas.push({ text: delta.content });
    }
    if (delta.refusal) state.refusal += delta.refusal;
    for (const call of delta.tool_calls ?? []) {
      const slot = (state.calls[call.index] ??= { id: '', name: '', arguments: '' });
      if (call.id) slot.id = call.id;
      if (call.function?.name && !slot.name) slot.name = call.function.name;
      if (call.function?.arguments) slot.arguments += call.function.arguments;
      this.#callDeltas.push({ index: call.index, ...(slot.id ? { functionCallId: slot.id } : {}), name: slot.name, argsTextSoFar: slot.arguments });
    }
    return deltas;
  }

  /**
   * The complete response once the stream has ended: `EMPTY_RESPONSE` when no chunk came,
   * `INCOMPLETE_STREAM` when none carried a finish reason (the stream stopped mid-answer, so tool
   * calls may hold partial arguments), else the answer.
   */
  result(context: ResponseContext, model: string, contentType: string): LlmResponse {
    if (this.events === 0) return emptyReply(model, `the stream carried no events (${contentType})`);
    if (!this.state.finishReason) return incompleteStream(model, `ended after ${count(this.events, 'event')} without a finish reason`);
    return chatResult(this.state, context, model);
  }
}
