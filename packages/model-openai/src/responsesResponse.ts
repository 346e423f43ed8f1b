import type { LlmResponse, Part, ToolCallDelta } from '@adkit/flow';
import type OpenAI from 'openai';
import type { ResponseContext } from './chatResponse.js';
import { structuredText } from './chatResponse.js';
import { malformedCall, parseCallArguments } from './functionCallArgs.js';
import { responsesFinishReason, usageMetadata } from './genaiVocabulary.js';
import type { Reply } from './readReply.js';
import { withResponsesItem } from './responsesItem.js';
import { count, describeBody, emptyReply, incompleteStream } from './unusableReply.js';

type OutputItem = OpenAI.Responses.ResponseOutputItem;

/** The parts of one output item; a refusal or malformed call ends the mapping with an error. */
function itemParts(item: OutputItem, context: ResponseContext): Part[] | Pick<LlmResponse, 'errorCode' | 'errorMessage' | 'finishReason'> {
  if (item.type === 'reasoning') {
    const summary = item.summary.map((s) => s.text).join('\n\n');
    const text = summary || (item.content ?? []).map((c) => c.text).join('\n\n');
    return [
      withResponsesItem(
        { text, thought: true },
        {
          type: 'reasoning',
          id: item.id,
          summary: item.summary.map((s) => ({ type: 'summary_text' as const, text: s.text })),
          ...(item.encrypted_content ? { encrypted_content: item.encrypted_content } : {}),
        },
      ),
    ];
  }
  if (item.type === 'message') {
    const parts: Part[] = [];
    const phase = (item as { phase?: string | null }).phase;
    const kept = { type: 'message' as const, id: item.id, ...(phase ? { phase } : {}) };
    for (const content of item.content) {
      if (content.type === 'refusal') return { errorCode: 'REFUSAL', errorMessage: `The model refused: ${content.refusal}` };
      parts.push(withResponsesItem({ text: structuredText(content.text, context.format) }, kept));
    }
    return parts;
  }
  if (item.type === 'function_call') {
    if (item.status === 'incomplete' || item.status === 'in_progress') {
      return {
        errorCode: 'INCOMPLETE_FUNCTION_CALL',
        errorMessage: `The model's call to "${item.name}" was cut off (status "${item.status}") before its arguments were complete, so it was not run.`,
      };
    }
    const args = parseCallArguments(item.arguments, context.strictPlans.get(item.name));
    if (!args) return malformedCall(item.name, item.arguments);
    const part: Part = { functionCall: { id: item.call_id, name: item.name, args } };
    return [item.id ? withResponsesItem(part, { type: 'function_call', id: item.id }) : part];
  }
  return [];
}

/**
 * The complete response for a Responses API answer: reasoning items as thought parts (summary as
 * text, the item kept in `partMetadata` to send back), message text (item id and phase kept),
 * function calls with their `call_id` as id; status → finish reason; usage.
 */
export function responsesResult(response: OpenAI.Responses.Response, context: ResponseContext, model: string): LlmResponse {
  const result: LlmResponse = {};
  const finishReason = responsesFinishReason(response.status ?? undefined, response.incomplete_details?.reason ?? undefined);
  if (finishReason) result.finishReason = finishReason;
  const usage = usageMetadata(response.usage);
  if (usage) result.usageMetadata = usage;
  if (response.model) result.modelVersion = response.model;
  if (response.status === 'failed' || response.error) {
    return {
      ...result,
      errorCode: response.error?.code ?? 'MODEL_ERROR',
      errorMessage: `OpenAI response failed: ${response.error?.message ?? 'no reason given'}`,
    };
  }
  const parts: Part[] = [];
  for (const item of response.output ?? []) {
    const mapped = itemParts(item, context);
    if (!Array.isArray(mapped)) return { ...result, ...mapped };
    parts.push(...mapped);
  }
  if (parts.length > 0) result.content = { role: 'model', parts };
  else if (finishReason && finishReason !== 'STOP') {
    result.errorCode = finishReason;
    result.errorMessage = `OpenAI stopped (${response.incomplete_details?.reason ?? response.status}) and returned no content.`;
  } else {
    return { ...result, ...emptyReply(model, `the response has no output (status ${JSON.stringify(response.status ?? null)})`) };
  }
  return result;
}

