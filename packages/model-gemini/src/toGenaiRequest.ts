import type { Content, GenerateContentConfig, JsonSchema, LlmRequest, Part } from '@adkit/flow';
import type { Content as GenaiContent, GenerateContentConfig as GenaiConfig, GenerateContentParameters } from '@google/genai';
import { geminiSchema } from './geminiSchema.js';

/** JSON Schemas already passed through `geminiSchema`, per schema object (owned by one model, never module-wide). */
export type GeminiSchemaCache = WeakMap<JsonSchema, JsonSchema>;

/** What ADK sends when a request has no contents at all. */
export const EMPTY_CONTENTS_TEXT = 'Handle the requests as specified in the System Instruction.';
/** What ADK appends when the history does not end with a user turn. */
export const CONTINUE_TEXT =
  'Continue processing previous requests as instructed. Exit or provide a summary if no more outputs are needed.';

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * Whether a thought signature can be sent to Gemini: Gemini's signatures are base64; anything
 * else (written by another source) is left out rather than rejected by the API.
 */
export function isGeminiThoughtSignature(signature: string): boolean {
  return BASE64.test(signature);
}

/** The part as Gemini takes it: `partMetadata` is adkit's (and Vertex refuses it); a foreign signature is dropped. */
function toGenaiPart(part: Part): Part {
  const { partMetadata: _metadata, ...rest } = part;
  if (rest.thoughtSignature !== undefined && !isGeminiThoughtSignature(rest.thoughtSignature)) delete rest.thoughtSignature;
  return rest;
}

function toGenaiContents(contents: readonly Content[]): GenaiContent[] {
  const mapped: GenaiContent[] = contents.map((content) => ({
    ...content,
    parts: (content.parts ?? []).map(toGenaiPart),
  })) as GenaiContent[];
  // Gemini needs a user turn to answer (as ADK's Gemini model does).
  if (mapped.length === 0) mapped.push({ role: 'user', parts: [{ text: EMPTY_CONTENTS_TEXT }] });
  else if (mapped[mapped.length - 1]!.role !== 'user') mapped.push({ role: 'user', parts: [{ text: CONTINUE_TEXT }] });
  return mapped;
}

/**
 * Maps an adkit request onto `models.generateContent` parameters. adkit's content and config types
 * have genai's JSON shape, so contents, the system instruction, function declarations
 * (`parametersJsonSchema` or genai `parameters`), native tools, the tool config and the generation
 * settings pass through; `labels` go only to Vertex AI (the Gemini API rejects them). Every JSON
 * Schema (a declaration's `parametersJsonSchema`/`responseJsonSchema`, the config's
 * `responseJsonSchema`) goes through `geminiSchema`, once per schema object with `schemas`.
 */
export function toGenaiRequest(
  request: LlmRequest,
  defaultModel: string,
  options: { vertexai: boolean; signal?: AbortSignal; fetch?: NonNullable<GenaiConfig['httpOptions']>['fetch']; schemas?: GeminiSchemaCache },
): GenerateContentParameters {
  const { labels, ...config } = request.config;
  const genaiConfig: GenaiConfig = { ...(withGeminiSchemas(config, options.schemas ?? new WeakMap()) as GenaiConfig) };
  if (labels && options.vertexai) genaiConfig.labels = labels;
  if (options.signal) genaiConfig.abortSignal = options.signal;
  // The adapter's guarded fetch (size limit), for this request only.
  if (options.fetch) genaiConfig.httpOptions = { ...genaiConfig.httpOptions, fetch: options.fetch };
  return {
    model: request.model ?? defaultModel,
    contents: toGenaiContents(request.contents),
    config: genaiConfig,
  };
}

/** The config with each JSON Schema in Gemini's form; the request's own objects are not changed. */
function withGeminiSchemas(config: GenerateContentConfig, cache: GeminiSchemaCache): GenerateContentConfig {
  const pass = (schema: JsonSchema): JsonSchema => {
    let passed = cache.get(schema);
    if (!passed) {
      passed = geminiSchema(schema).schema;
      cache.set(schema, passed);
    }
    return passed;
  };
  const out: GenerateContentConfig = { ...config };
  if (out.responseJsonSchema) out.responseJsonSchema = pass(out.responseJsonSchema);
  if (out.tools)
    out.tools = out.tools.map((tool) =>
      tool.functionDeclarations
        ? {
            ...tool,
            functionDeclarations: tool.functionDeclarations.map((declaration) => {
              const mapped = { ...declaration };
              if (mapped.parametersJsonSchema) mapped.parametersJsonSchema = pass(mapped.parametersJsonSchema);
              if (mapped.responseJsonSchema) mapped.responseJsonSchema = pass(mapped.responseJsonSchema);
              return mapped;
            }),
          }
        : tool,
    );
  return out;
}
