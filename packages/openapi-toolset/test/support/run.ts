import {
  InMemoryRunner,
  LlmAgent,
  createUserContent,
  getFunctionResponses,
  readonlyState,
  type Content,
  type Event,
  type FunctionResponse,
  type ReadonlyContext,
  type Toolset,
} from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import type { OpenApiTool } from '../../src/index.js';

/** A readonly context for listing, with the warnings it got. */
export function listingContext(): ReadonlyContext & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    invocationId: 'inv-1',
    agentName: 'assistant',
    appName: 'app',
    userId: 'u1',
    sessionId: 's1',
    state: readonlyState({}),
    context: {},
    logger: { warn: (message: string) => warnings.push(message), error: (message: string) => warnings.push(message) },
    warnings,
  };
}

/** The toolset's tools, listed once. */
export async function listTools(toolset: Toolset): Promise<OpenApiTool[]> {
  return (await toolset.tools(listingContext())) as OpenApiTool[];
}

/** Runs one agent turn where the model makes the given calls, then says "done". */
export async function runCalls(
  toolset: Toolset,
  calls: { name: string; args: Record<string, unknown> }[],
  runner?: InMemoryRunner,
): Promise<{ responses: FunctionResponse[]; events: Event[]; runner: InMemoryRunner; model: ScriptedModel }> {
  const model = new ScriptedModel([functionCallResponse(calls), textResponse('done')]);
  const active = runner ?? new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }), autoCreateSession: true });
  const events = await send(active, createUserContent('go'));
  const responses = events.flatMap((event) => getFunctionResponses(event));
  return { responses, events, runner: active, model };
}

/** Sends one message and collects the events. */
export async function send(runner: InMemoryRunner, newMessage: Content, sessionId = 's1'): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u1', sessionId, newMessage })) events.push(event);
  return events;
}
