// Issue #23 point 19: messages quote at most a bounded prefix of what they echo. A megabyte of
// tool name, agent name, argument key or late-answer arguments from a model or a client is cut
// (first 100 characters and "…", `quoted`), so it never rides along whole in every later request.
import { describe, expect, it } from 'vitest';
import { createEvent, createUserContent, formatSchemaPath, getFunctionResponses, InMemoryRunner, LlmAgent, quoted, REQUEST_CONFIRMATION_FUNCTION, type Part } from '../src/index.js';
import { buildContents } from '../src/llmFlow/buildContents.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool, runOnce } from './support.js';

const HUGE = 'x'.repeat(1_000_000);
const CUT = `${'x'.repeat(100)}…`;

async function errorsFor(agent: LlmAgent): Promise<string[]> {
  const { events } = await runOnce(agent, 'go');
  return events.flatMap(getFunctionResponses).map((response) => String(response.response?.error ?? ''));
}

describe('bounded echoes (issue #23 point 19)', () => {
  it('quoted: whole up to the limit, else the first characters and …', () => {
    expect(quoted('short')).toBe('short');
    expect(quoted('y'.repeat(100))).toBe('y'.repeat(100));
    expect(quoted(HUGE)).toBe(CUT);
    expect(quoted(HUGE, 5)).toBe('xxxxx…');
  });

  it('FL-11: a call to an unknown tool with a 1 MB name gets an error quoting 100 characters of it', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: HUGE, args: {} }]), textResponse('ok')]);
    const [error] = await errorsFor(new LlmAgent({ name: 'a', model, tools: [rawTool('search', () => ({}))] }));
    expect(error!.startsWith(`tool '${CUT}' not found.\nAvailable tools: search\n`)).toBe(true);
    expect(error!.length).toBeLessThan(1_000);
  });

  it('FL-5: a transfer to a 1 MB agent name is refused quoting 100 characters of it', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'transfer_to_agent', args: { agent_name: HUGE } }]), textResponse('ok')]);
    const helper = new LlmAgent({ name: 'helper', model: new ScriptedModel([]) });
    const [error] = await errorsFor(new LlmAgent({ name: 'a', model, subAgents: [helper] }));
    expect(error).toBe(`Cannot transfer to agent "${CUT}": it is not a transfer target here. Allowed targets: helper.`);
  });

  it('HC-8: a reply to a model-made confirmation request with a 1 MB id is refused quoting 100 characters of the id', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: REQUEST_CONFIRMATION_FUNCTION, args: {}, id: HUGE }]), textResponse('ok')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model }), appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const send = async (newMessage: ReturnType<typeof createUserContent>) => {
      const events = [];
      for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage })) events.push(event);
      return events;
    };
    await send(createUserContent('go'));
    const [refusal] = await send(createUserContent([{ functionResponse: { id: HUGE, name: REQUEST_CONFIRMATION_FUNCTION, response: { confirmed: true } } }]));
    expect(refusal!.errorCode).toBe('CONFIRMATION_REFUSED');
    expect(refusal!.errorMessage).toBe(
      `Confirmation "${CUT}" refused: "adk_request_confirmation" was called by the model, not created by the flow; the name is reserved. Nothing was run.`,
    );
  });

  it('argument paths quote a 1 MB key in 100 characters', () => {
    expect(formatSchemaPath(`/${HUGE}`)).toBe(`[${JSON.stringify(CUT)}]`);
    expect(formatSchemaPath(`/items/0/${HUGE}`)).toBe(`items[0][${JSON.stringify(CUT)}]`);
  });

  it("a late answer repeats at most 1,000 characters of the call's arguments, and 100 of a name or id the client sent", () => {
    const ev = (author: string, parts: Part[]) => createEvent({ invocationId: 'i', author, content: { role: author === 'a' ? 'model' : 'user', parts } });
    const contents = buildContents(
      [
        ev('a', [{ functionCall: { id: 'c1', name: 'ticket', args: { note: HUGE } } }]),
        ev('user', [{ text: 'meanwhile' }]),
        ev('user', [{ functionResponse: { id: 'c1', name: `ticket${HUGE}`, response: { ok: true } } }]),
      ],
      'a',
    );
    const text = contents.at(-1)!.parts![0]!.text!;
    expect(text.length).toBeLessThan(1_400);
    expect(text).toBe(
      `Update from function ticket${'x'.repeat(94)}…: {"ok":true}\n` +
        `This is the latest answer to your earlier call ticket${'x'.repeat(94)}…(${JSON.stringify({ note: HUGE }).slice(0, 1000)}…) (id c1).`,
    );
  });
});
