import { appendInstructions, ConfigError } from '@adkit/flow';
import type { Content, LlmRequest, RequestContext, RequestProcessor, Tool } from '@adkit/flow';

/** One few-shot example: a user query and the turns that answer it (model text, calls, responses). */
export interface FewShotExample {
  input: Content;
  output: readonly Content[];
}

const INTRO =
  '<EXAMPLES>\nBegin few-shot\nThe following are examples of user queries and model responses using the available tools.\n\n';
const END = 'End few-shot\n<EXAMPLES>';

/**
 * `example_tool` (BT-6): adds few-shot examples to the system instruction of every request whose
 * user message starts with text. It has no declaration and is never callable. Calls render as
 * `` ```tool_code `` and responses as `` ```tool_outputs `` blocks for gemini-2 models, as plain
 * fences for any other model; arguments and responses are written as JSON, in insertion order.
 * Any "End few-shot" inside an example becomes "[PROTECTED]".
 *
 * ```ts
 * exampleTool([{ input: createUserContent('weather in Paris?'), output: [
 *   { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
 * ] }])
 * ```
 */
export function exampleTool(examples: readonly FewShotExample[]): Tool & RequestProcessor {
  if (!Array.isArray(examples))
    throw new ConfigError(
      `exampleTool: examples must be an array of {input: Content, output: Content[]}, got ${examples === null ? 'null' : typeof examples}.`,
    );
  examples.forEach((example, i) => {
    if (typeof example !== 'object' || example === null || (example.output !== undefined && !Array.isArray(example.output)))
      throw new ConfigError(`exampleTool: examples[${i}] must be {input: Content, output: Content[]}.`);
  });
  const forGemini2 = buildExamples(examples, true);
  const plain = buildExamples(examples, false);
  return {
    name: 'example_tool',
    description: 'example tool',
    async processRequest(ctx: RequestContext, request: LlmRequest): Promise<void> {
      if (!ctx.userContent?.parts?.[0]?.text) return;
      appendInstructions(request, [(request.model ?? '').includes('gemini-2') ? forGemini2 : plain]);
    },
  };
}

function buildExamples(examples: readonly FewShotExample[], gemini2: boolean): string {
  const callFence = gemini2 ? '```tool_code\n' : '```\n';
  const responseFence = gemini2 ? '```tool_outputs\n' : '```\n';
  let text = INTRO;
  examples.forEach((example, i) => {
    text += `EXAMPLE ${i + 1}:\nBegin example\n[user]\n`;
    for (const part of example.input?.parts ?? []) if (part.text) text += `${protect(part.text)}\n`;
    let previousRole = '';
    for (const content of example.output ?? []) {
      const role = content.role === 'model' ? '[model]\n' : '[user]\n';
      if (role !== previousRole) text += role;
      previousRole = role;
      for (const part of content.parts ?? []) {
        if (part.functionCall) {
          const args = Object.entries(part.functionCall.args ?? {}).map(([key, value]) =>
            typeof value === 'string' ? `${key}='${value}'` : `${key}=${JSON.stringify(value)}`,
          );
          text += `${callFence}${part.functionCall.name}(${args.join(', ')})\n\`\`\`\n`;
        } else if (part.functionResponse) {
          text += `${responseFence}${JSON.stringify(part.functionResponse.response ?? {})}\n\`\`\`\n`;
        } else if (part.text) {
          text += `${protect(part.text)}\n`;
        }
      }
    }
    text += 'End example\n\n';
  });
  return text + END;
}

function protect(text: string): string {
  return text.replaceAll('End few-shot', '[PROTECTED]');
}
