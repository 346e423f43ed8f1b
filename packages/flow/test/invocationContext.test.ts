// InvocationContext.withAgent builds the sub-agent's context field by field (#24: spreading the
// instance cost microseconds a turn). Every field of the parent must reach it: a sub-agent that
// lost the confirmation secret, the credentials, the limits or the cancellation would be a hole.
import { describe, expect, it } from 'vitest';
import { InMemorySessionService, InvocationContext, LlmAgent, createUserContent } from '../src/index.js';
import { RunCanceller } from '../src/context/runCancellation.js';

describe('InvocationContext.withAgent', () => {
  it("carries every field of the parent but the agent and branch, shares the run's counters and cancellation", async () => {
    const sessionService = new InMemorySessionService();
    const session = await sessionService.createSession({ appName: 'app', userId: 'u' });
    const parent = new LlmAgent({ name: 'parent' });
    const child = new LlmAgent({ name: 'child' });
    const run = new RunCanceller();
    const context = new InvocationContext({
      invocationId: 'e-1',
      agent: parent,
      session,
      sessionService,
      artifactService: { name: 'artifacts' } as never,
      memoryService: { name: 'memory' } as never,
      userContent: createUserContent('hi'),
      runConfig: { maxLlmCalls: 3 },
      signal: run,
      branch: 'parent',
      plugins: [{ name: 'p' }],
      context: { token: 't' },
      logger: { warn() {}, error() {} } as never,
      confirmationSecret: 'secret',
      credentials: { name: 'credentials' } as never,
    });
    const sub = context.withAgent(child, 'parent.child');
    expect(sub.agent).toBe(child);
    expect(sub.branch).toBe('parent.child');
    // Every other own field, whatever fields the class has now or gets later.
    const skipped = new Set(['agent', 'branch', 'authConfigsAsked']);
    const fields = Object.keys(context).filter((key) => !skipped.has(key));
    expect(fields).toEqual(expect.arrayContaining(['confirmationSecret', 'credentials', 'cancellation', 'runConfig', 'plugins', 'context']));
    for (const key of fields) expect((sub as unknown as Record<string, unknown>)[key], key).toBe((context as unknown as Record<string, unknown>)[key]);
    // The run's limits and end are shared, not copied.
    expect(context.countLlmCall() && sub.countLlmCall() && sub.countLlmCall()).toBe(true);
    expect(context.countLlmCall()).toBe(false);
    sub.endInvocation = true;
    expect(context.endInvocation).toBe(true);
    run.abort(new Error('stop'));
    expect(sub.aborted).toBe(true);
    expect(sub.signal.reason).toEqual(new Error('stop'));
  });
});
