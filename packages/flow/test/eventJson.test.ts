// Every event is JSON-serializable and self-describing (DESIGN: a web UI and transcripts render
// them): whatever a run yields survives a JSON round trip exactly, with no undefined-valued keys.
import { describe, expect, it } from 'vitest';
import { InMemoryRunner, LlmAgent, createUserContent, type Event, type StreamingTool } from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool } from './support.js';

describe('events as JSON', () => {
  it('model, progress, response, confirmation and error events round-trip exactly', async () => {
    const stream: StreamingTool = {
      name: 'tail_log',
      description: 'streams',
      declaration: () => ({ name: 'tail_log' }),
      async *runStream() {
        yield 'line 1';
      },
    };
    const gated = rawTool('deploy', (_args, ctx) => {
      ctx.requestConfirmation({ hint: 'ok?' });
      return { status: 'waiting' };
    });
    const model = new ScriptedModel([
      [textResponse('Let me check.'), functionCallResponse([{ name: 'tail_log' }, { name: 'deploy', args: { env: 'prod' } }, { name: 'missing' }])],
    ]);
    const agent = new LlmAgent({ name: 'ops', model, tools: [stream, gated], toolTimeoutMs: 1000 });
    const runner = new InMemoryRunner({ agent, autoCreateSession: true });
    const events: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go'), runConfig: { streamingMode: 'sse' } }))
      events.push(e);
    expect(events.some((e) => e.partial && e.toolProgress)).toBe(true);
    expect(events.some((e) => e.longRunningToolIds)).toBe(true);
    for (const event of events) expect(JSON.parse(JSON.stringify(event))).toStrictEqual(event);
  });
});
