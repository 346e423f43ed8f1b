import type { GenerateContentConfig, JsonSchema } from '@adkit/flow';
import { UnsupportedRequestError } from './errors.js';
import type { SchemaCache } from './schemaCache.js';
import type { NullPlan } from './strictSchema.js';

/** A function tool as both OpenAI APIs take it, before the API-specific shape. */
export interface ToolSpec {
  name: string;
  description?: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** How to undo strict mode's nulls in one tool's arguments. */
export interface StrictPlan {
  plan: NullPlan;
  defs: Record<string, NullPlan>;
}

/** The function tools of a request, and the null plans of those sent strict (by tool name). */
export interface ToolSpecs {
  tools: ToolSpec[];
  strictPlans: Map<string, StrictPlan>;
}

/**
 * The function declarations of `config.tools` as OpenAI tools. Each schema is converted (genai
 * `parameters`) and, with `strict`, compiled to OpenAI's strict form once per schema object, in the
 * model's `schemas`; a schema that has no strict form is sent as it is, non-strict. Any native
 * (non-function) tool is refused: it only runs on Gemini.
 */
export function toolSpecs(config: GenerateContentConfig, model: string, strict: boolean, schemas: SchemaCache): ToolSpecs {
  const tools: ToolSpec[] = [];
  const strictPlans = new Map<string, StrictPlan>();
  for (const tool of config.tools ?? []) {
    const native = Object.keys(tool).filter((key) => key !== 'functionDeclarations' && tool[key] !== undefined);
    if (native.length > 0) {
      throw new UnsupportedRequestError(
        'UNSUPPORTED_TOOL',
        `OpenAI model "${model}" cannot use the Gemini-native tool "${native[0]}": native tools run only on Gemini models. ` +
          'Run it in an agent on a Gemini model and give that agent to this one as an agent-tool, or remove it from this agent.',
      );
    }
    for (const declaration of tool.functionDeclarations ?? []) {
      // The adapter's schema pass (openaiSchema), then strict compilation when asked.
      const parameters = schemas.sendable(schemas.parameters(declaration));
      const base = {
        name: declaration.name,
        ...(declaration.description !== undefined ? { description: declaration.description } : {}),
      };
      const compiled = strict ? schemas.strict(parameters) : undefined;
      if (compiled?.ok) {
        tools.push({ ...base, parameters: compiled.schema, strict: true });
        strictPlans.set(declaration.name, { plan: compiled.plan, defs: compiled.defs });
      } else {
        tools.push({ ...base, parameters, strict: false });
      }
    }
  }
  return { tools, strictPlans };
}
