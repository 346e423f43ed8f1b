import type { FunctionCall, FunctionResponse, LlmResponse, Part, ToolCallDelta } from '@adkit/flow';
import type { GenerateContentResponse, Part as GenaiPart } from '@google/genai';
import { PartialArgsBuilder } from './partialArgs.js';
import { count, describeReply, emptyReply, incompleteStream } from './unusableReply.js';

/**
 * A function call Gemini already ran on its side (a server-side MCP tool), with its response: both
 * came back inside the same model turn.
 */
export interface ServerToolCall {
  functionCall: FunctionCall;
  functionResponse: FunctionResponse;
}

interface PendingCall {
  /** Its position among the turn's function calls. */
  index: number;
  /** The arguments' JSON the last delta showed: a chunk that changed nothing shows nothing. */
  shown?: string;
  name: string;
  id?: string;
  thoughtSignature?: string;
  builder: PartialArgsBuilder;
}

/**
 * Folds Gemini responses (one, or the chunks of a stream) into adkit `LlmResponse`s: text and
 * thought deltas for the partial responses, then one aggregate with text joined per kind, every
 * other part kept in order, Vertex partial function-call arguments assembled, the last non-empty
 * grounding metadata, usage, finish reason and model version. Calls Gemini already ran (a call and
 * its response in the same turn) move out of the content into `customMetadata.serverToolCalls`, so
 * the flow neither runs them again nor waits for their answer.
 *
 * A reply that is not a whole answer becomes an error response: `INCOMPLETE_STREAM` for a stream
 * whose last candidate carried no finish reason, or that ended while a call's arguments were still
 * streaming (`willContinue`); `EMPTY_RESPONSE` for a reply or stream without any candidate, or an
 * answer with nothing in it.
 */
export class ResponseAggregator {
  readonly #model: string;
  readonly #stream: boolean;
  readonly #parts: Part[] = [];
  #chunks = 0;
  #candidates = 0;
  #finished = false;
  #lastReply: GenerateContentResponse | undefined;
  #pending: PendingCall | undefined;
  #finishReason: string | undefined;
  #finishMessage: string | undefined;
  #blockReason: string | undefined;
  #blockMessage: string | undefined;
  #grounding: Record<string, unknown> | undefined;
  #usage: LlmResponse['usageMetadata'];
  #modelVersion: string | undefined;
  // The streamed calls that grew since the last takeCallDeltas(), shown as they stand then.
  readonly #grown = new Set<PendingCall>();

  /** For `model`, whose reply comes as a stream (`stream`) or in one response. */
  constructor(model: string, stream: boolean) {
    this.#model = model;
    this.#stream = stream;
  }

  /** Adds one response or chunk; returns the text and thought deltas it carried. */
  add(response: GenerateContentResponse): Part[] {
    this.#chunks++;
    this.#lastReply = response;
    if (response.usageMetadata) this.#usage = response.usageMetadata as LlmResponse['usageMetadata'];
    if (response.modelVersion) this.#modelVersion = response.modelVersion;
    if (response.promptFeedback?.blockReason) {
      this.#blockReason = String(response.promptFeedback.blockReason);
      this.#blockMessage = response.promptFeedback.blockReasonMessage;
    }
    const candidate = response.candidates?.[0];
    if (!candidate) return [];
    this.#candidates++;
    // A stream is whole when its last candidate carries the finish reason (an earlier one may too:
    // a server-side tool call is finished before the answer that follows it).
    this.#finished = Boolean(candidate.finishReason);
    if (candidate.finishReason) this.#finishReason = String(candidate.finishReason);
    if (candidate.finishMessage) this.#finishMessage = candidate.finishMessage;
    const grounding = candidate.groundingMetadata as Record<string, unknown> | undefined;
    if (grounding && Object.keys(grounding).length > 0) this.#grounding = grounding;

    const deltas: Part[] = [];
    for (const part of candidate.content?.parts ?? []) {
      if (part.functionCall) this.#addFunctionCall(part);
      else if (part.text !== undefined) {
        const delta = this.#addText(part);
        if (delta) deltas.push(delta);
      } else {
        this.#finishPending();
        this.#parts.push(structuredClone(part) as Part);
      }
    }
    return deltas;
  }

