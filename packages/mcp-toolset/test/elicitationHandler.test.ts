// Elicitation answered in place by the app's handler (like ADK Go's ElicitationHandler): the
// capability is declared only when asked for; a form's answer is checked against the requested
// schema; decline and cancel reach the server. Over SDK-built servers and the real
// server-everything. Bad input tried: a server asking 10,000 times, a 10,000-deep schema, a handler
// answering off-schema or throwing, two calls on one session asking at once.
import type { ToolContext } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { mcpToolset, type McpElicitationHandler, type McpElicitationRequest, type McpTool, type McpToolsetOptions } from '../src/index.js';
import { BOOKING_SCHEMA, elicitServer, type ElicitObserved } from './support/elicitServer.js';
import { EVERYTHING, nodeServer } from './support/realServers.js';
import { inMemoryServer } from './support/sdkServers.js';

function logged(): { ctx: ToolContext; warnings: string[] } {
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (message: string) => void warnings.push(message), error() {} };
  return { ctx: createToolContext({ logger } as never), warnings };
}

async function setup(options: McpToolsetOptions) {
  const observed: ElicitObserved = { calls: [], answers: [], meta: [] };
  const server = inMemoryServer(() => elicitServer(observed));
  const toolset = mcpToolset(server, options);
  const tools = new Map(((await toolset.tools(createToolContext())) as McpTool[]).map((tool) => [tool.name, tool]));
  return { observed, toolset, tool: (name: string) => tools.get(name)! };
}

