import type { FunctionDeclaration, JsonSchema } from '@adkit/flow';
import { compileStrictSchema, openaiSchema, type StrictSchema } from './strictSchema.js';
import { genaiSchemaToJsonSchema } from './toJsonSchema.js';

const NO_PARAMETERS: JsonSchema = Object.freeze({ type: 'object', properties: Object.freeze({}) }) as JsonSchema;

/**
 * The schemas one model instance (one `openai()` call) has converted: genai schemas as JSON
 * Schema, and JSON Schemas in OpenAI's strict form, each worked out once per schema object and
 * reused by every later request. It lives on the model that owns it (no module-level cache,
 * issue 9): a dropped model takes its schemas with it, and two models never share an entry.
 */
export class SchemaCache {
  private readonly converted = new WeakMap<JsonSchema, JsonSchema>();
  private readonly compiled = new WeakMap<JsonSchema, StrictSchema>();
  private readonly sendables = new WeakMap<JsonSchema, JsonSchema>();

  /** `openaiSchema` (what OpenAI accepts outside strict mode), once per schema object. */
  sendable(schema: JsonSchema): JsonSchema {
    let sendable = this.sendables.get(schema);
    if (!sendable) {
      sendable = openaiSchema(schema).schema;
      this.sendables.set(schema, sendable);
    }
    return sendable;
  }

  /**
   * The JSON Schema of a declaration's arguments: `parametersJsonSchema`, else the converted genai
   * `parameters`, else an empty object schema.
   */
  parameters(declaration: FunctionDeclaration): JsonSchema {
    if (declaration.parametersJsonSchema) return declaration.parametersJsonSchema;
    return declaration.parameters ? this.jsonSchema(declaration.parameters) : NO_PARAMETERS;
  }

  /** `genaiSchemaToJsonSchema`, once per schema object. */
  jsonSchema(genai: JsonSchema): JsonSchema {
    let schema = this.converted.get(genai);
    if (!schema) {
      schema = genaiSchemaToJsonSchema(genai);
      this.converted.set(genai, schema);
    }
    return schema;
  }

  /** `compileStrictSchema`, once per schema object. */
  strict(schema: JsonSchema): StrictSchema {
    let strict = this.compiled.get(schema);
    if (!strict) {
      strict = compileStrictSchema(schema);
      this.compiled.set(schema, strict);
    }
    return strict;
  }
}
