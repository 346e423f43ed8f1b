import { appendInstructions, errorMessage, quoted } from '@adkit/flow';
import type { Content, FunctionDeclaration, LlmRequest, RequestContext, ToolContext } from '@adkit/flow';
import { BaseTool, ToolError } from '@adkit/tool';
import { partForModel } from './partForModel.js';

const NAME = 'load_artifacts';

class LoadArtifactsTool extends BaseTool {
  private readonly declared: FunctionDeclaration;

  constructor() {
    super({ name: NAME, description: 'Loads the artifacts and adds them to the session.' });
    this.declared = Object.freeze({
      name: this.name,
      description: this.description,
      parametersJsonSchema: { type: 'object', properties: { artifact_names: { type: 'array', items: { type: 'string' } } } },
    });
  }

  declaration(): FunctionDeclaration {
    return this.declared;
  }

  /** BT-1: echoes the names; the content follows on the next request (processRequest). */
  async run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new ToolError(`unexpected args type, got: ${kindOf(args)}`, { toolName: NAME });
    const names = artifactNames(args.artifact_names, (message) => new ToolError(message, { toolName: NAME, code: 'INVALID_ARGUMENTS' }));
    if (names.length === 0) return { artifact_names: [] };
    // Unknown names are answered now, so the next request never fails on them.
    const available = new Set(await ctx.listArtifacts());
    const unknown = names.filter((name) => !available.has(name));
    if (unknown.length > 0)
      throw new ToolError(
        `Unknown artifact${unknown.length > 1 ? 's' : ''}: ${someNames(unknown)}. ` +
          (available.size > 0
            ? `Available: ${someNames([...available])}. Call load_artifacts with names from this list.`
            : 'This session has no artifacts.'),
        { toolName: NAME, code: 'INVALID_ARGUMENTS' },
      );
    return { artifact_names: names };
  }

  /** BT-2, every step: register, list the artifacts in the instruction, inject what was just asked for. */
  override async processRequest(ctx: RequestContext, request: LlmRequest): Promise<void> {
    await super.processRequest(ctx, request);
    let available: string[];
    try {
      available = await ctx.listArtifacts();
    } catch (error) {
      throw new Error(`failed to list artifacts: ${errorMessage(error)}`, { cause: error });
    }
    if (available.length > 0)
      appendInstructions(request, [
        `You have a list of artifacts:\n  ${JSON.stringify(available)}\n\n` +
          'When the user asks questions about any of the artifacts, you should call the `load_artifacts` function ' +
          'to load the artifact. Do not generate any text other than the function call. Whenever you are asked ' +
          'about artifacts, you should first load it. You must always load an artifact to access its content, ' +
          'even if it has been loaded before.',
      ]);
    const names = requestedNames(request.contents.at(-1));
    if (names.length === 0) return;
    const parts = await Promise.all(
      names.map(async (name) => {
        try {
          return partForModel(await ctx.loadArtifact(name), name);
        } catch (error) {
          throw new Error(`failed to load artifact ${quoted(name)}: ${errorMessage(error)}`, { cause: error });
        }
      }),
    );
    for (const [i, name] of names.entries()) request.contents.push({ role: 'user', parts: [{ text: `Artifact ${name} is:` }, parts[i]!] });
  }
}

/**
 * The names every `load_artifacts` response in the last content asks for, in order, once each
 * (BT-2). ADK Python reads only the first part; this reads every part, as ADK Go does, so a
 * `load_artifacts` call made beside other calls is served too.
 */
function requestedNames(last: Content | undefined): string[] {
  const names = new Set<string>();
  for (const part of last?.parts ?? []) {
    const response = part.functionResponse;
    if (response?.name !== NAME || !response.response || !Object.hasOwn(response.response, 'artifact_names')) continue;
    for (const name of artifactNames(response.response.artifact_names, (message) => new Error(message))) names.add(name);
  }
  return [...names];
}

/** `artifact_names` as a list of strings, once each; missing or null is an empty list (BT-1). */
function artifactNames(value: unknown, fail: (message: string) => Error): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw fail(`artifact_names must be a list of artifact names, got ${kindOf(value)}; call load_artifacts with {"artifact_names": ["report.txt"]}.`);
  // A Set: a model can send 100,000 names, and a quadratic check would stall the process.
  const names = new Set<string>();
  value.forEach((name: unknown, i) => {
    if (typeof name !== 'string') throw fail(`invalid artifact name type at index ${i}: ${kindOf(name)}, expected string`);
    names.add(name);
  });
  return [...names];
}

/** How many names an error message lists before it says how many more there are. */
const LISTED_NAMES = 20;

/** The names quoted, the first 20 of them and a count of the rest, so an error stays short. */
function someNames(names: readonly string[]): string {
  const listed = names.slice(0, LISTED_NAMES).map((n) => JSON.stringify(quoted(n))).join(', ');
  return names.length > LISTED_NAMES ? `${listed} and ${names.length - LISTED_NAMES} more` : listed;
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/**
 * `load_artifacts` (BT-1, BT-2): lets the model read the session's artifacts (and the user's
 * `user:` ones). Every request lists the artifact names in the system instruction; the model calls
 * `load_artifacts({artifact_names})`, the call answers with the names (unknown names get an error
 * listing the available ones), and on the next request each artifact follows that answer as a user
 * content `["Artifact <name> is:", <part>]`, loaded in parallel: images, audio and PDF as inline
 * data, text-like data decoded, other binaries as a placeholder naming type and size. A failing
 * artifact service fails the step.
 *
 * ```ts
 * new LlmAgent({ name: 'analyst', model, tools: [loadArtifacts] })
 * ```
 */
export const loadArtifacts: BaseTool = new LoadArtifactsTool();

/**
 * @deprecated Renamed `loadArtifacts`: a ready-made tool is named after the tool, without a suffix;
 * `…Tool` and `…Toolset` mark functions that make one (CONTRIBUTING.md). This name still works in
 * this release and is removed in the next one.
 */
export const loadArtifactsTool = loadArtifacts;