  /** Each streamed call that grew in the chunks added since the last time: its arguments so far as JSON. */
  takeCallDeltas(): ToolCallDelta[] {
    if (this.#grown.size === 0) return [];
    const deltas: ToolCallDelta[] = [];
    for (const call of this.#grown) {
      const argsTextSoFar = JSON.stringify(call.builder.args);
      if (argsTextSoFar === call.shown) continue;
      call.shown = argsTextSoFar;
      deltas.push({ index: call.index, ...(call.id ? { functionCallId: call.id } : {}), name: call.name, argsTextSoFar });
    }
    this.#grown.clear();
    return deltas;
  }

  /** The complete response, or the error response for a reply that is not a whole answer. */
  result(): LlmResponse {
    const unusable = this.#unusable();
    if (unusable) return unusable;
    this.#finishPending();
    const response: LlmResponse = {};
    const pairs = findServerToolCalls(this.#parts);
    const paired = new Set(pairs.flatMap(([call, answer]) => [call, answer]));
    const parts = this.#parts.filter((_part, i) => !paired.has(i));
    if (parts.length > 0 || pairs.length > 0) response.content = { role: 'model', parts };
    if (this.#finishReason) response.finishReason = this.#finishReason;
    if (this.#usage) response.usageMetadata = this.#usage;
    if (this.#grounding) response.groundingMetadata = this.#grounding;
    if (this.#modelVersion) response.modelVersion = this.#modelVersion;
    if (this.#blockReason) {
      response.errorCode = this.#blockReason;
      response.errorMessage = this.#blockMessage ?? `Gemini blocked the prompt (${this.#blockReason}).`;
    } else if (!response.content && this.#finishReason && this.#finishReason !== 'STOP') {
      response.errorCode = this.#finishReason;
      response.errorMessage =
        this.#finishMessage ?? `Gemini stopped with finish reason ${this.#finishReason} and returned no content.`;
    } else if (!response.content) {
      return { ...response, ...emptyReply(this.#model, `the answer has no content (finish reason ${this.#finishReason ?? 'none'})`) };
    }
    if (pairs.length > 0) {
      const serverToolCalls: ServerToolCall[] = pairs.map(([call, answer]) => ({
        functionCall: this.#parts[call]!.functionCall!,
        functionResponse: this.#parts[answer]!.functionResponse!,
      }));
      response.customMetadata = { serverToolCalls };
    }
    return response;
  }

  /** Why the reply is not a whole answer (a blocked prompt is an answer: the block is reported). */
  #unusable(): LlmResponse | undefined {
    if (this.#blockReason) return undefined;
    if (this.#stream && this.#chunks === 0) return emptyReply(this.#model, 'the stream carried no chunks');
    if (this.#candidates === 0) {
      const what = this.#lastReply ? describeReply(this.#lastReply) : 'nothing';
      const chunks = this.#stream ? `${count(this.#chunks, 'chunk')}, the last ` : '';
      return emptyReply(this.#model, `the reply has no candidates (${chunks}${what})`);
    }
    if (this.#pending) {
      return incompleteStream(
        this.#model,
        `ended while the arguments of the call to "${this.#pending.name}" were still streaming (willContinue)`,
      );
    }
    if (this.#stream && !this.#finished) {
      return incompleteStream(this.#model, `ended after ${count(this.#chunks, 'chunk')} without a finish reason`);
    }
    return undefined;
  }

  #addText(part: GenaiPart): Part | undefined {
    this.#finishPending();
    const text = part.text ?? '';
    const thought = part.thought === true;
    const signature = part.thoughtSignature;
    const last = this.#parts[this.#parts.length - 1];
    const sameKind =
      last !== undefined &&
      last.text !== undefined &&
      (last.thought === true) === thought &&
      !(signature && last.thoughtSignature && last.thoughtSignature !== signature);
    if (sameKind) {
      last.text += text;
      if (signature) last.thoughtSignature = signature;
    } else if (text || signature) {
      this.#parts.push({ ...(structuredClone(part) as Part), text });
    }
    if (!text) return undefined;
    return thought ? { text, thought: true } : { text };
  }

  #addFunctionCall(part: GenaiPart): void {
    const call = part.functionCall!;
    const streamed = call.partialArgs !== undefined || call.willContinue === true;
    if (this.#pending && !call.name && streamed) {
      if (part.thoughtSignature && !this.#pending.thoughtSignature) this.#pending.thoughtSignature = part.thoughtSignature;
      this.#pending.builder.apply(call.partialArgs ?? []);
      this.#grown.add(this.#pending);
      if (!call.willContinue) this.#finishPending();
      return;
    }
    if (this.#pending && !call.name) {
      // The closing `functionCall: {}` of a streamed call.
      this.#finishPending();
      return;
    }
    this.#finishPending();
    if (streamed) {
      this.#pending = {
        index: this.#parts.filter((p) => p.functionCall).length,
        name: call.name ?? '',
        ...(call.id ? { id: call.id } : {}),
        ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}),
        builder: new PartialArgsBuilder(call.args),
      };
      this.#pending.builder.apply(call.partialArgs ?? []);
      this.#grown.add(this.#pending);
      if (!call.willContinue) this.#finishPending();
      return;
    }
    const cloned = structuredClone(part) as Part;
    this.#parts.push(cloned);
  }

  #finishPending(): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = undefined;
    const functionCall: FunctionCall = { name: pending.name, args: pending.builder.args };
    if (pending.id) functionCall.id = pending.id;
    const part: Part = { functionCall };
    if (pending.thoughtSignature) part.thoughtSignature = pending.thoughtSignature;
    this.#parts.push(part);
  }
}

/**
 * Function calls answered inside the same model turn, as `[call index, response index]`: a later
 * part of the turn holds a function response with the same name (and the same id, when there are
 * ids). Gemini returns such pairs for tools it runs itself (server-side MCP servers).
 */
export function findServerToolCalls(parts: readonly Part[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const used = new Set<number>();
  parts.forEach((part, i) => {
    const call = part.functionCall;
    if (!call) return;
    for (let j = i + 1; j < parts.length; j++) {
      const response = parts[j]!.functionResponse;
      if (!response || used.has(j) || response.name !== call.name || (response.id ?? '') !== (call.id ?? '')) continue;
      used.add(j);
      found.push([i, j]);
      return;
    }
  });
  return found;
}
