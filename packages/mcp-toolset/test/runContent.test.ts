// ADK Go's TestMCPToolRunContent (tool/mcptoolset), case by case, through a real McpTool calling
// an SDK-built server that answers each case's result (#23 point 17, MCP-8): a blob shown decoded
// as text has no `size=`; a malformed media type (`text/plain extra`) is not decodable, so its
// blob is metadata only. Go's byte slices are base64 here, as they are on the wire.
import { createToolContext } from '@adkit/flow/testing';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { mcpToolset, type McpTool } from '../src/index.js';
import { formatContent } from '../src/formatContent.js';
import { inMemoryServer } from './support/sdkServers.js';

const b64 = (value: string | number[]) => Buffer.from(typeof value === 'string' ? value : Uint8Array.from(value)).toString('base64');
const embedded = (uri: string, mimeType: string, fields: { text?: string; blob?: string }) => ({
  type: 'resource',
  resource: { uri, mimeType, ...fields },
});
const hi16 = b64([0x68, 0x00, 0x69, 0x00]);

interface Case {
  name: string;
  result: Record<string, unknown>;
  want?: unknown;
  wantErr?: string;
  /** The SDK client's result schema would strip (text and blob together) or refuse (an unknown block type) it on the wire. */
  direct?: true;
}

const cases: Case[] = [
  { name: 'text only remains compatible', result: { content: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }] }, want: 'firstsecond' },
  {
    name: 'GitHub file response includes embedded text',
    result: {
      content: [
        { type: 'text', text: 'successfully downloaded text file' },
        embedded('repo://owner/project/main/file.go', 'text/plain', { text: 'package example\n' }),
      ],
    },
    want: 'successfully downloaded text file\n[MCP embedded resource: uri="repo://owner/project/main/file.go", mimeType="text/plain"]\npackage example\n',
  },
  {
    name: 'multiline embedded body is separated from following text',
    result: { content: [embedded('file:///multiline.txt', 'text/plain', { blob: b64('line1\nline2') }), { type: 'text', text: 'tail' }] },
    want: '[MCP embedded resource: uri="file:///multiline.txt", mimeType="text/plain"]\nline1\nline2\ntail',
  },
  {
    name: 'embedded text reports an accompanying blob',
    result: { content: [embedded('file:///response.txt', 'text/plain', { text: 'caption', blob: b64([1, 2, 3, 4]) })] },
    want: '[MCP embedded resource: uri="file:///response.txt", mimeType="text/plain", size=4 bytes]\ncaption',
    direct: true,
  },
  {
    name: 'text MIME blob is decoded',
    result: { content: [embedded('file:///response.json', 'application/problem+json; charset=utf-8', { blob: b64('{"status":"ok"}') })] },
    want: '[MCP embedded resource: uri="file:///response.json", mimeType="application/problem+json; charset=utf-8"]\n{"status":"ok"}',
  },
  {
    name: 'binary resource is represented by metadata',
    result: { content: [embedded('file:///report.pdf', 'application/pdf', { blob: b64([1, 2, 3, 4]) })] },
    want: '[MCP embedded resource: uri="file:///report.pdf", mimeType="application/pdf", size=4 bytes]',
  },
  {
    name: 'empty blob is represented by metadata without size',
    result: { content: [embedded('file:///empty.pdf', 'application/pdf', { blob: '' })] },
    want: '[MCP embedded resource: uri="file:///empty.pdf", mimeType="application/pdf"]',
  },
  {
    name: 'empty text blob has no trailing newline',
    result: { content: [embedded('file:///empty.txt', 'text/plain', { blob: '' })] },
    want: '[MCP embedded resource: uri="file:///empty.txt", mimeType="text/plain"]',
  },
  ...(
    [
      ['unsupported text charset is represented by metadata', 'file:///utf16.txt', 'text/plain; charset=utf-16', b64('hi'), 2],
      ['unsupported extended charset is represented by metadata', 'file:///utf16-star.txt', 'text/plain; charset*=utf-16', hi16, 4],
      ['unterminated quoted parameter is represented by metadata', 'file:///unterminated.txt', 'text/plain; name="a; charset=utf-16', hi16, 4],
      ['mid-token quotes are represented by metadata', 'file:///mid-token.txt', 'text/plain; name=a"; charset=utf-16; x="b', hi16, 4],
      ['quoted charset name is represented by metadata', 'file:///quoted-name.txt', 'text/plain; "charset"=utf-16', hi16, 4],
      ['empty parameter name before quote is represented by metadata', 'file:///empty-name.txt', 'text/plain; ="a; charset=utf-16"', hi16, 4],
      ['invalid parameter name before quote is represented by metadata', 'file:///invalid-name.txt', 'text/plain; bad name="a; charset=utf-16"', hi16, 4],
      ['carriage return inside quoted value is represented by metadata', 'file:///quoted-cr.txt', 'text/plain; name="a\r; charset=utf-16"', hi16, 4],
      ['line feed inside quoted value is represented by metadata', 'file:///quoted-lf.txt', 'text/plain; name="a\n; charset=utf-16"', hi16, 4],
      ['non-ASCII byte is represented by metadata', 'file:///non-ascii.txt', 'text/plain; charset=us-ascii', b64([0x80]), 1],
      ['malformed charset is represented by metadata', 'file:///utf16.txt', 'text/plain; charset="utf-16', hi16, 4],
      ['malformed media type is represented by metadata', 'file:///invalid.txt', 'text/plain extra', b64('hello'), 5],
      ['invalid UTF-8 text blob is represented by metadata', 'file:///invalid.txt', 'text/plain', b64([0xc3, 0x28]), 2],
    ] as const
  ).map(([name, uri, mimeType, blob, size]) => ({
    name,
    result: { content: [embedded(uri, mimeType, { blob })] },
    want: `[MCP embedded resource: uri=${JSON.stringify(uri)}, mimeType=${JSON.stringify(mimeType)}, size=${size} bytes]`,
  })),
  ...(
    [
      ['charset text inside quoted value does not block decoding', 'file:///quoted-value.txt', 'text/plain; name="foo;charset=utf-16" invalid'],
      ['US-ASCII text blob is decoded', 'file:///ascii.txt', 'text/plain; charset=us-ascii'],
      ['ASCII alias text blob is decoded', 'file:///ascii-alias.txt', 'text/plain; charset=ascii'],
      ['text blob with malformed unrelated parameter is decoded', 'file:///notes.txt', 'text/plain; name=my file.txt'],
      ['charset-like parameter name does not block decoding', 'file:///notes.txt', 'text/plain; x-charset-note='],
    ] as const
  ).map(([name, uri, mimeType]) => ({
    name,
    result: { content: [embedded(uri, mimeType, { blob: b64('hello') })] },
    want: `[MCP embedded resource: uri=${JSON.stringify(uri)}, mimeType=${JSON.stringify(mimeType)}]\nhello`,
  })),
  {
    name: 'form URL encoded blob is decoded',
    result: { content: [embedded('file:///form.txt', 'application/x-www-form-urlencoded', { blob: b64('name=alice&active=true') })] },
    want: '[MCP embedded resource: uri="file:///form.txt", mimeType="application/x-www-form-urlencoded"]\nname=alice&active=true',
  },
  {
    name: 'JSON blob with malformed unrelated parameter is decoded',
    result: { content: [embedded('file:///response.json', 'application/json; profile=https://example.com/schema', { blob: b64('{"status":"ok"}') })] },
    want: '[MCP embedded resource: uri="file:///response.json", mimeType="application/json; profile=https://example.com/schema"]\n{"status":"ok"}',
  },
  {
    name: 'resource link includes available metadata',
    result: {
      content: [
        {
          type: 'resource_link',
          uri: 'https://example.com/archive.txt',
          name: 'archive.txt',
          title: 'Archive',
          description: 'Large text file',
          mimeType: 'text/plain',
          size: 1 << 20,
        },
      ],
    },
    want: '[MCP resource link: uri="https://example.com/archive.txt", mimeType="text/plain", name="archive.txt", title="Archive", description="Large text file", size=1048576 bytes]',
  },
  {
    name: 'image and audio are represented in order',
    result: {
      content: [
        { type: 'text', text: 'media:' },
        { type: 'image', mimeType: 'image/png', data: b64([1, 2, 3]) },
        { type: 'audio', mimeType: 'audio/wav', data: b64([4, 5]) },
        { type: 'text', text: '' },
        { type: 'text', text: 'done' },
      ],
    },
    want: 'media:\n[MCP image: mimeType="image/png", size=3 bytes]\n[MCP audio: mimeType="audio/wav", size=2 bytes]\ndone',
  },
  { name: 'image without MIME type omits MIME metadata', result: { content: [{ type: 'image', mimeType: '', data: b64([1, 2]) }] }, want: '[MCP image: size=2 bytes]' },
  {
    name: 'empty leading block does not add a separator',
    result: { content: [{ type: 'text', text: '' }, { type: 'image', mimeType: 'image/png', data: b64([1]) }] },
    want: '[MCP image: mimeType="image/png", size=1 bytes]',
  },
  {
    name: 'unsupported content is represented in order',
    result: { content: [{ type: 'text', text: 'before' }, { type: 'video' }, { type: 'text', text: 'after' }] },
    want: 'before\n[MCP content: unsupported]\nafter',
    direct: true,
  },
  {
    name: 'existing newline precedes non-text content',
    result: { content: [{ type: 'text', text: 'downloaded\n' }, { type: 'resource_link', uri: 'https://example.com/file', name: '' }] },
    want: 'downloaded\n[MCP resource link: uri="https://example.com/file"]',
  },
  {
    name: 'existing newline follows non-text content',
    result: { content: [{ type: 'image', mimeType: 'image/png', data: b64([1]) }, { type: 'text', text: '\nnotes' }] },
    want: '[MCP image: mimeType="image/png", size=1 bytes]\nnotes',
  },
  {
    name: 'structured output takes precedence over mixed content',
    result: {
      structuredContent: { sha: 'abc123' },
      content: [{ type: 'text', text: 'downloaded' }, embedded('repo://owner/project/file.txt', 'text/plain', { text: 'file contents' })],
    },
    want: { sha: 'abc123' },
  },
  {
    name: 'structured output with text only remains compatible',
    result: { structuredContent: { status: 'ok' }, content: [{ type: 'text', text: '{"status":"ok"}' }] },
    want: { status: 'ok' },
  },
  {
    name: 'error response includes non-text details',
    result: {
      isError: true,
      content: [
        { type: 'text', text: 'download failed' },
        { type: 'resource_link', uri: 'https://example.com/error', mimeType: 'text/plain', name: '' },
      ],
    },
    wantErr: 'Tool execution failed. Details: download failed\n[MCP resource link: uri="https://example.com/error", mimeType="text/plain"]',
  },
  { name: 'error response without details omits details suffix', result: { isError: true, content: [{ type: 'text', text: '' }] }, wantErr: 'Tool execution failed.' },
  { name: 'empty content returns empty output', result: { content: [] }, want: '' },
  { name: 'all-empty text content returns empty output', result: { content: [{ type: 'text', text: '' }, { type: 'text', text: '' }] }, want: '' },
];

/** A low-level server (no result validation, like Go's fixed client): tool `case` answers cases[index]. */
function fixedResults(): Server {
  const server = new Server({ name: 'fixed', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'test_tool', inputSchema: { type: 'object', properties: { index: { type: 'number' } } } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => cases[Number(request.params.arguments?.index)]!.result as never);
  return server;
}

const toolset = mcpToolset(inMemoryServer(fixedResults));
afterAll(() => toolset.close());

describe('TestMCPToolRunContent (ADK Go), #23 point 17', () => {
  it.each(cases.map((c, index) => [c.name, index] as const))('%s', async (_name, index) => {
    const [tool] = (await toolset.tools(createToolContext())) as McpTool[];
    const { want, wantErr, direct, result } = cases[index]!;
    if (direct) return void expect(formatContent(result.content as unknown[]).text).toBe(want);
    const run = tool!.run(createToolContext(), { index });
    if (wantErr !== undefined) await expect(run).rejects.toMatchObject({ message: wantErr });
    else expect(await run).toEqual({ output: want });
  });
});