describe('elicitation answered in place', () => {
  it('a form: the handler sees the message and schema; its answer reaches the server', async () => {
    const seen: McpElicitationRequest[] = [];
    const handler: McpElicitationHandler = (request) => {
      seen.push(request);
      return { action: 'accept', content: { guest: 'Ana', nights: 3 } };
    };
    const { observed, toolset, tool } = await setup({ elicitation: { handler } });
    expect(await tool('book').run(createToolContext(), { city: 'Lisbon' })).toEqual({ output: 'booking Lisbon: {"guest":"Ana","nights":3}' });
    expect(seen).toEqual([{ mode: 'form', message: 'Who stays in Lisbon, and how many nights?', requestedSchema: BOOKING_SCHEMA }]);
    expect(observed.answers).toEqual([{ action: 'accept', content: { guest: 'Ana', nights: 3 } }]);
    await toolset.close();
  });

  it('decline and cancel reach the server as they are', async () => {
    const { observed, toolset, tool } = await setup({ elicitation: { handler: () => ({ action: 'decline' }) } });
    expect(await tool('book').run(createToolContext(), { city: 'Porto' })).toEqual({ output: 'booking Porto: decline' });
    expect(await tool('signin').run(createToolContext(), {})).toEqual({ output: 'signin: decline' });
    expect(observed.answers).toEqual([{ action: 'decline' }, { action: 'decline' }]);
    await toolset.close();
  });

  it('a URL request: the handler sees the URL and message', async () => {
    const seen: McpElicitationRequest[] = [];
    const { toolset, tool } = await setup({ elicitation: { handler: (request) => (seen.push(request), { action: 'accept' }) } });
    expect(await tool('signin').run(createToolContext(), {})).toEqual({ output: 'signin: accept' });
    expect(seen).toEqual([{ mode: 'url', message: 'Sign in to continue', url: 'https://auth.example.test/start', elicitationId: 'e-1' }]);
    await toolset.close();
  });

  it('a server asking twice gets both answers, in order', async () => {
    const answers = [{ action: 'accept', content: { name: 'Ana' } }, { action: 'accept', content: { sure: true } }] as const;
    let i = 0;
    const { toolset, tool } = await setup({ elicitation: { handler: () => answers[i++] } });
    expect(await tool('twice').run(createToolContext(), {})).toEqual({ output: 'first {"name":"Ana"}, second {"sure":true}' });
    await toolset.close();
  });

  it('an answer off the requested schema is not sent: the server gets cancel and the app a warning', async () => {
    const { ctx, warnings } = logged();
    const { observed, toolset, tool } = await setup({ elicitation: { handler: () => ({ action: 'accept', content: { guest: 'Ana', nights: 30 } }) } });
    expect(await tool('book').run(ctx, { city: 'Faro' })).toEqual({ output: 'booking Faro: cancel' });
    expect(observed.answers).toEqual([{ action: 'cancel' }]);
    expect(warnings).toHaveLength(1);
    expect(warnings).toEqual([
      'mcpToolset: the elicitation handler\'s answer for tool "book" was refused (the content does not match the requested schema: nights: must be <= 14); answering cancel',
    ]);
    await toolset.close();
  });

  it('a handler that throws answers cancel, with a warning', async () => {
    const { ctx, warnings } = logged();
    const { toolset, tool } = await setup({ elicitation: { handler: () => { throw new Error('no UI'); } } });
    expect(await tool('book').run(ctx, { city: 'Faro' })).toEqual({ output: 'booking Faro: cancel' });
    expect(warnings).toEqual(['mcpToolset: the elicitation handler failed for tool "book" (no UI); answering cancel']);
    await toolset.close();
  });

  it('hostile: a server asking 10,000 times is answered cancel after maxPerCall, warned once', async () => {
    const { ctx, warnings } = logged();
    let asked = 0;
    const { toolset, tool } = await setup({ elicitation: { handler: () => (asked++, { action: 'accept', content: {} }), maxPerCall: 5 } });
    expect(await tool('spam').run(ctx, {})).toEqual({ output: 'asked 6 times, then cancel' });
    expect(asked).toBe(5);
    expect(warnings).toEqual(['mcpToolset: tool "spam" asked for input more than 5 times in one call (maxPerCall); answering cancel']);
    await toolset.close();
  });

  it('hostile: a 10,000-deep requested schema is refused by the client; the handler never runs', async () => {
    let asked = 0;
    const { toolset, tool } = await setup({ elicitation: { handler: () => (asked++, { action: 'cancel' }) } });
    const { output } = (await tool('deep').run(createToolContext(), {})) as { output: string };
    expect(output).toMatch(/^deep refused: MCP error -32603: \[\n {2}\{\n {4}"code": "invalid_union"/); // the SDK's request check
    expect(asked).toBe(0);
    await toolset.close();
  });

  it('two calls asking at once on one session: MCP cannot tell who asked, so both get cancel, with a warning', async () => {
    const { ctx, warnings } = logged();
    let asked = 0;
    const { toolset, tool } = await setup({ elicitation: { handler: () => (asked++, { action: 'accept', content: { guest: 'x', nights: 1 } }) } });
    const [a, b] = await Promise.all([tool('book').run(ctx, { city: 'A' }), tool('book').run(ctx, { city: 'B' })]);
    expect([a, b]).toEqual([{ output: 'booking A: cancel' }, { output: 'booking B: cancel' }]);
    expect(asked).toBe(0);
    expect(warnings[0]).toBe(
      'mcpToolset: an MCP server asked for input (elicitation/create) while 2 calls ran on its session; MCP does not say which one asked, so it was answered cancel',
    );
    await toolset.close();
  });

  it('without the option the capability is not declared: the server cannot ask', async () => {
    const { toolset, tool } = await setup({});
    // The client has no handler for elicitation/create: the server's request fails, and so does its tool.
    await expect(tool('book').run(createToolContext(), { city: 'Lisbon' })).rejects.toMatchObject({
      code: 'MCP_TOOL_ERROR',
      message: 'Tool execution failed. Details: MCP error -32601: Method not found',
    });
    await toolset.close();
  });
});

describe('elicitation with server-everything over stdio', { timeout: 20_000 }, () => {
  it('its elicitation tool appears only with the capability, and gets the form answer', async () => {
    const plain = mcpToolset(nodeServer(EVERYTHING, ['stdio']));
    const names = (await plain.tools(createToolContext())).map((tool) => tool.name);
    expect(names).not.toContain('trigger-elicitation-request');
    await plain.close();

    const seen: McpElicitationRequest[] = [];
    const toolset = mcpToolset(nodeServer(EVERYTHING, ['stdio']), {
      elicitation: {
        handler: (request) => {
          seen.push(request);
          return request.mode === 'url'
            ? { action: 'accept' }
            : { action: 'accept', content: { name: 'Ana Lima', check: true, email: 'ana@example.test', integer: 7, untitledSingleSelectEnum: 'Joey' } };
        },
      },
    });
    const tools = new Map(((await toolset.tools(createToolContext())) as McpTool[]).map((tool) => [tool.name, tool]));
    const { output } = (await tools.get('trigger-elicitation-request')!.run(createToolContext(), {})) as { output: string };
    expect(seen[0]).toMatchObject({ mode: 'form', message: 'Please provide inputs for the following fields:' });
    expect(output).toContain('✅ User provided the requested information!');
    expect(output).toContain('Ana Lima');
    const url = (await tools.get('trigger-url-elicitation')!.run(createToolContext(), { url: 'https://example.test/pay' })) as { output: string };
    expect(seen[1]).toMatchObject({ mode: 'url', url: 'https://example.test/pay', message: 'Please open the link to complete this action.' });
    expect(url.output).toMatch(/accept/i);
    await toolset.close();
  });
});
