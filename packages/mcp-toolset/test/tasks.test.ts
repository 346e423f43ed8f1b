// MCP tasks (#29): a tool whose execution.taskSupport is "required" runs as a task on the SDK's
// task API — polled, its status messages reported as progress, cancelled (tasks/cancel) when the
// run is aborted, input_required answered through elicitation (server-everything's research
// tool), and a task outliving its turn made a long-running call that a later check resumes.
// Bad input tried: a task that never completes, a failing task, a task check for a gone task.
import { InMemorySessionService, LlmAgent, Runner, createUserContent, type Event, type ProgressReport } from '@adkit/flow';
import { ScriptedModel, createToolContext, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { getEventListeners } from 'node:events';
import { processWarnings } from '@adkit/test-support';
import { describe, expect, it } from 'vitest';
import { createTaskCheck, mcpToolset, pendingMcpTasks, type McpTool, type McpToolsetOptions } from '../src/index.js';
import { EVERYTHING, nodeServer } from './support/realServers.js';
import { inMemoryServer } from './support/sdkServers.js';
import { taskControl, taskServer } from './support/taskServer.js';
import { waitFor } from './support/waitFor.js';

async function setup(options: McpToolsetOptions = {}) {
  const control = taskControl();
  const server = inMemoryServer(() => taskServer(control));
  const toolset = mcpToolset(server, options);
  const tools = new Map(((await toolset.tools(createToolContext())) as McpTool[]).map((tool) => [tool.name, tool]));
  return { control, server, toolset, tool: (name: string) => tools.get(name)! };
}

describe('MCP tasks in one turn', () => {
  it('a task-required tool runs as a task: polled, its status reported as progress, its result the output', async () => {
    const { control, toolset, tool } = await setup();
    const reports: ProgressReport[] = [];
    const call = tool('slow').run(createToolContext({ onProgress: (report: ProgressReport) => void reports.push(report) }), { topic: 'tides' });
    await waitFor(() => reports.length === 1);
    await control.finish(control.created[0]!, 'tides are lunar');
    expect(await call).toEqual({ output: 'tides are lunar' });
    expect(reports).toEqual([{ message: 'gathering sources' }]);
    await toolset.close();
  });

  it('hostile: a task polled many times on one signal leaves at most 4 abort listeners on it and prints no warning', async () => {
    const { control, toolset, tool } = await setup();
    let polls = 0;
    const getTask = control.store.getTask.bind(control.store);
    control.store.getTask = (...args: Parameters<typeof getTask>) => {
      polls++;
      return getTask(...args);
    };
    const controller = new AbortController();
    const warnings = await processWarnings(async () => {
      const call = tool('slow').run(createToolContext({ signal: controller.signal }), { topic: 'tides' });
      await waitFor(() => polls >= 15, 10_000);
      // The 4 the SDK leaves, and at most one of the poll in flight or the wait between polls.
      expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(5);
      await control.finish(control.created[0]!, 'tides are lunar');
      expect(await call).toEqual({ output: 'tides are lunar' });
    });
    expect(warnings).toEqual([]);
    expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(4);
    await toolset.close();
  });

  it('a failing task is an error for the model, naming the task', async () => {
    const { toolset, tool } = await setup();
    await expect(tool('fails').run(createToolContext(), { topic: 'x' })).rejects.toMatchObject({
      code: 'MCP_TASK_FAILED',
      message: 'Tool "fails" ran as an MCP task that failed.',
    });
    await toolset.close();
  });

  it('hostile: a task that never completes is cancelled on the server (tasks/cancel) when the run is aborted', async () => {
    const { control, toolset, tool } = await setup();
    const controller = new AbortController();
    const call = tool('forever').run(createToolContext({ signal: controller.signal }), { topic: 'x' });
    await waitFor(() => control.created.length === 1);
    controller.abort(new Error('user left'));
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED', message: 'The call to tool "forever" was cancelled.' });
    await waitFor(async () => (await control.store.getTask(control.created[0]!))?.status === 'cancelled');
    await toolset.close();
  });
});

describe('a task outliving its turn', () => {
  async function turn(runner: Runner, message: Parameters<Runner['runAsync']>[0]['newMessage']): Promise<Event[]> {
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: message })) events.push(event);
    return events;
  }

  it('becomes a long-running call; a check while it runs pauses it again; a check after it completes answers the model', async () => {
    const control = taskControl();
    const service = new InMemorySessionService();
    const toolset = mcpToolset(inMemoryServer(() => taskServer(control)), { tasks: { waitMs: 60 } });
    const model = new ScriptedModel([functionCallResponse([{ name: 'slow', args: { topic: 'tides' } }]), textResponse('Tides are lunar.'), textResponse('spare')]);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }), sessionService: service, autoCreateSession: true });
    await turn(runner, createUserContent('research tides'));
    const events = async () => (await service.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!.events;
    const [pending] = pendingMcpTasks(await events());
    expect(pending).toMatchObject({ call: { name: 'slow' }, author: 'assistant', taskId: control.created[0] });
    expect(model.requests).toHaveLength(1);

    await turn(runner, createTaskCheck(pending!)); // still running: paused again
    expect(pendingMcpTasks(await events())).toHaveLength(1);
    expect(model.requests).toHaveLength(1); // the turn ended at the pause, as a first call's does

    await control.finish(pending!.taskId, 'tides are lunar');
    await turn(runner, createTaskCheck(pendingMcpTasks(await events())[0]!));
    expect(pendingMcpTasks(await events())).toEqual([]);
    // No turn came between the call and its answer: the answer is in its place, after the call.
    const last = model.requests.at(-1)!.contents.at(-1)!.parts![0]!.functionResponse;
    expect(last).toMatchObject({ name: 'slow', response: { output: 'tides are lunar' } });
    expect(model.requests).toHaveLength(2);
    expect(control.created).toHaveLength(1); // one task, never created again
    await runner.close();
  });
});

describe("server-everything's task tool over stdio", { timeout: 30_000 }, () => {
  it('simulate-research-query runs as a task; its input_required question reaches the elicitation handler', async () => {
    const asked: string[] = [];
    const toolset = mcpToolset(nodeServer(EVERYTHING, ['stdio']), {
      elicitation: {
        handler: (request) => {
          asked.push(request.message);
          return { action: 'decline' };
        },
      },
    });
    const tools = new Map(((await toolset.tools(createToolContext())) as McpTool[]).map((tool) => [tool.name, tool]));
    const research = tools.get('simulate-research-query')!;
    expect(research.taskSupport).toBe('required');
    const reports: ProgressReport[] = [];
    const { output } = (await research.run(createToolContext({ onProgress: (report: ProgressReport) => void reports.push(report) }), {
      topic: 'python',
      ambiguous: true,
    }))! as { output: string };
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('The research query "python" could have multiple interpretations');
    expect(output).toContain('python');
    expect(reports.map((report) => report.message)).toContain('Gathering sources...');
    await toolset.close();
  });
});
