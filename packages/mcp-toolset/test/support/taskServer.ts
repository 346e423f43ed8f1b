// An SDK-built server whose tools run as MCP tasks (the task extension): one the test finishes
// when it wants (with status messages), one that never completes, one that fails.
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export interface TaskControl {
  store: InMemoryTaskStore;
  /** Task ids created, in order. */
  created: string[];
  /** Completes the `slow` task with this id. */
  finish(taskId: string, text: string): Promise<void>;
}

export function taskServer(control: Omit<TaskControl, 'finish'>): McpServer {
  const server = new McpServer(
    { name: 'tasks', version: '1.0.0' },
    {
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: control.store,
      taskMessageQueue: new InMemoryTaskMessageQueue(),
    },
  );
  const register = (name: string, start: (taskId: string) => Promise<void>) =>
    server.experimental.tasks.registerToolTask(
      name,
      { description: `${name} task.`, inputSchema: { topic: z.string() }, execution: { taskSupport: 'required' } },
      {
        createTask: async (_args, extra) => {
          const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 20 });
          control.created.push(task.taskId);
          await start(task.taskId);
          return { task };
        },
        getTask: async (_args, extra) => (await extra.taskStore.getTask(extra.taskId))!,
        getTaskResult: async (_args, extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as never,
      },
    );
  register('slow', (taskId) => control.store.updateTaskStatus(taskId, 'working', 'gathering sources'));
  register('forever', (taskId) => control.store.updateTaskStatus(taskId, 'working', 'thinking forever'));
  register('fails', async (taskId) => {
    setTimeout(() => void control.store.storeTaskResult(taskId, 'failed', { content: [{ type: 'text', text: 'disk full' }], isError: true }), 30);
  });
  return server;
}

export function taskControl(): TaskControl {
  const store = new InMemoryTaskStore();
  return {
    store,
    created: [],
    finish: (taskId, text) => store.storeTaskResult(taskId, 'completed', { content: [{ type: 'text', text }] }),
  };
}
