import { ConfigError } from '@adkit/flow';
import type { ReadonlyContext, Tool, Toolset } from '@adkit/flow';
import { allowedTools, keepTools, type ToolPredicate } from './filterToolset.js';
import { assertPrefix, prefixTool } from './prefixTool.js';

/** What every toolset built on `BaseToolset` is configured with. */
export interface BaseToolsetOptions {
  /** The toolset's name, used in error messages. */
  name: string;
  /** Which tools the model sees: a predicate, or the names allowed (PK-5). Applied before `prefix`. */
  toolFilter?: ToolPredicate | readonly string[];
  /** Renames every tool `<prefix>_<name>` (name and declaration), to avoid collisions. */
  prefix?: string;
}

/**
 * A base for toolsets (MCP servers, API packs): subclasses list their tools in `listTools`;
 * `tools(ctx)` then applies the `toolFilter` (on the original names) and the `prefix`. Override
 * `close()` to release connections; the runner calls it when it closes. A `processRequest` the
 * subclass adds runs as is (what it registers is not prefixed; wrap with `prefixToolset` for that).
 */
export abstract class BaseToolset implements Toolset {
  readonly name: string;
  readonly prefix?: string;
  private readonly filter?: ToolPredicate;

  constructor(options: BaseToolsetOptions) {
    const owner = new.target.name || 'BaseToolset';
    if (typeof options?.name !== 'string' || options.name.length === 0)
      throw new ConfigError(`${owner}: name must be a non-empty string such as "github"; it names the toolset in errors.`);
    this.name = options.name;
    const filter = options.toolFilter;
    if (filter !== undefined) {
      if (Array.isArray(filter)) this.filter = allowedTools(filter);
      else if (typeof filter === 'function') this.filter = filter as ToolPredicate;
      else
        throw new ConfigError(
          `${owner} "${this.name}": toolFilter must be a predicate (ctx, tool) => boolean or an array of tool names, got ${filter === null ? 'null' : typeof filter}.`,
        );
    }
    if (options.prefix !== undefined) {
      assertPrefix(`${owner} "${this.name}"`, options.prefix);
      this.prefix = options.prefix;
    }
  }

  /** The toolset's tools, unfiltered and with their original names. */
  protected abstract listTools(ctx: ReadonlyContext): Promise<Tool[]>;

  /** The tools the model sees: `listTools`, then `toolFilter`, then `prefix`. */
  async tools(ctx: ReadonlyContext): Promise<Tool[]> {
    let tools = await this.listTools(ctx);
    if (this.filter) tools = await keepTools(this.name, tools, this.filter, ctx);
    const prefix = this.prefix;
    return prefix === undefined ? tools : tools.map((tool) => prefixTool(tool, prefix));
  }

  /** Releases what the toolset holds (connections, processes); does nothing by default. */
  async close(): Promise<void> {}
}
