import { ConfigError, type GenaiTool, type LlmRequest, type RequestContext, type RequestProcessor, type Tool } from '@adkit/flow';
import { assertToolName } from '@adkit/tool';
import { isGeminiModel, notGeminiError } from './geminiModels.js';

/**
 * A Gemini-native tool: on every step it appends a native entry to `req.config.tools` (BT-10). It
 * is never registered in `req.tools`, declares no function and never runs locally: Gemini runs it.
 */
export interface GeminiNativeTool extends Tool, RequestProcessor {
  /** The entry appended to `config.tools` (for tools whose entry depends on the model, the Gemini 2+ one). */
  readonly nativeTool: GenaiTool;
}

/** Appends the tool's entry for this model; throws when the model cannot take it. */
export type NativeToolApply = (request: LlmRequest, model: string) => void;

/** Builds a native tool whose `processRequest` checks the model and then applies `apply`. */
export function nativeTool(name: string, description: string, entry: GenaiTool, apply?: NativeToolApply): GeminiNativeTool {
  const append: NativeToolApply = apply ?? ((request) => (request.config.tools ??= []).push(structuredClone(entry)));
  return Object.freeze({
    name,
    description,
    nativeTool: entry,
    async processRequest(_ctx: RequestContext, request: LlmRequest): Promise<void> {
      if (!isGeminiModel(request.model)) throw notGeminiError(name, request.model);
      append(request, request.model);
    },
  });
}

/**
 * Wraps any genai native tool entry (`{googleSearch: {}}`, `{codeExecution: {}}`, `{mcpServers: …}`,
 * …) as an adkit tool (BT-10). Used with a non-Gemini model, the step fails with an error naming
 * the tool and the remedy.
 *
 * @example
 * const search = geminiTool('google_search', 'Searches the web.', { googleSearch: {} });
 */
export function geminiTool(name: string, description: string, entry: GenaiTool): GeminiNativeTool {
  assertToolName('geminiTool', name);
  if (typeof description !== 'string') {
    throw new ConfigError(`geminiTool "${name}": description must be a string, got ${typeof description}.`);
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry) || Object.keys(entry).length === 0) {
    throw new ConfigError(`geminiTool "${name}": the native tool must be a genai Tool object such as {googleSearch: {}}, got ${JSON.stringify(entry)}.`);
  }
  if (entry.functionDeclarations !== undefined) {
    throw new ConfigError(
      `geminiTool "${name}": function declarations are not a native tool; use a function tool (e.g. functionTool from @adkit/function-tool) for them.`,
    );
  }
  return nativeTool(name, description, structuredClone(entry));
}
