import { describe, expect, it } from 'vitest';
import Type from 'typebox';
import { z } from 'zod';
import { createUserContent, getFunctionResponses, InMemoryRunner, LlmAgent, type Event } from '../src/index.js';
import { functionCallResponse, ScriptedModel, textResponse } from '../src/testing/index.js';

const NUDGE = 'Important: You will not receive any user replies or clarifications. Complete the task using only the information provided above.';

async function run(root: LlmAgent, text: string): Promise<Event[]> {
  const runner = new InMemoryRunner({ agent: root, appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent(text) })) events.push(event);
  return events;
}

const responseTo = (events: Event[], id: string) => getFunctionResponses(events.find((e) => getFunctionResponses(e).some((r) => r.id === id))!)[0]!.response;

describe("single_turn parity with ADK Go (#27)", () => {
  it('TM-10: the tool declares the sub-agent\'s inputSchema (TypeBox), and the sub-agent gets the checked arguments as JSON, then SingleTurnNudge', async () => {
    const model = new ScriptedModel([textResponse('Obrigado')]);
    const translator = new LlmAgent({
      name: 'translator',
      description: 'Translates.',
      model,
      mode: 'single_turn',
      inputSchema: Type.Object({ text: Type.String(), language: Type.String() }),
    });
    const rootModel = new ScriptedModel([functionCallResponse([{ name: 'translator', args: { text: 'Thanks', language: 'pt' }, id: 't1' }]), textResponse('"Obrigado".')]);
    const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [translator] });
    const events = await run(root, 'Say thanks in Portuguese');
    const declaration = rootModel.requests[0]!.config.tools![0]!.functionDeclarations!.find((d) => d.name === 'translator')!;
    expect(declaration.parametersJsonSchema).toMatchObject({ type: 'object', required: ['text', 'language'] });
    expect(model.requests[0]!.contents).toEqual([{ role: 'user', parts: [{ text: '{"text":"Thanks","language":"pt"}' }, { text: NUDGE }] }]);
    expect(responseTo(events, 't1')).toEqual({ result: 'Obrigado' });
  });

  it('TM-10: arguments that fail the inputSchema (zod) reach the parent\'s model as an error; the sub-agent never runs', async () => {
    const model = new ScriptedModel([]);
    const translator = new LlmAgent({ name: 'translator', model, mode: 'single_turn', inputSchema: z.object({ text: z.string().min(1) }) });
    const rootModel = new ScriptedModel([functionCallResponse([{ name: 'translator', args: { text: '' }, id: 't1' }]), textResponse('Sorry.')]);
    const events = await run(new LlmAgent({ name: 'root', model: rootModel, subAgents: [translator] }), 'go');
    expect((responseTo(events, 't1') as { error: string }).error).toMatch(/^argument validation failed for agent translator: text/);
    expect(model.requests).toHaveLength(0);
  });

  it('TM-10: without an inputSchema: {request} declared, the request text then the nudge', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const helper = new LlmAgent({ name: 'helper', model, mode: 'single_turn' });
    const rootModel = new ScriptedModel([functionCallResponse([{ name: 'helper', args: { request: 'Sum 2 and 2' }, id: 'h1' }]), textResponse('4')]);
    await run(new LlmAgent({ name: 'root', model: rootModel, subAgents: [helper] }), 'go');
    expect(rootModel.requests[0]!.config.tools![0]!.functionDeclarations![0]!.parametersJsonSchema).toMatchObject({ required: ['request'] });
    expect(model.requests[0]!.contents).toEqual([{ role: 'user', parts: [{ text: 'Sum 2 and 2' }, { text: NUDGE }] }]);
  });
});
