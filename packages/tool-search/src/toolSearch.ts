import {
  ConfigError,
  errorMessage,
  isClosable,
  isRequestProcessor,
  isRunnableTool,
  isStreamingTool,
  isToolset,
  quoted,
  type LlmRequest,
  type ReadonlyContext,
  type RequestContext,
  type Tool,
  type ToolSelectionArgs,
  type ToolSelector,
  type Toolset,
} from '@adkit/flow';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { loadedToolsKey, readLoaded, writeLoaded, type ToolSearchScope } from './loadedTools.js';
import { MAX_QUERY_CHARS, ToolCatalog, type ToolMatch } from './toolCatalog.js';

/** The name of the tool the model searches with. */
export const SEARCH_TOOLS = 'search_tools';

/** Options of `toolSearch`. */
export interface ToolSearchOptions {
  /** The toolset's name (in messages, and in the state key of the loaded tools). Default `tool_search`. */
  name?: string;
  /** Names of tools declared on every step, searched or not (the few the agent always needs). */
  alwaysOn?: readonly string[];
  /** At most this many found tools are declared at once; a later search swaps the oldest out. Default 20. */
  maxLoaded?: number;
  /** At most this many tools per search. Default 5 (never more than `maxLoaded`). */
  maxResults?: number;
  /**
   * `run` (default): found tools stay declared until the run ends (a `temp:` state key).
   * `session`: they stay for the session's later runs too, kept in session state, so they
   * survive a restart and follow the session to another runner.
   */
  scope?: ToolSearchScope;
}

/** What `toolSearch` returns: a toolset that declares `search_tools`, the always-on tools and what the model found. */
export interface ToolSearchToolset extends Toolset, ToolSelector {
  /** The state key where the loaded tool names are kept (oldest first). */
  readonly stateKey: string;
  processRequest(ctx: RequestContext, request: LlmRequest): Promise<void>;
  close(): Promise<void>;
}

interface Listing {
  catalog: ToolCatalog;
  search: Tool;
}

function positiveInteger(value: number | undefined, fallback: number, label: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new ConfigError(`toolSearch: ${label} must be a positive whole number, got ${String(value)}; leave it out for ${fallback}.`);
  return value;
}

/**
 * Tool search for large catalogs: the model is sent `search_tools(query)` and the `alwaysOn`
 * tools instead of every declaration; the tools a search finds are declared from the next step
 * on, for the rest of the run (or the session, with `scope: 'session'`). Ranking is full-text
 * (MiniSearch) over tool names, descriptions and parameter names. Every tool of the sources stays
 * callable by paused calls that resume (confirmations, long-running answers).
 */
