import type { TSchema } from 'typebox';
import type { FunctionDeclaration } from '../content/content.js';
import type { CompiledSchema } from '../schema/compileSchema.js';
import { LazySchema } from '../schema/lazySchema.js';
import type { RunnableTool } from '../tools/tool.js';

/** The tool through which a model with tools gives its structured final answer (BT-9). */
export const SET_MODEL_RESPONSE = 'set_model_response';

/** The instruction that makes the model answer through `set_model_response`. */
export const SET_MODEL_RESPONSE_INSTRUCTION =
  'IMPORTANT: You have access to other tools, but you MUST provide your final response using the ' +
  `${SET_MODEL_RESPONSE} tool with the required structured format. After using any other tools needed ` +
  `to complete the task, always call ${SET_MODEL_RESPONSE} with your final answer in the specified schema format.`;

/**
 * An agent's output schema, owned by the agent: checked for what would not compile at
 * construction, compiled on first use (the first run loads TypeBox's compiler, importing adkit
 * does not), and the `set_model_response` tool built on it.
 */
export class CompiledOutputSchema {
  readonly schema: TSchema;
  /** `set_model_response`, declared with the schema; its calls are checked against it. */
  readonly tool: RunnableTool;
  readonly #lazy: LazySchema;

  /** Throws what compiling would throw (an invalid `pattern`, say); the agent wraps it in a `ConfigError`. */
  constructor(schema: TSchema) {
    this.#lazy = new LazySchema(schema);
    this.schema = schema;
    this.tool = setModelResponseTool(schema, this.#lazy);
  }

  /** The compiled check, compiled by the first call and kept. */
  compile(): Promise<CompiledSchema> {
    return this.#lazy.compile();
  }
}

/** Builds `set_model_response` for an output schema; its arguments are checked on each call. */
function setModelResponseTool(schema: TSchema, lazy: LazySchema): RunnableTool {
  const declaration: FunctionDeclaration = {
    name: SET_MODEL_RESPONSE,
    description:
      'Set your final response using the required output schema. Use this tool to provide your final structured answer instead of outputting text directly.',
    parametersJsonSchema: schema as Record<string, unknown>,
  };
  return {
    name: SET_MODEL_RESPONSE,
    description: declaration.description!,
    declaration: () => declaration,
    async run(_ctx, args) {
      const compiled = lazy.compiled ?? (await lazy.compile());
      if (!compiled.check(args)) throw new Error(`invalid output schema: ${compiled.problems(args).join('; ')}`);
      return args;
    },
  };
}
