import {
  AdkitError,
  ConfigError,
  createLlmRequest,
  isRequestProcessor,
  isResponseDeferrer,
  isRunnableTool,
  isSkipSummarizationResultDisplayer,
  isStreamingTool,
  packTool,
} from '@adkit/flow';
import type {
  FunctionDeclaration,
  GenaiTool,
  LlmRequest,
  RequestProcessor,
  RunnableTool,
  StreamingTool,
  Tool,
  ToolContext,
} from '@adkit/flow';

const PREFIX_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.-]{0,62}$/;

/** Throws a `ConfigError` naming the fix unless `prefix` can start a function name. */
export function assertPrefix(owner: string, prefix: unknown): asserts prefix is string {
  if (typeof prefix !== 'string' || !PREFIX_PATTERN.test(prefix))
    throw new ConfigError(
      `${owner}: prefix must match ${PREFIX_PATTERN} (a letter or underscore, then letters, digits, "_", "." or "-"), got ${typeof prefix === 'string' ? `"${prefix}"` : typeof prefix}; tools are renamed "<prefix>_<name>", e.g. "github_search".`,
    );
}

const wrappers = new WeakMap<Tool, Map<string, Tool>>();

/**
 * The tool renamed `<prefix>_<name>`, in its name and its declaration, so two toolsets can offer
 * tools of the same name. Calls go to the original tool, and the copy has exactly the original's
 * capabilities (run, runStream, …). When the original registers itself in `processRequest`, the
 * renamed tool is registered instead; text it adds to the instructions is left as it is. The same
 * tool and prefix always give the same wrapper.
 */
export function prefixTool(tool: Tool, prefix: string): Tool {
  assertPrefix('prefixTool', prefix);
  if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string')
    throw new ConfigError(`prefixTool: expected a tool ({name, description, ...}), got ${tool === null ? 'null' : typeof tool}.`);
  let byPrefix = wrappers.get(tool);
  if (!byPrefix) wrappers.set(tool, (byPrefix = new Map()));
  let wrapper = byPrefix.get(prefix);
  if (!wrapper) byPrefix.set(prefix, (wrapper = createPrefixedTool(tool, prefix)));
  return wrapper;
}

type PrefixedTool = Tool &
  RequestProcessor &
  Partial<Pick<RunnableTool, 'declaration' | 'run'>> &
  Partial<Pick<StreamingTool, 'runStream'>> & {
    defersResponse?(): boolean;
    displayResultOnSkipSummarization?(): boolean;
  };

function createPrefixedTool(tool: Tool, prefix: string): Tool {
  const name = `${prefix}_${tool.name}`;
  const wrapper: PrefixedTool = {
    name,
    get description() {
      return tool.description;
    },
    get isLongRunning() {
      return tool.isLongRunning;
    },
    get timeoutMs() {
      return tool.timeoutMs;
    },
    processRequest: async (ctx, request) => {
      if (isRequestProcessor(tool)) await processPrefixed(tool, prefix, ctx, request, { tool, wrapper });
      else if (isRunnableTool(tool) || isStreamingTool(tool)) packTool(request, wrapper as RunnableTool);
    },
  };
  const declared = tool as Partial<RunnableTool>;
  if (typeof declared.declaration === 'function') {
    const declaration = declared.declaration.bind(tool);
    wrapper.declaration = () => renamed(declaration(), name);
  }
  if (isRunnableTool(tool)) wrapper.run = (ctx, args) => tool.run(ctx, args);
  if (isStreamingTool(tool)) wrapper.runStream = (ctx, args) => tool.runStream(ctx, args);
  if (isResponseDeferrer(tool)) wrapper.defersResponse = () => tool.defersResponse();
  if (isSkipSummarizationResultDisplayer(tool))
    wrapper.displayResultOnSkipSummarization = () => tool.displayResultOnSkipSummarization();
  return wrapper;
}

function renamed(declaration: FunctionDeclaration | undefined, name: string): FunctionDeclaration | undefined {
  return declaration ? { ...declaration, name } : undefined;
}

/**
 * Runs a request processor so that whatever it registers comes out prefixed: it works on a view
 * of the request with an empty dispatch table (so the original names cannot collide), sharing the
 * contents and config; then each tool it registered is registered as `<prefix>_<key>` (itself as
 * `self.wrapper`) and each declaration it added is renamed the same way.
 */
export async function processPrefixed(
  processor: RequestProcessor,
  prefix: string,
  ctx: ToolContext,
  request: LlmRequest,
  self?: { tool: Tool; wrapper: Tool },
): Promise<void> {
  // The usual case (the tool registers itself) fails before anything changes, like packTool.
  if (self && Object.hasOwn(request.tools, self.wrapper.name)) packTool(request, self.wrapper as RunnableTool);
  const view = createLlmRequest({ model: request.model, contents: request.contents, config: request.config });
  const seen = declarationCounts(request.config.tools);
  await processor.processRequest(ctx, view);
  request.contents = view.contents;
  request.config = view.config;
  if (view.model !== undefined) request.model = view.model;

  for (const entry of request.config.tools ?? []) {
    const declarations = entry.functionDeclarations;
    if (!declarations) continue;
    for (let i = seen.get(entry) ?? 0; i < declarations.length; i++)
      declarations[i] = { ...declarations[i]!, name: `${prefix}_${declarations[i]!.name}` };
  }
  for (const [key, registered] of Object.entries(view.tools)) {
    const name = `${prefix}_${key}`;
    if (Object.hasOwn(request.tools, name))
      throw new AdkitError(
        'DUPLICATE_TOOL',
        `duplicate tool: "${name}". Two tools or toolsets of the agent expose this name; rename one, or use another prefix.`,
      );
    (request.tools as Record<string, Tool>)[name] =
      self && registered === self.tool ? self.wrapper : prefixTool(registered, prefix);
  }
}

function declarationCounts(entries: readonly GenaiTool[] | undefined): Map<GenaiTool, number> {
  const counts = new Map<GenaiTool, number>();
  for (const entry of entries ?? []) counts.set(entry, entry.functionDeclarations?.length ?? 0);
  return counts;
}
