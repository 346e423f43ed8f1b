// Pins FL-13 (callTool: callback order and semantics) and the model callbacks (FL-5, FL-19).
import { describe, expect, it } from 'vitest';
import { InMemoryRunner, LlmAgent, getFunctionResponses, type LlmAgentOptions, type Plugin } from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool, runOnce } from './support.js';

function recorder() {
  const log: string[] = [];
  const tool = rawTool('echo', (args) => (log.push('run'), { echoed: args.value }));
  return { log, tool };
}

const call = () => new ScriptedModel([functionCallResponse([{ name: 'echo', args: { value: 1 } }]), textResponse('ok')]);

const failingEcho = () =>
  rawTool('echo', () => {
    throw new Error('boom');
  });

/** The response the model gets for one `echo` call, with these agent options. */
async function echoResponse(options: Partial<LlmAgentOptions>, tool = failingEcho()) {
  const { events } = await runOnce(new LlmAgent({ name: 'a', model: call(), tools: [tool], ...options }), 'go');
  return getFunctionResponses(events[1]!)[0]!.response;
}

describe('tool callbacks', () => {
  it('FL-13: plugins run before the agent callbacks, in order: before, run, after', async () => {
    const { log, tool } = recorder();
    const plugin: Plugin = {
      name: 'p',
      beforeToolCallback: ({ tool }) => void log.push(`plugin.before(${tool.name})`),
      afterToolCallback: ({ response }) => void log.push(`plugin.after(${JSON.stringify(response)})`),
    };
    const agent = new LlmAgent({
      name: 'a',
      model: call(),
      tools: [tool],
      beforeToolCallback: [() => void log.push('agent.before1'), () => void log.push('agent.before2')],
      afterToolCallback: () => void log.push('agent.after'),
    });
    const runner = new InMemoryRunner({ agent, appName: 'test', plugins: [plugin] });
    await runOnce(agent, 'go', { runner });
    expect(log).toEqual([
      'plugin.before(echo)',
      'agent.before1',
      'agent.before2',
      'run',
      'plugin.after({"echoed":1})',
      'agent.after',
    ]);
  });

  it('FL-13: a before-callback result skips the tool; a plugin result skips the agent callbacks', async () => {
    const { log, tool } = recorder();
    const plugin: Plugin = { name: 'p', beforeToolCallback: () => ({ cached: true }) };
    const agent = new LlmAgent({
      name: 'a',
      model: call(),
      tools: [tool],
      beforeToolCallback: () => void log.push('agent.before'),
    });
    const { events } = await runOnce(agent, 'go', { runner: new InMemoryRunner({ agent, appName: 'test', plugins: [plugin] }) });
    expect(log).toEqual([]);
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({ cached: true });
  });

  it('FL-13: the first agent before-callback that returns wins; later ones do not run', async () => {
    const { log, tool } = recorder();
    const agent = new LlmAgent({
      name: 'a',
      model: call(),
      tools: [tool],
      beforeToolCallback: [() => ({ first: true }), () => void log.push('second')],
    });
    const { events } = await runOnce(agent, 'go');
    expect(log).toEqual([]);
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({ first: true });
  });

  it('FL-13: on-error callbacks see the error and may recover; after-callbacks then see the recovered result', async () => {
    const seen: unknown[] = [];
    const response = await echoResponse({
      onToolErrorCallback: ({ error }) => (seen.push((error as Error).message), { recovered: true }),
      afterToolCallback: ({ response, error }) => void seen.push({ response, error }),
    });
    expect(seen).toEqual(['boom', { response: { recovered: true }, error: undefined }]);
    expect(response).toEqual({ recovered: true });
  });

  it('FL-13: an on-error callback that throws replaces the error; unhandled errors keep the original', async () => {
    const rethrow = () => {
      throw new Error('replaced');
    };
    expect(await echoResponse({ onToolErrorCallback: rethrow })).toEqual({ error: 'replaced' });
    expect(await echoResponse({ onToolErrorCallback: () => undefined })).toEqual({ error: 'boom' });
  });

  it('FL-13: a throwing before-callback counts as the error: the tool does not run, on-error sees it', async () => {
    const { log, tool } = recorder();
    const agent = new LlmAgent({
      name: 'a',
      model: call(),
      tools: [tool],
      beforeToolCallback: () => {
        throw new Error('not allowed');
      },
      onToolErrorCallback: ({ error }) => void log.push(`onError:${(error as Error).message}`),
    });
    const { events } = await runOnce(agent, 'go');
    expect(log).toEqual(['onError:not allowed']);
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({ error: 'not allowed' });
  });

  it('FL-13: an after-callback replaces the result, and sees errors', async () => {
    expect(await echoResponse({ afterToolCallback: ({ error }) => ({ masked: (error as Error).message }) })).toEqual({ masked: 'boom' });
  });

  it('FL-11: for an unknown tool only on-error callbacks run (plugin first), with a placeholder tool', async () => {
    const log: string[] = [];
    const plugin: Plugin = {
      name: 'p',
      beforeToolCallback: () => void log.push('plugin.before'),
      onToolErrorCallback: ({ tool }) => void log.push(`plugin.onError(${tool.name}: ${tool.description})`),
    };
    const agent = new LlmAgent({
      name: 'a',
      model: new ScriptedModel([functionCallResponse([{ name: 'ghost' }]), textResponse('ok')]),
      tools: [rawTool('real', () => ({}))],
      beforeToolCallback: () => void log.push('agent.before'),
      onToolErrorCallback: () => ({ substituted: true }),
    });
    const { events } = await runOnce(agent, 'go', { runner: new InMemoryRunner({ agent, appName: 'test', plugins: [plugin] }) });
    expect(log).toEqual(['plugin.onError(ghost: Tool not found)']);
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({ substituted: true });
  });
});

