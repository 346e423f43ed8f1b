import { LazySchema } from '@adkit/flow';
import { deepFreeze } from '@adkit/flow/store';
import type { FunctionDeclaration, ToolContext } from '@adkit/flow';
import type { TSchema } from 'typebox';
import { BaseTool } from './baseTool.js';
import { invalidArgumentsError } from './errors.js';

/** `Type.Object({}, { additionalProperties: false })`, written out so importing needs no TypeBox. */
const NO_ARGUMENTS: TSchema = { type: 'object', properties: {}, additionalProperties: false };

class ExitLoopTool extends BaseTool {
  private readonly parameters = new LazySchema(NO_ARGUMENTS);
  private readonly declared: FunctionDeclaration;

  constructor() {
    super({ name: 'exit_loop', description: 'Exits the loop.\n\nCall this function only when you are instructed to do so.\n' });
    // One object for every agent that uses the tool: frozen through, so no step can change it for the others.
    this.declared = deepFreeze({
      name: this.name,
      description: this.description,
      parametersJsonSchema: JSON.parse(JSON.stringify(NO_ARGUMENTS)) as Record<string, unknown>,
    });
  }

  declaration(): FunctionDeclaration {
    return this.declared;
  }

  async run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const value = args ?? {};
    const parameters = this.parameters.compiled ?? (await this.parameters.compile());
    if (!parameters.check(value)) throw invalidArgumentsError(this.name, parameters.problems(value), NO_ARGUMENTS);
    ctx.actions.escalate = true;
    ctx.actions.skipSummarization = true;
    return {};
  }
}

/**
 * `exit_loop` (BT-7): lets the model end a `LoopAgent`. It takes no arguments, sets `escalate`
 * (the loop stops) and `skipSummarization` (the agent's turn ends), and answers `{}`.
 *
 * ```ts
 * new LoopAgent({ name: 'refine', subAgents: [new LlmAgent({ ..., tools: [exitLoop] })] })
 * ```
 */
export const exitLoop: BaseTool = new ExitLoopTool();

/**
 * @deprecated Renamed `exitLoop`: a ready-made tool is named after the tool, without a suffix;
 * `…Tool` and `…Toolset` mark functions that make one (CONTRIBUTING.md). This name still works in
 * this release and is removed in the next one.
 */
export const exitLoopTool = exitLoop;
