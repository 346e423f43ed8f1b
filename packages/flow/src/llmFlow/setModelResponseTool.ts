import type { FunctionDeclaration } from '../content/content.js';
import { SchemaCheck } from '../schema/schemaCheck.js';
import type { AnySchema } from '../schema/standardSchema.js';
import type { RunnableTool } from '../tools/tool.js';

/** The tool through which a model with tools gives its structured final answer (BT-9). */
export const SET_MODEL_RESPONSE = 'set_model_response';

/** The instruction that makes the model answer through `set_model_response`. */
export const SET_MODEL_RESPONSE_INSTRUCTION =
  'IMPORTANT: You have access to other tools, but you MUST provide your final response using the ' +
  `${SET_MODEL_RESPONSE} tool with the required structured format. After using any other tools needed ` +
  `to complete the task, always call ${SET_MODEL_RESPONSE} with your final answer in the specified schema format.`;

/**
 * An agent's output schema, owned by the agent (a TypeBox or Standard JSON Schema, through
 * `SchemaCheck`): checked at construction, a TypeBox schema compiled on first use (the first run
 * loads TypeBox's compiler, importing adkit does not), and the `set_model_response` tool built on
 * it, declared with the schema's JSON Schema.
 */
export class CompiledOutputSchema {
  readonly schema: AnySchema;
  /** The schema's check and JSON Schema. */
  readonly check: SchemaCheck;
  /** `set_model_response`, declared with the schema; its calls are checked against it. */
  readonly tool: RunnableTool;

  /** Throws a `ConfigError` for a schema adkit cannot use (`SchemaCheck`), its message starting with `label`. */
  constructor(schema: AnySchema, label = 'outputSchema') {
    this.check = new SchemaCheck(schema, { label });
    this.schema = schema;
    this.tool = setModelResponseTool(this.check);
  }

  #ready?: Promise<SchemaCheck>;

  /** The check, ready: a TypeBox schema compiled by the first call and kept (one promise for all callers). */
  compile(): Promise<SchemaCheck> {
    this.#ready ??= this.check.compile().then(() => this.check);
    return this.#ready;
  }
}

/**
 * Builds `set_model_response` for an output schema (BT-9); its arguments are checked on each call
 * and returned as the model sent them (the agent's final answer is checked again, and its output
 * value saved, by `saveOutput`).
 */
function setModelResponseTool(check: SchemaCheck): RunnableTool {
  const declaration: FunctionDeclaration = {
    name: SET_MODEL_RESPONSE,
    description:
      'Set your final response using the required output schema. Use this tool to provide your final structured answer instead of outputting text directly.',
    parametersJsonSchema: check.jsonSchema,
  };
  return {
    name: SET_MODEL_RESPONSE,
    description: declaration.description!,
    declaration: () => declaration,
    async run(ctx, args) {
      const result = await check.validate(args, ctx.signal);
      if (!result.ok) throw new Error(`invalid output schema: ${result.problems.join('; ')}`);
      return args;
    },
  };
}