describe('model callbacks', () => {
  it('FL-5: a before-model result skips the model; FL-19: callback state lands on the model event', async () => {
    const model = new ScriptedModel([]);
    const agent = new LlmAgent({
      name: 'a',
      model,
      beforeModelCallback: ({ context }) => {
        context.state.set('seen', true);
        return { content: { role: 'model', parts: [{ text: 'from cache' }] } };
      },
    });
    const { events } = await runOnce(agent, 'go');
    expect(model.requests).toHaveLength(0);
    expect(events).toHaveLength(1);
    expect(events[0]!.content!.parts![0]!.text).toBe('from cache');
    expect(events[0]!.actions.stateDelta).toEqual({ seen: true });
  });

  it('after-model callbacks replace the response, plugins first; on-model-error recovers a throwing model', async () => {
    const log: string[] = [];
    const plugin: Plugin = {
      name: 'p',
      afterModelCallback: ({ response }) => void log.push(`plugin:${response.content?.parts?.[0]?.text}`),
      onModelErrorCallback: ({ error }) => ({
        content: { role: 'model', parts: [{ text: `recovered from ${(error as Error).message}` }] },
      }),
    };
    const agent = new LlmAgent({
      name: 'a',
      model: new ScriptedModel([textResponse('raw')]),
      afterModelCallback: ({ response }) => ({ content: { role: 'model', parts: [{ text: `${response.content?.parts?.[0]?.text}!` }] } }),
    });
    const { events } = await runOnce(agent, 'go', { runner: new InMemoryRunner({ agent, appName: 'test', plugins: [plugin] }) });
    expect(log).toEqual(['plugin:raw']);
    expect(events[0]!.content!.parts![0]!.text).toBe('raw!');

    const failing = new LlmAgent({
      name: 'a',
      model: new ScriptedModel([
        () => {
          throw new Error('503 overloaded');
        },
      ]),
    });
    const recovered = await runOnce(failing, 'go', { runner: new InMemoryRunner({ agent: failing, appName: 'test', plugins: [plugin] }) });
    expect(recovered.events[0]!.content!.parts![0]!.text).toBe('recovered from 503 overloaded');
  });

  it('principle 1: a model that throws with no plugin to recover ends the run with an error event', async () => {
    const agent = new LlmAgent({
      name: 'a',
      model: new ScriptedModel([
        () => {
          throw new Error('socket hang up');
        },
      ]),
    });
    const { events } = await runOnce(agent, 'go');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      author: 'a',
      errorCode: 'MODEL_ERROR',
      errorMessage: 'Model "scripted-model" failed: socket hang up',
    });
  });
});
