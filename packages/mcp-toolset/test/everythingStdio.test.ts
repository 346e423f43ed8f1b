// MCP-6, MCP-7, MCP-8 against the real @modelcontextprotocol/server-everything over stdio.
// Bad input tried: a handler that throws (isError), arguments of the wrong type and an enum
// violation (the server's -32602 text), a tool that needs MCP tasks, a tool name the server does
// not have, and an image whose base64 must not reach the model as text.
import { responsePartsOf, type ToolContext } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpToolset, type McpTool, type McpToolset } from '../src/index.js';
import { EVERYTHING, nodeServer } from './support/realServers.js';

let toolset: McpToolset;
let tools: Map<string, McpTool>;
const ctx = (): ToolContext => createToolContext({ functionCallId: 'call-1' });

beforeAll(async () => {
  toolset = mcpToolset(nodeServer(EVERYTHING, ['stdio']));
  tools = new Map((await toolset.tools(ctx())).map((tool) => [tool.name, tool as McpTool]));
});
afterAll(() => toolset.close());

const call = (name: string, args: Record<string, unknown> = {}, context = ctx()) => tools.get(name)!.run(context, args);

describe('server-everything over stdio', () => {
  it('MCP-6: lists every tool in the server order, schemas passed through as JSON Schema', () => {
    expect([...tools.keys()]).toEqual([
      'echo',
      'get-annotated-message',
      'get-env',
      'get-resource-links',
      'get-resource-reference',
      'get-structured-content',
      'get-sum',
      'get-tiny-image',
      'gzip-file-as-resource',
      'toggle-simulated-logging',
      'toggle-subscriber-updates',
      'trigger-long-running-operation',
      'simulate-research-query',
    ]);
    const sum = tools.get('get-sum')!.declaration();
    expect(sum).toMatchObject({
      name: 'get-sum',
      parametersJsonSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    });
    expect(sum).not.toHaveProperty('responseJsonSchema');
    expect(tools.get('get-structured-content')!.declaration().responseJsonSchema).toMatchObject({
      type: 'object',
      properties: { temperature: { type: 'number' }, conditions: { type: 'string' }, humidity: { type: 'number' } },
    });
    expect(tools.get('get-sum')!.isLongRunning).toBe(false);
  });

  it('MCP-7: a text result becomes {output: text}', async () => {
    expect(await call('get-sum', { a: 2, b: 3 })).toEqual({ output: 'The sum of 2 and 3 is 5.' });
  });

  it('MCP-7: structuredContent wins over the text blocks', async () => {
    expect(await call('get-structured-content', { location: 'Chicago' })).toEqual({
      output: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 },
    });
  });

  it('MCP-7: isError becomes an error for the model with the server text', async () => {
    await expect(call('get-resource-reference', { resourceType: 'Text', resourceId: 0 })).rejects.toMatchObject({
      code: 'MCP_TOOL_ERROR',
      message: 'Tool execution failed. Details: Invalid resourceId: 0. Must be a finite positive integer.',
    });
  });

  it('MCP-7: arguments the server refuses come back with its validation text', async () => {
    const failure = call('get-sum', { a: 'two', b: 3 });
    await expect(failure).rejects.toMatchObject({ code: 'MCP_TOOL_ERROR' });
    await expect(failure).rejects.toThrow(/^Tool execution failed\. Details: MCP error -32602: Input validation error: Invalid arguments for tool get-sum/);
    await expect(call('get-resource-reference', { resourceType: 'Nope' })).rejects.toThrow(/MCP error -32602/);
  });

  it('a tool that needs task-based execution runs as an MCP task (#29)', async () => {
    const { output } = (await call('simulate-research-query', { topic: 'coral reefs' }))! as { output: string };
    expect(output).toContain('coral reefs');
  });

  it('MCP-8: an image is a label in the text, and travels beside the result as a response part (#30)', async () => {
    const result = await call('get-tiny-image', {}, createToolContext({ functionCallId: 'img-1' }));
    const output = result!.output as string;
    expect(output).toBe(`Here's the image you requested:\n[MCP image: mimeType="image/png", size=4033 bytes]\nThe image above is the MCP logo.`);
    expect(output).not.toMatch(/iVBOR/); // no base64 in the JSON result
    const parts = responsePartsOf(result)!;
    expect(parts.map((part) => part.inlineData!.mimeType)).toEqual(['image/png']);
    expect(Buffer.from(parts[0]!.inlineData!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('MCP-8: resource links and embedded resources become text', async () => {
    const links = (await call('get-resource-links', { count: 2 }))!.output as string;
    expect(links).toBe(
      'Here are 2 resource links to resources available in this server:\n' +
        '[MCP resource link: uri="demo://resource/dynamic/blob/1", mimeType="text/plain", name="Blob Resource 1", description="Resource 1: plaintext resource"]\n' +
        '[MCP resource link: uri="demo://resource/dynamic/text/2", mimeType="text/plain", name="Text Resource 2", description="Resource 2: plaintext resource"]',
    );
    const embedded = (await call('get-resource-reference', { resourceType: 'Text', resourceId: 1 }))!.output as string;
    expect(embedded).toMatch(/\[MCP embedded resource: uri="demo:\/\/resource\/dynamic\/text\/1", mimeType="text\/plain"\]\n/);
  });
});
