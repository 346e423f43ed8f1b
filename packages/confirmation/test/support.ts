import {
  InMemorySessionService,
  LlmAgent,
  Runner,
  createUserContent,
  type Content,
  type Event,
  type FunctionCall,
  type RunnableTool,
  type RunnerOptions,
  type SessionService,
  type ToolContext,
} from '@adkit/flow';
import { createHash } from 'node:crypto';
import { canonicalJson } from '@adkit/flow/store';
import type { ScriptStep } from '@adkit/flow/testing';
import { ScriptedModel } from '@adkit/flow/testing';

/** A raw runnable tool that records its runs. */
export function recordingTool(
  name: string,
  run: (args: Record<string, unknown>, ctx: ToolContext) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined> = () => ({ ok: true }),
  extra: Partial<RunnableTool> = {},
): RunnableTool & { runs: Array<{ args: Record<string, unknown>; confirmed?: boolean; payload?: unknown }> } {
  const runs: Array<{ args: Record<string, unknown>; confirmed?: boolean; payload?: unknown }> = [];
  return {
    name,
    description: `the ${name} tool`,
    declaration: () => ({ name, description: `the ${name} tool`, parametersJsonSchema: { type: 'object' } }),
    async run(ctx, args) {
      runs.push({ args, confirmed: ctx.toolConfirmation?.confirmed, payload: ctx.toolConfirmation?.payload });
      return run(args, ctx);
    },
    runs,
    ...extra,
  };
}

export class Harness {
  readonly runner: Runner;
  readonly model: ScriptedModel;

  constructor(
    steps: ScriptStep[],
    agentOptions: Partial<ConstructorParameters<typeof LlmAgent>[0]>,
    readonly sessionService: SessionService = new InMemorySessionService(),
    runnerOptions: Partial<RunnerOptions> = {},
  ) {
    this.model = new ScriptedModel(steps);
    const agent = new LlmAgent({ name: 'assistant', model: this.model, ...agentOptions });
    this.runner = new Runner({ appName: 'app', agent, sessionService, autoCreateSession: true, ...runnerOptions });
  }

  async send(message: string | Content): Promise<Event[]> {
    const events: Event[] = [];
    const newMessage = typeof message === 'string' ? createUserContent(message) : message;
    for await (const event of this.runner.runAsync({ userId: 'u', sessionId: 's', newMessage })) events.push(event);
    return events;
  }

  async session() {
    return (await this.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
  }
}

/** The format-3 digest recomputed as an attacker reading the code would, without any secret. */
export function recomputedDigest(event: Event, request: FunctionCall, scope = { appName: 'app', userId: 'u', sessionId: 's' }): string {
  const original = request.args!.originalFunctionCall as FunctionCall;
  const text = [
    'adkit-confirmation/3',
    JSON.stringify(scope.appName),
    JSON.stringify(scope.userId),
    JSON.stringify(scope.sessionId),
    event.invocationId,
    request.id,
    original.id,
    original.name,
    canonicalJson(original.args ?? {}),
    canonicalJson(request.args!.toolConfirmation),
  ].join('\n');
  return createHash('sha256').update(text).digest('hex');
}
