import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { FunctionDeclaration } from './content.js';
import type { RunnableTool } from './tool.js';

/** The tool through which a model with tools gives its structured final answer (BT-9). */
export const SET_MODEL_RESPONSE = 'set_model_response';

/** The instruction that makes the model answer through `set_model_response`. */
export const SET_MODEL_RESPONSE_INSTRUCTION =
  'IMPORTANT: You have access to other tools, but you MUST provide your final response using the ' +
  `${SET_MODEL_RESPONSE} tool with the required structured format. After using any other tools needed ` +
  `to complete the task, always call ${SET_MODEL_RESPONSE} with your final answer in the specified schema format.`;

/** Builds `set_model_response` for an output schema; the schema is compiled once. */
export function setModelResponseTool(schema: TSchema): RunnableTool {
  const check = Compile(schema);
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
