import type { Content, Part } from '@adkit/flow';

/** One part of a message in the GenAI semantic conventions' JSON shape. */
export interface GenAiPart {
  type: string;
  [field: string]: unknown;
}

/** One message in the GenAI semantic conventions' JSON shape (`gen_ai.input.messages`). */
export interface GenAiMessage {
  role: string;
  parts: GenAiPart[];
  finish_reason?: string;
}

/**
 * Contents as GenAI semantic-convention messages: the model's turns are `assistant`, a user turn
 * of function responses only is `tool`. The values are shared, not copied, so mapping a long
 * history costs a few objects a part; truncation happens when it is written out.
 */
export function toGenAiMessages(contents: readonly Content[] | undefined): GenAiMessage[] {
  const messages: GenAiMessage[] = [];
  for (const content of Array.isArray(contents) ? contents : []) {
    if (content && typeof content === 'object') messages.push(toGenAiMessage(content));
  }
  return messages;
}

/** One content as a GenAI message; `finishReason` is set on model output. */
export function toGenAiMessage(content: Content, finishReason?: string): GenAiMessage {
  const parts = toGenAiParts(content.parts);
  const message: GenAiMessage = { role: roleOf(content, parts), parts };
  if (finishReason) message.finish_reason = finishReason;
  return message;
}

/** Parts as GenAI parts (system instructions are written as this list). */
export function toGenAiParts(parts: readonly Part[] | undefined): GenAiPart[] {
  const mapped: GenAiPart[] = [];
  for (const part of Array.isArray(parts) ? parts : []) if (part && typeof part === 'object') mapped.push(toGenAiPart(part));
  return mapped;
}

function roleOf(content: Content, parts: readonly GenAiPart[]): string {
  if (content.role === 'model') return 'assistant';
  if (parts.length > 0 && parts.every((part) => part.type === 'tool_call_response')) return 'tool';
  return typeof content.role === 'string' ? content.role : 'user';
}

function toGenAiPart(part: Part): GenAiPart {
  if (part.functionCall) return { type: 'tool_call', id: part.functionCall.id, name: part.functionCall.name, arguments: part.functionCall.args };
  if (part.functionResponse)
    return { type: 'tool_call_response', id: part.functionResponse.id, response: part.functionResponse.response };
  if (typeof part.text === 'string') return { type: part.thought ? 'reasoning' : 'text', content: part.text };
  if (part.inlineData) return { type: 'blob', mime_type: part.inlineData.mimeType, content: part.inlineData.data };
  if (part.fileData) return { type: 'uri', mime_type: part.fileData.mimeType, uri: part.fileData.fileUri };
  if (part.executableCode) return { type: 'executable_code', language: part.executableCode.language, code: part.executableCode.code };
  if (part.codeExecutionResult)
    return { type: 'code_execution_result', outcome: part.codeExecutionResult.outcome, output: part.codeExecutionResult.output };
  return { type: 'unknown' };
}
