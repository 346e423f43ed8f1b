import {
  createUserContent,
  InMemoryRunner,
  type BaseAgent,
  type Event,
  type FunctionDeclaration,
  type RunnableTool,
  type StreamingTool,
  type ToolContext,
} from '@adkit/flow';

/** A runnable tool written against the raw contract. */
export function rawTool(
  name: string,
  run: (args: Record<string, unknown>, ctx: ToolContext) => unknown = () => ({ from: name }),
  extra: Record<string, unknown> = {},
): RunnableTool {
  const declaration: FunctionDeclaration = { name, description: `the ${name} tool`, parametersJsonSchema: { type: 'object' } };
  return {
    name,
    description: `the ${name} tool`,
    declaration: () => declaration,
    run: async (ctx, args) => (await run(args, ctx)) as Record<string, unknown> | undefined,
    ...extra,
  };
}

/** A streaming tool written against the raw contract. */
export function rawStreamingTool(name: string, chunks: readonly string[]): StreamingTool {
  return {
    name,
    description: `the ${name} tool`,
    declaration: () => ({ name, description: `the ${name} tool` }),
    async *runStream() {
      yield* chunks;
    },
  };
}

/** Runs one message through a fresh in-memory runner and collects the events. */
export async function runOnce(agent: BaseAgent, text = 'go'): Promise<{ events: Event[]; runner: InMemoryRunner }> {
  const runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent(text) })) events.push(event);
  return { events, runner };
}
