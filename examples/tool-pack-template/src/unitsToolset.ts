import type { Tool } from '@adkit/flow';
import { BaseToolset, type BaseToolsetOptions } from '@adkit/tool';
import { ConvertTool } from './convertTool.js';
import { length, temperature } from './units.js';

/** Options of `unitsToolset`. */
export interface UnitsToolsetOptions extends Partial<BaseToolsetOptions> {
  /** Decimal places in results (default 2). */
  decimals?: number;
}

class UnitsToolset extends BaseToolset {
  private readonly convertTools: Tool[];

  constructor(options: UnitsToolsetOptions) {
    super({ ...options, name: options.name ?? 'units' });
    const decimals = options.decimals ?? 2;
    this.convertTools = [new ConvertTool(temperature, decimals), new ConvertTool(length, decimals)];
  }

  protected async listTools(): Promise<Tool[]> {
    return this.convertTools;
  }
}

/**
 * The pack's toolset: `convert_temperature` and `convert_length`. Takes the usual toolset
 * options: `toolFilter` (which tools the model sees) and `prefix` (renames them `<prefix>_<name>`).
 */
export function unitsToolset(options: UnitsToolsetOptions = {}): BaseToolset {
  return new UnitsToolset(options);
}
