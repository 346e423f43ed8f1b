import type { LlmResponse, Part } from '@adkit/flow';
import type OpenAI from 'openai';
import { parseCallArguments, malformedCall } from './functionCallArgs.js';
import { chatFinishReason, usageMetadata } from './genaiVocabulary.js';
import type { ResponseFormat } from './requestSettings.js';
import { removeStrictNulls } from './strictSchema.js';
import type { StrictPlan } from './toolSpecs.js';

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

/** The complete response for a Chat Completions answer. */
export function chatResult(state: ChatMessageState, context: ResponseContext): LlmResponse {
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
  }
  return response;
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

  add(chunk: OpenAI.Chat.Completions.ChatCompletionChunk): Part[] {
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
    }
    return deltas;
  }
}
