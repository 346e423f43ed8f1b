import type { Content, GenerateContentConfig } from '../content/content.js';
import type { Tool } from '../tools/tool.js';

/** What the flow sends to a model for one step (spec TC-9). */
export interface LlmRequest {
  model?: string;
  contents: Content[];
  config: GenerateContentConfig;
  /**
   * The dispatch table: tool name → tool, for the calls the model may make in this step.
   * Not enumerable, so it is never serialized with the request.
   */
  readonly tools: Record<string, Tool>;
}

/** Creates a request whose `tools` map is present but never serialized. */
export function createLlmRequest(init: Partial<Omit<LlmRequest, 'tools'>> = {}): LlmRequest {
  const request = { contents: init.contents ?? [], config: init.config ?? {}, ...(init.model ? { model: init.model } : {}) };
  Object.defineProperty(request, 'tools', { value: {}, enumerable: false, writable: false });
  return request as LlmRequest;
}

/**
 * Appends instructions to the request's system instruction, joined by a blank line (SK-9):
 * the last text part grows, or a text part is added.
 */
export function appendInstructions(request: LlmRequest, instructions: string[]): void {
  const text = instructions.filter((s) => s.length > 0).join('\n\n');
  if (!text) return;
  const system = (request.config.systemInstruction ??= { role: 'user', parts: [] });
  const parts = (system.parts ??= []);
  const last = parts[parts.length - 1];
  if (last && typeof last.text === 'string') last.text = last.text ? `${last.text}\n\n${text}` : text;
  else parts.push({ text });
}
