import type { GenerateContentConfig, JsonSchema } from '@adkit/flow';
import type { SchemaCache } from './schemaCache.js';
import type { NullPlan } from './strictSchema.js';
import type { ToolSpec } from './toolSpecs.js';

/** The system instruction's text parts, joined by blank lines; `undefined` when empty. */
export function systemText(config: GenerateContentConfig): string | undefined {
  const texts = (config.systemInstruction?.parts ?? []).flatMap((part) => (part.text && !part.thought ? [part.text] : []));
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

/** Which tools the model may or must call, from genai's `toolConfig.functionCallingConfig`. */
export type ToolChoice = 'auto' | 'required' | 'none' | { name: string } | { allowed: string[] } | undefined;

/**
 * `AUTO`/`VALIDATED` → auto, `NONE` → none, `ANY` → required, narrowed to one named tool or to the
 * `allowedFunctionNames` when they are a subset of the declared tools.
 */
export function toolChoice(config: GenerateContentConfig, tools: readonly ToolSpec[]): ToolChoice {
  const calling = config.toolConfig?.functionCallingConfig;
  if (!calling?.mode || tools.length === 0) return undefined;
  const mode = calling.mode.toUpperCase();
  if (mode === 'NONE') return 'none';
  if (mode !== 'ANY') return 'auto';
  const declared = new Set(tools.map((t) => t.name));
  const allowed = (calling.allowedFunctionNames ?? []).filter((name) => declared.has(name));
  if (allowed.length === 0 || allowed.length === declared.size) return 'required';
  if (allowed.length === 1) return { name: allowed[0]! };
  return { allowed };
}

/** Structured output, from `responseJsonSchema` / `responseSchema` / `responseMimeType`. */
export interface ResponseFormat {
  kind: 'json_schema' | 'json_object';
  schema?: JsonSchema;
  strict: boolean;
  plan?: { plan: NullPlan; defs: Record<string, NullPlan> };
}

/** The structured-output setting, compiled strict when asked and possible (once per schema object, in `schemas`). */
export function responseFormat(config: GenerateContentConfig, strict: boolean, schemas: SchemaCache): ResponseFormat | undefined {
  const schema = config.responseJsonSchema ?? (config.responseSchema ? schemas.jsonSchema(config.responseSchema) : undefined);
  if (!schema) return config.responseMimeType === 'application/json' ? { kind: 'json_object', strict: false } : undefined;
  const compiled = strict ? schemas.strict(schema) : undefined;
  if (compiled?.ok) return { kind: 'json_schema', schema: compiled.schema, strict: true, plan: { plan: compiled.plan, defs: compiled.defs } };
  return { kind: 'json_schema', schema, strict: false };
}

/** Reasoning effort and summary from the adapter options, else from genai's `thinkingConfig`. */
export function reasoningSettings(
  config: GenerateContentConfig,
  option: { effort?: string; summary?: string } | undefined,
): { effort?: string; summary?: string } | undefined {
  const effort = option?.effort ?? config.thinkingConfig?.thinkingLevel?.toLowerCase();
  const summary = option?.summary ?? (config.thinkingConfig?.includeThoughts ? 'auto' : undefined);
  if (!effort && !summary) return undefined;
  return { ...(effort ? { effort } : {}), ...(summary ? { summary } : {}) };
}
