import { withResponseParts } from '@adkit/flow';
import type { FunctionDeclaration, ToolContext } from '@adkit/flow';
import { BaseTool, ToolError } from '@adkit/tool';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { embeddedResource, mediaLabel, type McpMedia } from './formatContent.js';
import type { McpSession } from './mcpSession.js';
import { withRequestSignal } from './withRequestSignal.js';
import { requestError } from './requestError.js';
import type { HeaderSet, ServerConnections } from './serverConnections.js';

/** What both resource tools share: the connection for the run's header set, limits, media. */
export interface ResourceToolShared {
  readonly connections: ServerConnections;
  readonly headerSet: HeaderSet;
  readonly timeoutMs: number;
}

/**
 * A tool asking the server for resources: declared with a string-argument schema, its requests
 * bounded by the timeout and the call's signal, and — reading being safe to repeat — sent again
 * on a new session when the connection broke.
 */
abstract class ResourceTool extends BaseTool {
  private readonly declared: FunctionDeclaration;

  constructor(
    protected readonly shared: ResourceToolShared,
    name: string,
    description: string,
    argument: { name: string; description: string; required: boolean },
  ) {
    super({ name, description, timeoutMs: shared.timeoutMs, idempotent: true });
    this.declared = Object.freeze({
      name,
      description,
      parametersJsonSchema: {
        type: 'object',
        properties: { [argument.name]: { type: 'string', description: argument.description } },
        ...(argument.required ? { required: [argument.name] } : {}),
      },
    });
  }

  declaration(): FunctionDeclaration {
    return this.declared;
  }

  /** Runs `operation` on the session; failures become errors for the model, prefixed by `failed`. */
  protected async request<T>(ctx: ToolContext, failed: string, operation: (session: McpSession, options: RequestOptions) => Promise<T>): Promise<T> {
    const signal = ctx.signal;
    const timeout = this.shared.timeoutMs;
    try {
      return await this.shared.connections
        .connection(this.shared.headerSet)
        .use((session) => withRequestSignal(signal, (own) => operation(session, { signal: own, timeout })), () => true);
    } catch (error) {
      throw requestError(ctx, this.name, this.shared.timeoutMs, failed, error);
    }
  }

  protected invalid(problem: string): ToolError {
    return new ToolError(`Invalid arguments for tool "${this.name}": ${problem}.`, { code: 'INVALID_ARGUMENTS', toolName: this.name });
  }
}

/** `list_resources`: one page of the server's resources, the templates on the first page. */
export class ListResourcesTool extends ResourceTool {
  constructor(shared: ResourceToolShared) {
    super(
      shared,
      'list_resources',
      'Lists the resources (files, documents, records) the MCP server offers: uri, name, description and type of each. Read one with read_resource. When the answer has nextCursor, call again with it for more.',
      { name: 'cursor', description: 'The nextCursor of the previous answer, for the next page.', required: false },
    );
  }

  async run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const cursor = args.cursor;
    if (cursor !== undefined && typeof cursor !== 'string') throw this.invalid('cursor must be a string (the nextCursor of the previous answer)');
    return this.request(ctx, 'failed to list MCP resources: ', async (session, options) => {
      const page = await session.client.listResources(cursor ? { cursor } : undefined, options);
      const answer: Record<string, unknown> = {
        resources: page.resources.map(({ uri, name, title, description, mimeType, size }) => compact({ uri, name, title, description, mimeType, size })),
      };
      if (page.nextCursor) answer.nextCursor = page.nextCursor;
      if (!cursor) {
        const templates = await session.client.listResourceTemplates(undefined, options).catch(() => undefined);
        if (templates && templates.resourceTemplates.length > 0)
          answer.resourceTemplates = templates.resourceTemplates.map(({ uriTemplate, name, title, description, mimeType }) =>
            compact({ uriTemplate, name, title, description, mimeType }),
          );
      }
      return answer;
    });
  }
}

/** `read_resource`: one resource's contents as text; images and audio also as inline data. */
export class ReadResourceTool extends ResourceTool {
  constructor(shared: ResourceToolShared) {
    super(
      shared,
      'read_resource',
      'Reads one resource of the MCP server by its uri (from list_resources, a resource link, or a filled-in resource template) and returns its contents.',
      { name: 'uri', description: 'The resource uri, e.g. "file:///notes.txt".', required: true },
    );
  }

  async run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const uri = args.uri;
    if (typeof uri !== 'string' || uri.length === 0) throw this.invalid('uri must be a non-empty string such as "file:///notes.txt"');
    const result = await this.request(ctx, `failed to read MCP resource ${JSON.stringify(uri)}: `, (session, options) =>
      session.client.readResource({ uri }, options),
    );
    const media: McpMedia[] = [];
    const pieces = result.contents.map((content) => {
      const resource = content as Record<string, unknown>;
      const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : '';
      const blob = typeof resource.blob === 'string' ? resource.blob : undefined;
      const kind = mimeType.startsWith('image/') ? 'image' : mimeType.startsWith('audio/') ? 'audio' : undefined;
      if (blob === undefined || !kind) return embeddedResource(resource);
      media.push({ kind, mimeType, data: blob });
      return `[MCP embedded resource: uri=${JSON.stringify(resource.uri)}]\n${mediaLabel(kind, mimeType, blob)}`;
    });
    const output = pieces.join('\n');
    if (media.length === 0) return { output };
    // The blobs go beside the result as response parts (#30), the labels stay in `output`.
    return withResponseParts({ output }, media.map((item) => ({ inlineData: { mimeType: item.mimeType, data: item.data } })));
  }
}

/** The object without its undefined fields. */
function compact(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (record[key] !== undefined) out[key] = record[key];
  return out;
}