/**
 * The complete response for a non-streamed reply, or `EMPTY_RESPONSE` saying what came instead of
 * a response object (`{}`, an HTML page from a proxy).
 */
export function responseReplyResult(reply: Reply<OpenAI.Responses.Response>, context: ResponseContext, model: string): LlmResponse {
  if (reply.unreadable !== undefined) return emptyReply(model, `the reply could not be read (${reply.contentType}: ${reply.unreadable})`);
  const response = reply.data as Partial<OpenAI.Responses.Response> | string | null | undefined;
  if (typeof response !== 'object' || response === null || !Array.isArray(response.output)) {
    return emptyReply(model, `the reply is not a Responses API response (${describeBody(response, reply.contentType)})`);
  }
  return responsesResult(response as OpenAI.Responses.Response, context, model);
}

/**
 * Follows a Responses API event stream: text and reasoning-summary deltas (returned for the partial
 * responses), finished output items by index, argument deltas per item, and the final response
 * (`response.completed`, `.incomplete` or `.failed`, for status and usage). Each item is taken as
 * its `output_item.done` event gave it, the final output filling in the rest.
 */
export class ResponsesStreamState {
  readonly #items = new Map<number, OutputItem>();
  readonly #arguments = new Map<string, string>();
  #final: OpenAI.Responses.Response | undefined;
  #error: { code?: string | null; message: string } | undefined;
  /** The function calls announced by `output_item.added`, by item id: what their deltas are told with. */
  readonly #calls = new Map<string, { index: number; callId: string; name: string }>();
  #callDelta: ToolCallDelta | undefined;
  /** How many events arrived. */
  events = 0;

  /** The call that the last event's argument delta grew, as it stands now (once). */
  takeCallDelta(): ToolCallDelta | undefined {
    const delta = this.#callDelta;
    this.#callDelta = undefined;
    return delta;
  }

  add(event: OpenAI.Responses.ResponseStreamEvent): Part[] {
    this.events++;
    switch (event.type) {
      case 'response.output_text.delta':
        return event.delta ? [{ text: event.delta }] : [];
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return event.delta ? [{ text: event.delta, thought: true }] : [];
      case 'response.output_item.added':
        if (event.item.type === 'function_call' && event.item.id)
          this.#calls.set(event.item.id, { index: event.output_index, callId: event.item.call_id, name: event.item.name });
        return [];
      case 'response.function_call_arguments.delta': {
        const soFar = (this.#arguments.get(event.item_id) ?? '') + event.delta;
        this.#arguments.set(event.item_id, soFar);
        const call = this.#calls.get(event.item_id);
        this.#callDelta = {
          index: call?.index ?? event.output_index,
          ...(call?.callId ? { functionCallId: call.callId } : {}),
          name: call?.name ?? '',
          argsTextSoFar: soFar,
        };
        return [];
      }
      case 'response.output_item.done': {
        const item = event.item;
        if (item.type === 'function_call' && !item.arguments && item.id) item.arguments = this.#arguments.get(item.id) ?? '';
        this.#items.set(event.output_index, item);
        return [];
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        this.#final = event.response;
        return [];
      case 'error':
        this.#error = { code: event.code, message: event.message };
        return [];
      default:
        return [];
    }
  }

  /**
   * The complete response once the stream has ended: the stream's `error` event; `EMPTY_RESPONSE`
   * when no event came; `INCOMPLETE_STREAM` when the final event (`response.completed`,
   * `.incomplete` or `.failed`) never came, even if some items were finished (more may have been
   * on the way); else the answer.
   */
  result(context: ResponseContext, model: string, contentType: string): LlmResponse {
    if (this.#error) {
      return { errorCode: this.#error.code ?? 'MODEL_ERROR', errorMessage: `OpenAI stream error: ${this.#error.message}` };
    }
    const final = this.#final;
    if (this.events === 0) return emptyReply(model, `the stream carried no events (${contentType})`);
    if (!final) return incompleteStream(model, `ended after ${count(this.events, 'event')} without response.completed`);
    // Items as each `output_item.done` gave them (what goes back in the next request), the final
    // output for any item the stream did not finish separately.
    const output = new Map<number, OutputItem>((final.output ?? []).map((item, index) => [index, item]));
    for (const [index, item] of this.#items) output.set(index, item);
    const items = [...output.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
    return responsesResult({ ...final, output: items }, context, model);
  }
}
