import type { FunctionDeclaration, ToolContext } from '@adkit/flow';
import { BaseTool, ToolError } from '@adkit/tool';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { embeddedResource, mediaLabel, type McpMedia } from './formatContent.js';
import type { MediaShelf } from './mediaShelf.js';
import { linkedSignal } from './linkedSignal.js';
import { requestError } from './requestError.js';
import type { HeaderSet, ServerConnections } from './serverConnections.js';

/** What both resource tools share: the connection for the run's header set, limits, media. */
export interface ResourceToolShared {
  readonly connections: ServerConnections;
  readonly headerSet: HeaderSet;
  readonly shelf: MediaShelf;
  readonly timeoutMs: number;
}

/** Reading and listing are safe to repeat on a new session after the connection broke. */
const ALWAYS = () => true;

/** `list_resources`: one page of the server's resources, the templates on the first page. */
export class ListResourcesTool extends BaseTool {
  readonly idempotent = true;
  private readonly declared: FunctionDeclaration;

  constructor(private readonly shared: ResourceToolShared) {
    super({
      name: 'list_resources',
      description:
        'Lists the resources (files, documents, records) the MCP server offers: uri, name, description and type of each. Read one with read_resource. When the answer has nextCursor, call again with it for more.',
      timeoutMs: shared.timeoutMs,
    });
    this.declared = Object.freeze({
      name: this.name,
      description: this.description,
      parametersJsonSchema: {
        type: 'object',
        properties: { cursor: { type: 'string', description: 'The nextCursor of the previous answer, for the next page.' } },
      },
    });
  }

  declaration(): FunctionDeclaration {
    return this.declared;
  }

  async run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const cursor = args.cursor;
    if (cursor !== undefined && typeof cursor !== 'string')
      throw new ToolError('Invalid arguments for tool "list_resources": cursor must be a string (the nextCursor of the previous answer).', {
        code: 'INVALID_ARGUMENTS',
        toolName: this.name,
      });
    const { timeoutMs } = this.shared;
    const { signal, release } = linkedSignal(ctx.signal);
    const options = { signal, timeout: timeoutMs };
    try {
      return await this.shared.connections.connection(this.shared.headerSet).use(async (session) => {
        const page = await session.client.listResources(cursor ? { cursor } : undefined, options);
        const answer: Record<string, unknown> = {
          resources: page.resources.map(({ uri, name, title, description, mimeType, size }) =>
            compact({ uri, name, title, description, mimeType, size }),
          ),
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
      }, ALWAYS);
    } catch (error) {
      throw requestError(ctx, this.name, timeoutMs, 'failed to list MCP resources: ', error);
    } finally {
      release();
    }
  }
}

/** `read_resource`: one resource's contents as text; images and audio also as inline data. */
export class ReadResourceTool extends BaseTool {
  readonly idempotent = true;
  private readonly declared: FunctionDeclaration;

  constructor(private readonly shared: ResourceToolShared) {
    super({
      name: 'read_resource',
      description:
        'Reads one resource of the MCP server by its uri (from list_resources, a resource link, or a filled-in resource template) and returns its contents.',
      timeoutMs: shared.timeoutMs,
    });
    this.declared = Object.freeze({
      name: this.name,
      description: this.description,
      parametersJsonSchema: {
        type: 'object',
        properties: { uri: { type: 'string', description: 'The resource uri, e.g. "file:///notes.txt".' } },
        required: ['uri'],
      },
    });
  }

  declaration(): FunctionDeclaration {
    return this.declared;
  }

  async run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const uri = args.uri;
    if (typeof uri !== 'string' || uri.length === 0)
      throw new ToolError('Invalid arguments for tool "read_resource": uri must be a non-empty string such as "file:///notes.txt".', {
        code: 'INVALID_ARGUMENTS',
        toolName: this.name,
      });
    const { timeoutMs } = this.shared;
    const { signal, release } = linkedSignal(ctx.signal);
    let result: ReadResourceResult;
    try {
      result = await this.shared.connections
        .connection(this.shared.headerSet)
        .use((session) => session.client.readResource({ uri }, { signal, timeout: timeoutMs }), ALWAYS);
    } catch (error) {
      throw requestError(ctx, this.name, timeoutMs, `failed to read MCP resource ${JSON.stringify(uri)}: `, error);
    } finally {
      release();
    }
    const media: McpMedia[] = [];
    const pieces = result.contents.map((content) => {
      const resource = content as Record<string, unknown>;
      const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : '';
      const blob = typeof resource.blob === 'string' ? resource.blob : undefined;
      const kind = mimeType.startsWith('image/') ? 'image' : mimeType.startsWith('audio/') ? 'audio' : undefined;
      if (blob !== undefined && kind) {
        media.push({ kind, mimeType, data: blob });
        return `[MCP embedded resource: uri=${JSON.stringify(resource.uri)}]\n${mediaLabel(kind, mimeType, blob)}`;
      }
      return embeddedResource(resource);
    });
    const output = pieces.join('\n');
    if (media.length > 0)
      this.shared.shelf.put(
        { functionCallId: ctx.functionCallId, invocationId: ctx.invocationId, toolName: ctx.functionCall?.name ?? this.name },
        output,
        media,
      );
    return { output };
  }
}

/** The object without its undefined fields. */
function compact(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (record[key] !== undefined) out[key] = record[key];
  return out;
}
