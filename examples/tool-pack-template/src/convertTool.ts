import type { FunctionDeclaration, ToolContext } from '@adkit/flow';
import { BaseTool, ToolError } from '@adkit/tool';
import type { Quantity } from './units.js';

/**
 * Converts a value between two units of one quantity, e.g. `convert_temperature`. Bad arguments
 * become a `ToolError`, which the model receives as `{error}` and can correct.
 */
export class ConvertTool extends BaseTool {
  readonly quantity: Quantity;
  readonly decimals: number;

  constructor(quantity: Quantity, decimals: number) {
    super({ name: `convert_${quantity.name}`, description: `Converts a ${quantity.name} between units (${quantity.units.join(', ')}).` });
    this.quantity = quantity;
    this.decimals = decimals;
  }

  declaration(): FunctionDeclaration {
    const unit = { type: 'string', enum: [...this.quantity.units] };
    return {
      name: this.name,
      description: this.declaredDescription(),
      parametersJsonSchema: {
        type: 'object',
        properties: { value: { type: 'number' }, from: unit, to: unit },
        required: ['value', 'from', 'to'],
        additionalProperties: false,
      },
    };
  }

  async run(_ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { value, from, to } = args;
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new ToolError(`"value" must be a finite number, got ${JSON.stringify(value) ?? String(value)}.`, { code: 'INVALID_ARGUMENTS', toolName: this.name });
    const unit = (name: string, given: unknown): string => {
      if (typeof given === 'string' && this.quantity.units.includes(given)) return given;
      throw new ToolError(`Unknown ${this.quantity.name} unit ${JSON.stringify(given) ?? String(given)} for "${name}"; use one of ${this.quantity.units.join(', ')}.`, {
        code: 'INVALID_ARGUMENTS',
        toolName: this.name,
      });
    };
    const source = unit('from', from);
    const target = unit('to', to);
    const converted = this.quantity.fromBase(this.quantity.toBase(value, source), target);
    const scale = 10 ** this.decimals;
    return { value: Math.round(converted * scale) / scale, unit: target };
  }
}
