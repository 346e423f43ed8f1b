import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { FunctionDeclaration } from '../content/content.js';
import type { RunnableTool } from '../tools/tool.js';

/** The tool through which a model with tools gives its structured final answer (BT-9). */
export const SET_MODEL_RESPONSE = 'set_model_response';

/** The instruction that makes the model answer through `set_model_response`. */
export const SET_MODEL_RESPONSE_INSTRUCTION =
  'IMPORTANT: You have access to other tools, but you MUST provide your final response using the ' +
  `${SET_MODEL_RESPONSE} tool with the required structured format. After using any other tools needed ` +
  `to complete the task, always call ${SET_MODEL_RESPONSE} with your final answer in the specified schema format.`;

/** An output schema compiled once: its check, and the `set_model_response` tool built on it. */
export interface CompiledOutputSchema {
  check: ReturnType<typeof Compile>;
  tool: RunnableTool;
}

const compiled = new WeakMap<TSchema, CompiledOutputSchema>();

/**
 * The output schema compiled, once per schema object: agents compile at construction and every
 * step after that reuses the result, so no step pays for code generation.
 */
export function compileOutputSchema(schema: TSchema): CompiledOutputSchema {
  let entry = compiled.get(schema);
  if (!entry) {
    const check = Compile(schema);
    entry = { check, tool: setModelResponseTool(schema, check) };
    compiled.set(schema, entry);
  }
  return entry;
}

/** Builds `set_model_response` for an output schema, on its compiled check. */
function setModelResponseTool(schema: TSchema, check: ReturnType<typeof Compile>): RunnableTool {
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
      if (!check.Check(args)) {
        const problems = [...check.Errors(args)].slice(0, 8).map((e) => `${e.instancePath || '/'}: ${e.message}`);
        throw new Error(`invalid output schema: ${problems.join('; ')}`);
      }
      return args;
    },
  };
}
