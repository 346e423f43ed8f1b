import type { Event, LlmAgent, RunnableTool, ToolContext, Tool } from '../src/index.js';
import { createUserContent, InMemoryRunner } from '../src/index.js';

/** A minimal runnable tool written against the raw contract (no function-tool pack). */
export function rawTool(
  name: string,
  run: (args: Record<string, unknown>, ctx: ToolContext) => unknown,
  extra: Partial<Tool> & Record<string, unknown> = {},
): RunnableTool {
  return {
    name,
    description: `the ${name} tool`,
    declaration: () => ({ name, description: `the ${name} tool`, parametersJsonSchema: { type: 'object' } }),
    run: async (ctx, args) => (await run(args, ctx)) as Record<string, unknown> | undefined,
    ...extra,
  };
}

/** Runs one user message through a fresh in-memory runner and collects every event. */
export async function runOnce(
  agent: LlmAgent,
  text: string,
  options: { runner?: InMemoryRunner; sessionId?: string; signal?: AbortSignal; streaming?: boolean } = {},
): Promise<{ events: Event[]; runner: InMemoryRunner; sessionId: string }> {
  const runner = options.runner ?? new InMemoryRunner({ agent, appName: 'test' });
  const sessionId = options.sessionId ?? 's1';
  if (!(await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId })))
    await runner.sessionService.createSession({ appName: runner.appName, userId: 'u', sessionId });
  const events: Event[] = [];
  for await (const event of runner.runAsync({
    userId: 'u',
    sessionId,
    newMessage: createUserContent(text),
    signal: options.signal,
    runConfig: options.streaming ? { streamingMode: 'sse' } : undefined,
  }))
    events.push(event);
  return { events, runner, sessionId };
}
