// #23 point 9 with real MCP servers over stdio: a server that never answers `initialize`, and one
// that lists a malformed tool (`required: "x"`), are left out of the run with a warning and an
// error event naming the toolset; the agent's other tools (a working MCP server among them) keep
// working and the model is called. runner.close() stops every child at once, the silent one too.
import { fileURLToPath } from 'node:url';
import { InMemoryRunner, LlmAgent, createUserContent, getFunctionResponses, type Event, type Toolset } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { mcpToolset } from '../src/index.js';
import { childProcesses, isAlive, nodeServer } from './support/realServers.js';

const RAW = fileURLToPath(new URL('./fixtures/rawStdioServer.mjs', import.meta.url));
const PID_SERVER = fileURLToPath(new URL('./fixtures/pidServer.mjs', import.meta.url));

async function run(toolsets: Toolset[], model: ScriptedModel, toolsetTimeoutMs?: number) {
  const warnings: string[] = [];
  const agent = new LlmAgent({ name: 'assistant', model, toolsets, ...(toolsetTimeoutMs ? { toolsetTimeoutMs } : {}) });
  const runner = new InMemoryRunner({ agent, autoCreateSession: true, logger: { warn: (m) => warnings.push(m), error: (m) => warnings.push(m) } });
  const events: Event[] = [];
  try {
    for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent('go') })) events.push(event);
  } finally {
    await runner.close();
  }
  return { events, warnings };
}

const declared = (model: ScriptedModel, step = 0) => model.requests[step]!.config.tools![0]!.functionDeclarations!.map((d) => d.name);

describe('#23 point 9: real MCP servers that fail to list', { timeout: 30_000 }, () => {
  it('a server that never answers initialize is left out after toolsetTimeoutMs; the working server\'s tool is called', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'whoami', args: {} }]), textResponse('done')]);
    // The flow gives up after 500 ms; runner.close() then ends the connect still waiting for
    // initialize at once, instead of after the toolset's connectTimeoutMs (30 s by default).
    const silent = mcpToolset(nodeServer(RAW, ['silent']), { name: 'silent' });
    const working = mcpToolset(nodeServer(PID_SERVER), { name: 'working' });
    // Connected and listed beforehand, so only the silent server can be slower than 500 ms on a loaded machine.
    const warmUp = new InMemoryRunner({ agent: new LlmAgent({ name: 'w', model: new ScriptedModel([textResponse('ready')]), toolsets: [working] }), autoCreateSession: true });
    for await (const event of warmUp.runAsync({ userId: 'u1', sessionId: 'w', newMessage: createUserContent('warm up') })) void event;
    const { events, warnings } = await run([silent, working], model, 500);
    const message = 'Toolset "silent" is left out: it failed to list its tools: no answer within 500 ms (the agent\'s toolsetTimeoutMs)';
    expect(events.filter((e) => e.errorCode).map((e) => [e.errorCode, e.errorMessage])).toEqual([['TOOLSET_UNAVAILABLE', message]]);
    expect(warnings).toEqual([`adkit: agent "assistant": ${message}`]);
    expect(model.requests).toHaveLength(2);
    expect(declared(model)).toEqual(['whoami', 'wait', 'wait_readonly', 'flood']);
    const [response] = getFunctionResponses(events.find((e) => getFunctionResponses(e).length > 0)!);
    expect(String(response!.response!.output)).toMatch(/^\d+$/);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('done');
    // The silent server was started, and runner.close() stopped it with the rest.
    expect(childProcesses(RAW)).toEqual([]);
  });

  it('the toolset\'s own connectTimeoutMs, when shorter, names the server\'s silence', async () => {
    const model = new ScriptedModel([textResponse('answered without it')]);
    const { events } = await run([mcpToolset(nodeServer(RAW, ['silent']), { name: 'silent', connectTimeoutMs: 300 })], model);
    expect(events.map((e) => e.errorCode ?? e.content!.parts![0]!.text)).toEqual(['TOOLSET_UNAVAILABLE', 'answered without it']);
    expect(events[0]!.errorMessage).toMatch(/^Toolset "silent" is left out: it failed to list its tools: .*did not answer within 300 ms/);
    expect(childProcesses(RAW)).toEqual([]);
  });

  it('a server that lists a malformed tool (required: "x") is left out; the other server works', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'whoami', args: {} }]), textResponse('done')]);
    const broken = mcpToolset(nodeServer(RAW, ['malformed']), { name: 'malformed' });
    const working = mcpToolset(nodeServer(PID_SERVER), { name: 'working' });
    const { events, warnings } = await run([broken, working], model);
    const [problem] = events.filter((e) => e.errorCode);
    expect(problem!.errorCode).toBe('TOOLSET_UNAVAILABLE');
    expect(problem!.errorMessage).toMatch(/^Toolset "malformed" is left out: it failed to list its tools: /);
    expect(problem!.errorMessage).toContain('required');
    expect(warnings).toHaveLength(1);
    expect(declared(model)).not.toContain('broken');
    expect(declared(model)).toContain('whoami');
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('done');
    const pids = [...childProcesses(RAW), ...childProcesses(PID_SERVER)];
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
