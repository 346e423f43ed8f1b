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

/**
 * A request made by `createLlmRequest`. Its dispatch table is made when first read, so that the
 * flow can start a step's table as a copy of the one the step before packed (`seedToolTable`)
 * instead of adding its tools one by one (#24). `tools` is a getter of the class, so it is not an
 * own property: a spread or `JSON.stringify` leaves it out, as before.
 */
class StepRequest implements LlmRequest {
  declare model?: string;
  contents: Content[];
  config: GenerateContentConfig;
  #tools: Record<string, Tool> | undefined;

  constructor(init: Partial<Omit<LlmRequest, 'tools'>>) {
    this.contents = init.contents ?? [];
    this.config = init.config ?? {};
    if (init.model) this.model = init.model;
  }

  get tools(): Record<string, Tool> {
    return (this.#tools ??= {});
  }

  static seed(request: LlmRequest, table: Record<string, Tool>): boolean {
    if (!(#tools in request) || request.#tools !== undefined) return false;
    request.#tools = table;
    return true;
  }
}

/** Creates a request whose `tools` map is present but never serialized. */
export function createLlmRequest(init: Partial<Omit<LlmRequest, 'tools'>> = {}): LlmRequest {
  return new StepRequest(init);
}

/**
 * Makes `table` the request's dispatch table, when the request was made by `createLlmRequest` and
 * nothing has read its table yet (so nobody holds the empty one); false otherwise, and the table
 * is left as it was. The flow's own: `table` must be a fresh object nobody else holds.
 */
export function seedToolTable(request: LlmRequest, table: Record<string, Tool>): boolean {
  return StepRequest.seed(request, table);
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
