import { errorMessage, isAdkitError, type GenerateContentConfig } from '@adkit/flow';
import type { Attributes } from '@opentelemetry/api';

/**
 * The attribute names the plugin writes: the OpenTelemetry GenAI semantic conventions, plus a
 * few of adkit's own (`adkit.*`) for what the conventions have no name for.
 */
export const ATTR = {
  operationName: 'gen_ai.operation.name',
  agentName: 'gen_ai.agent.name',
  agentDescription: 'gen_ai.agent.description',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  errorType: 'error.type',
  invocationId: 'adkit.invocation.id',
  outcome: 'adkit.outcome',
  pauseReason: 'adkit.pause.reason',
  resumed: 'adkit.resumed',
  confirmed: 'adkit.tool.confirmed',
  recovered: 'adkit.tool.recovered',
} as const;

/**
 * How a span's operation ended: `completed`; `paused` (a confirmation or a long-running call waits
 * for the client); `error`; `cancelled` (the caller's signal aborted); `stopped` (the consumer
 * left the `for await` early).
 */
export type SpanOutcome = 'completed' | 'paused' | 'error' | 'cancelled' | 'stopped';

/** Why a call or a run paused. */
export type PauseReason = 'confirmation' | 'long_running';

/**
 * A low-cardinality name for what was thrown: an adkit error's code, else the error's name. Never
 * throws, whatever was thrown (a revoked proxy, an object whose getters throw): `_OTHER` then.
 */
export function errorType(error: unknown): string {
  try {
    if (isAdkitError(error)) return error.code;
    if (error instanceof Error) return error.name || 'Error';
  } catch {
    // Not an error that can be looked at.
  }
  return '_OTHER';
}

/**
 * The message of anything thrown, as `errorMessage` gives it; never throws. A value that neither
 * `JSON.stringify` nor `String` can print (an object without a prototype holding a BigInt, a
 * `toString` that throws) is named by its tag (`[object Object]`), so its span still ends.
 */
export function thrownMessage(error: unknown): string {
  try {
    return errorMessage(error);
  } catch {
    try {
      return Object.prototype.toString.call(error);
    } catch {
      return '[a thrown value that cannot be printed]';
    }
  }
}

const REQUEST_NUMBERS: ReadonlyArray<readonly [keyof GenerateContentConfig, string]> = [
  ['temperature', 'gen_ai.request.temperature'],
  ['topP', 'gen_ai.request.top_p'],
  ['topK', 'gen_ai.request.top_k'],
  ['maxOutputTokens', 'gen_ai.request.max_tokens'],
  ['presencePenalty', 'gen_ai.request.presence_penalty'],
  ['frequencyPenalty', 'gen_ai.request.frequency_penalty'],
  ['seed', 'gen_ai.request.seed'],
];

/** The request's generation settings as `gen_ai.request.*` attributes (numbers only, as sent). */
export function requestAttributes(config: GenerateContentConfig | undefined, into: Attributes): void {
  if (!config || typeof config !== 'object') return;
  for (const [field, name] of REQUEST_NUMBERS) {
    const value = config[field];
    if (typeof value === 'number' && Number.isFinite(value)) into[name] = value;
  }
  if (typeof config.candidateCount === 'number' && config.candidateCount !== 1)
    into['gen_ai.request.choice.count'] = config.candidateCount;
  const stop = config.stopSequences;
  if (Array.isArray(stop) && stop.length > 0 && stop.length <= 16 && stop.every((s) => typeof s === 'string' && s.length <= 256))
    into['gen_ai.request.stop_sequences'] = stop;
}
