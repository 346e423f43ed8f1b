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
 * …) as an adkit tool (BT-10). The entry is copied and must be plain JSON data (a `ConfigError`
 * names a function, BigInt, cycle or class instance in it). Used with a non-Gemini model, the step
 * fails with an error naming the tool and the remedy.
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
  return nativeTool(name, description, jsonCopy(entry, `geminiTool "${name}"`) as GenaiTool);
}

/** Nesting deeper than this is refused (a native tool entry is a few levels deep). */
const MAX_ENTRY_DEPTH = 64;

/**
 * A copy of the entry that holds only JSON data, as Gemini receives it: a function, symbol, BigInt,
 * non-finite number, class instance (a `Date`, a `Map`), a cycle or nesting past 64 levels is a
 * `ConfigError` naming where it is, instead of a `DataCloneError` or a stack overflow here, or a
 * failure on every request later. Undefined fields are left out, as JSON leaves them.
 */
function jsonCopy(entry: object, owner: string): unknown {
  const ancestors = new Set<object>();
  const refuse = (path: string, what: string) =>
    new ConfigError(`${owner}: ${path || 'the native tool'} ${what}; pass plain JSON data such as {googleSearch: {}}.`);
  const copy = (value: unknown, path: string, depth: number): unknown => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw refuse(path, `is ${String(value)}`);
      return value;
    }
    if (typeof value !== 'object') throw refuse(path, `is a ${typeof value}`);
    if (ancestors.has(value)) throw refuse(path, 'refers back to itself');
    if (depth >= MAX_ENTRY_DEPTH) throw refuse(path, `nests deeper than ${MAX_ENTRY_DEPTH} levels`);
    const proto: unknown = Object.getPrototypeOf(value);
    if (!Array.isArray(value) && proto !== Object.prototype && proto !== null)
      throw refuse(path, `is a ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'class instance'}, not plain data`);
    ancestors.add(value);
    try {
      if (Array.isArray(value)) return value.map((item: unknown, i) => copy(item === undefined ? null : item, `${path}[${i}]`, depth + 1));
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined) continue;
        // defineProperty keeps a "__proto__" key a plain key, as JSON.parse does.
        Object.defineProperty(out, key, { value: copy(item, path ? `${path}.${key}` : key, depth + 1), enumerable: true, writable: true, configurable: true });
      }
      return out;
    } finally {
      ancestors.delete(value);
    }
  };
  return copy(entry, '', 0);
}
