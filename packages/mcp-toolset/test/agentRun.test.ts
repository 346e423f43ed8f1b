// Whole agent runs (InMemoryRunner + ScriptedModel) with MCP toolsets: the model sees the MCP
// result, images inline, errors as {error}; progress events; per-user headers from the run's
// context; runner.close() stops the server. Bad input tried: a hanging tool in a run, a run
// aborted mid-call, a tool the server reports as failed.
import { InMemoryRunner, LlmAgent, createUserContent, getFunctionResponses, type Event, type RunAsyncRequest } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { mcpToolset, type McpToolset } from '../src/index.js';
import { callServer, type Observed } from './support/callServer.js';
import { EVERYTHING, childProcesses, isAlive, nodeServer } from './support/realServers.js';
import { httpMcpServer, inMemoryServer } from './support/sdkServers.js';
import { waitFor } from './support/waitFor.js';

async function run(toolset: McpToolset, model: ScriptedModel, request: Partial<RunAsyncRequest> = {}) {
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }), autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent('go'), ...request }))
    events.push(event);
  return { runner, events };
}

describe('an agent run with server-everything over stdio', { timeout: 20_000 }, () => {
  it('the model calls an MCP tool and sees its result; the image reaches it inline; runner.close() stops the server', async () => {
    const toolset = mcpToolset(nodeServer(EVERYTHING, ['stdio']));
    const model = new ScriptedModel([
      functionCallResponse([
        { name: 'get-sum', args: { a: 2, b: 3 } },
        { name: 'get-tiny-image', args: {} },
        { name: 'get-resource-reference', args: { resourceType: 'Text', resourceId: 0 } },
      ]),
      textResponse('2 + 3 = 5, and I saw the logo.'),
    ]);
    const { runner, events } = await run(toolset, model);

    const declared = model.requests[0]!.config.tools![0]!.functionDeclarations!.map((declaration) => declaration.name);
    expect(declared).toContain('get-sum');
    const responses = getFunctionResponses(events.find((event) => getFunctionResponses(event).length > 0)!);
    expect(responses.map((response) => response.response)).toEqual([
      { output: 'The sum of 2 and 3 is 5.' },
      { output: `Here's the image you requested:\n[MCP image: mimeType="image/png", size=4033 bytes]\nThe image above is the MCP logo.` },
      { error: 'Tool execution failed. Details: Invalid resourceId: 0. Must be a finite positive integer.' },
    ]);
    // The second model request: the function responses, the image beside its result as a
    // response part (#30: flow's one mechanism; each adapter sends it its provider's way).
    const responsesTurn = model.requests[1]!.contents.at(-1)!;
    expect(responsesTurn.parts!.map((part) => part.functionResponse?.name)).toEqual(['get-sum', 'get-tiny-image', 'get-resource-reference']);
    expect(responsesTurn.parts![1]!.functionResponse!.parts!.map((part) => part.inlineData!.mimeType)).toEqual(['image/png']);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('2 + 3 = 5, and I saw the logo.');
    // The image is saved with its function response (a resumed run sees it too), never in the JSON result.
    expect(JSON.stringify(responses.map((response) => response.response))).not.toContain('iVBOR');
    expect(responses[1]!.parts![0]!.inlineData!.mimeType).toBe('image/png');

    const [pid] = childProcesses(EVERYTHING);
    expect(pid).toBeDefined();
    await runner.close();
    expect(isAlive(pid!)).toBe(false);
    expect(childProcesses(EVERYTHING)).toEqual([]);
  });
});