export function toolSearch(sources: readonly (Tool | Toolset)[], options: ToolSearchOptions = {}): ToolSearchToolset {
  if (!Array.isArray(sources)) throw new ConfigError('toolSearch: pass a list of toolsets and tools, e.g. toolSearch([githubToolset]).');
  const name = options.name ?? 'tool_search';
  if (typeof name !== 'string' || name === '') throw new ConfigError('toolSearch: name must be a non-empty string; leave it out for "tool_search".');
  const maxLoaded = positiveInteger(options.maxLoaded, 20, 'maxLoaded');
  const maxResults = Math.min(positiveInteger(options.maxResults, 5, 'maxResults'), maxLoaded);
  const scope = options.scope ?? 'run';
  if (scope !== 'run' && scope !== 'session') throw new ConfigError(`toolSearch: scope must be 'run' or 'session', got ${JSON.stringify(scope)}.`);
  const alwaysOn = new Set(options.alwaysOn ?? []);
  for (const [i, entry] of sources.entries())
    if (!entry || typeof entry.name !== 'string') throw new ConfigError(`toolSearch: sources[${i}] is not a tool or toolset (it has no name).`);
  const toolsets = sources.filter((entry): entry is Toolset => isToolset(entry));
  const ownTools = sources.filter((entry): entry is Tool => !isToolset(entry));
  const stateKey = loadedToolsKey(name, scope);
  // The catalog's declared tools that are hidden until found (every one but the always-on).
  const deferred = new WeakSet<Tool>();
  let last: Listing | undefined;

  const makeSearchTool = (catalog: ToolCatalog): Tool =>
    functionTool({
      name: SEARCH_TOOLS,
      description:
        `Finds tools for a task among ${catalog.tools.length} tools that are not declared yet. ` +
        'Describe the task in a few words (e.g. "create an issue"); the tools found can be called from your next step on.',
      parameters: Type.Object({
        query: Type.String({ minLength: 1, maxLength: MAX_QUERY_CHARS, description: 'What you want to do, in a few words.' }),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: maxResults, description: `How many tools at most (default ${maxResults}).` })),
      }),
      execute: ({ query, limit }, ctx) => {
        const matches = catalog.search(query, limit ?? maxResults);
        const found = matches.filter((match) => isDeferred(catalog.get(match.name)));
        writeLoaded(ctx.state, stateKey, found.map((match) => match.name), maxLoaded, (tool) => isDeferred(catalog.get(tool)));
        if (matches.length === 0)
          return { tools: [] as ToolMatch[], note: `No tool matches "${quoted(query)}". Try other words, or answer without a tool.` };
        return { tools: matches, note: 'These tools can be called from your next step on.' };
      },
    });

  const isDeferred = (tool: Tool | undefined): boolean => tool !== undefined && deferred.has(tool);

  const list = async (context: ReadonlyContext): Promise<Listing> => {
    const listings = await Promise.allSettled(toolsets.map((toolset) => toolset.tools(context)));
    const tools: Tool[] = [];
    const names = new Set<string>([SEARCH_TOOLS]);
    const add = (tool: Tool, from: string) => {
      const declared = isRunnableTool(tool) || isStreamingTool(tool);
      if (declared && names.has(tool.name)) {
        context.logger.warn(`adkit: toolSearch "${quoted(name)}": tool "${quoted(tool.name)}" of ${from} is left out: another tool (or search_tools) has that name.`);
        return;
      }
      if (declared) names.add(tool.name);
      tools.push(tool);
    };
    for (const tool of ownTools) add(tool, 'the tools given');
    for (const [i, listing] of listings.entries()) {
      const label = `toolset "${quoted(toolsets[i]!.name)}"`;
      if (listing.status === 'rejected' || !Array.isArray(listing.value)) {
        const reason = listing.status === 'rejected' ? errorMessage(listing.reason) : 'tools() did not return a list';
        context.logger.warn(`adkit: toolSearch "${quoted(name)}": ${label} is left out: ${reason}`);
        continue;
      }
      for (const tool of listing.value) if (tool && typeof tool.name === 'string') add(tool, label);
    }
    // A run whose sources list the very same tools reuses the catalog and its index.
    if (last && last.catalog.tools.length === tools.length && tools.every((tool, i) => tool === last!.catalog.tools[i])) return last;
    for (const tool of tools) if ((isRunnableTool(tool) || isStreamingTool(tool)) && !alwaysOn.has(tool.name)) deferred.add(tool);
    const catalog = new ToolCatalog(tools);
    last = { catalog, search: makeSearchTool(catalog) };
    return last;
  };

  return {
    name,
    stateKey,
    async tools(context) {
      const listing = await list(context);
      return [listing.search, ...listing.catalog.tools];
    },
    selectTools({ context, tools }: ToolSelectionArgs) {
      if (!tools.some((tool) => deferred.has(tool))) return undefined;
      const loaded = new Set(readLoaded(context.state, stateKey));
      return tools.filter((tool) => !deferred.has(tool) || loaded.has(tool.name));
    },
    async processRequest(ctx, request) {
      for (const toolset of toolsets) if (isRequestProcessor(toolset)) await toolset.processRequest(ctx, request);
    },
    async close() {
      await Promise.all(toolsets.filter(isClosable).map((toolset) => toolset.close()));
    },
  };
}