describe('an agent run with SDK-built servers', () => {
  const setup = () => {
    const observed: Observed = { cancelled: [], calls: [] };
    return { observed, server: inMemoryServer(() => callServer(observed)) };
  };

  it('a hanging tool times out as {error} and the run goes on', async () => {
    const { observed, server } = setup();
    const toolset = mcpToolset(server, { timeoutMs: 150 });
    const model = new ScriptedModel([functionCallResponse([{ name: 'hang', args: {} }, { name: 'ping', args: {} }]), textResponse('ok')]);
    const { events, runner } = await run(toolset, model);
    const responses = getFunctionResponses(events.find((event) => getFunctionResponses(event).length > 0)!);
    expect(responses.map((response) => response.response)).toEqual([{ error: 'Tool "hang" timed out after 150 ms.' }, { output: 'pong' }]);
    await waitFor(() => observed.cancelled.length === 1);
    await runner.close();
  });

  it("the run's abort cancels the MCP request and ends the run", async () => {
    const { observed, server } = setup();
    const toolset = mcpToolset(server);
    const controller = new AbortController();
    const model = new ScriptedModel([functionCallResponse([{ name: 'hang', args: {} }]), textResponse('never')]);
    const running = run(toolset, model, { signal: controller.signal });
    await waitFor(() => observed.calls.includes('hang'));
    controller.abort();
    const { runner } = await running;
    await waitFor(() => observed.cancelled.length === 1);
    expect(model.requests).toHaveLength(1);
    await runner.close();
  });

  it('progress notifications become partial progress events tagged with the call', async () => {
    const { server } = setup();
    const toolset = mcpToolset(server);
    const model = new ScriptedModel([functionCallResponse([{ name: 'steps', args: {}, id: 'call-steps' }]), textResponse('done')]);
    const { events, runner } = await run(toolset, model);
    const progress = events.filter((event) => event.partial && event.toolProgress).map((event) => event.toolProgress);
    expect(progress.slice(0, 2)).toEqual([
      { functionCallId: 'call-steps', toolName: 'steps', fraction: 1 / 3 },
      { functionCallId: 'call-steps', toolName: 'steps', fraction: 2 / 3, message: 'two of three' },
    ]);
    await runner.close();
  });

  it("per-user headers come from the run's context, on the listing and on the call", async () => {
    const http = await httpMcpServer(() => {
      const mcp = new McpServer({ name: 'who', version: '1.0.0' });
      mcp.registerTool('whoami', { description: 'The user the server sees.' }, async (extra) => ({
        content: [{ type: 'text', text: String(extra.requestInfo?.headers['x-user']) }],
      }));
      return mcp;
    });
    const toolset = mcpToolset({
      url: http.url,
      headers: (ctx) => {
        const { user, token } = ctx.context as { user: string; token: string };
        return { 'x-user': user, authorization: `Bearer ${token}` };
      },
    });
    const agent = new LlmAgent({
      name: 'assistant',
      model: new ScriptedModel([
        functionCallResponse([{ name: 'whoami', args: {} }]),
        textResponse('ann'),
        functionCallResponse([{ name: 'whoami', args: {} }]),
        textResponse('bob'),
      ]),
      toolsets: [toolset],
    });
    const runner = new InMemoryRunner({ agent, autoCreateSession: true });
    const answers: unknown[] = [];
    for (const user of ['ann', 'bob'])
      for await (const event of runner.runAsync({ userId: user, sessionId: user, newMessage: createUserContent('who?'), context: { user, token: `secret-of-${user}` } }))
        for (const response of getFunctionResponses(event)) answers.push(response.response);
    expect(answers).toEqual([{ output: 'ann' }, { output: 'bob' }]);
    const seen = http.seen.filter((request) => request.httpMethod === 'POST');
    expect(seen.filter((r) => r.rpcMethods.includes('tools/list')).map((r) => r.headers['x-user'])).toEqual(['ann', 'bob']);
    expect(seen.filter((r) => r.rpcMethods.includes('tools/call')).map((r) => r.headers['x-user'])).toEqual(['ann', 'bob']);
    // The context never reaches the session.
    const session = await runner.sessionService.getSession({ appName: runner.appName, userId: 'ann', sessionId: 'ann' });
    expect(seen.every((request) => request.headers.authorization === `Bearer secret-of-${request.headers['x-user']}`)).toBe(true);
    expect(JSON.stringify(session)).not.toContain('secret-of');
    await runner.close();
    await http.close();
  });
});
