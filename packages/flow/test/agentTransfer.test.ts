// FL-1 #11 and BT-8: the agent-transfer processor adds `transfer_to_agent` (after
// set_model_response, before the agent's tools: PK-4) with the instructions; FL-5 step 6 runs the
// target; and the runner keeps routing the conversation to the agent that answered last.
import { describe, expect, it } from 'vitest';
import {
  BaseAgent,
  InMemoryRunner,
  InMemorySessionService,
  InvocationContext,
  LlmAgent,
  SequentialAgent,
  createEvent,
  createUserContent,
  getFunctionResponses,
  type Event,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool } from './support.js';
import { RunCanceller } from '../src/context/runCancellation.js';

const systemText = (request: { config: { systemInstruction?: { parts?: { text?: string }[] } } }) =>
  request.config.systemInstruction?.parts?.map((p) => p.text).join('') ?? '';

function helpDesk(options: { billingDisallowsParent?: boolean; billingDisallowsPeers?: boolean } = {}) {
  const coordinatorModel = new ScriptedModel([
    functionCallResponse([{ name: 'transfer_to_agent', args: { agent_name: 'billing' } }]),
    textResponse('Coordinator here.'),
  ]);
  const billingModel = new ScriptedModel([textResponse('Your invoice is paid.'), textResponse('Refund issued.')]);
  const supportModel = new ScriptedModel([]);
  const billing = new LlmAgent({
    name: 'billing',
    description: 'Answers invoice and payment questions.',
    model: billingModel,
    tools: [rawTool('lookup_invoice', () => ({}))],
    disallowTransferToParent: options.billingDisallowsParent,
    disallowTransferToPeers: options.billingDisallowsPeers,
  });
  const support = new LlmAgent({ name: 'support', description: 'Fixes technical problems.', model: supportModel });
  const coordinator = new LlmAgent({ name: 'coordinator', model: coordinatorModel, subAgents: [billing, support] });
  const runner = new InMemoryRunner({ agent: coordinator, autoCreateSession: true });
  const send = async (text: string) => {
    const events: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent(text) })) events.push(e);
    return events;
  };
  return { coordinatorModel, billingModel, send };
}

describe('agent transfer', () => {
  it('FL-1 #11/BT-8: sub-agents become transfer targets, declared and described to the model', async () => {
    const { coordinatorModel, send } = helpDesk();
    await send('Is my invoice paid?');
    const request = coordinatorModel.requests[0]!;
    const declaration = request.config.tools![0]!.functionDeclarations![0]!;
    expect(declaration.name).toBe('transfer_to_agent');
    expect(declaration.description!.startsWith('Transfer the question to another agent.')).toBe(true);
    expect(declaration.parametersJsonSchema).toEqual({
      type: 'object',
      properties: { agent_name: { type: 'string', enum: ['billing', 'support'], description: 'The name of the agent to transfer to.' } },
      required: ['agent_name'],
    });
    expect(systemText(request)).toContain(
      'You have a list of other agents to transfer to:\n\nAgent name: billing\nAgent description: Answers invoice and payment questions.\n\nAgent name: support\nAgent description: Fixes technical problems.',
    );
    expect(systemText(request)).not.toContain('Your parent agent is');
  });

  it('FL-5 step 6: the transfer runs the target, which answers in the same invocation', async () => {
    const { billingModel, send } = helpDesk();
    const events = await send('Is my invoice paid?');
    expect(events.map((e) => e.author)).toEqual(['coordinator', 'coordinator', 'billing']);
    expect(events[1]!.actions.transferToAgent).toBe('billing');
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({});
    expect(events[2]!.content!.parts![0]!.text).toBe('Your invoice is paid.');
    // The target may hand back to its parent or over to its peer; its own tools come after (PK-4).
    const request = billingModel.requests[0]!;
    expect(request.config.tools![0]!.functionDeclarations!.map((d) => d.name)).toEqual(['transfer_to_agent', 'lookup_invoice']);
    expect((request.config.tools![0]!.functionDeclarations![0]!.parametersJsonSchema as { properties: { agent_name: { enum: string[] } } }).properties.agent_name.enum).toEqual(['coordinator', 'support']);
    expect(systemText(request)).toContain('Your parent agent is coordinator.');
  });

  it('the next message goes straight to the agent that answered last', async () => {
    const { coordinatorModel, billingModel, send } = helpDesk();
    await send('Is my invoice paid?');
    const next = await send('Then refund the other one.');
    expect(next.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([['billing', 'Refund issued.']]);
    expect(coordinatorModel.requests).toHaveLength(1);
    expect(billingModel.requests).toHaveLength(2);
  });

  it('disallowTransferToParent/Peers narrow the targets; an agent that cannot hand back does not keep the conversation', async () => {
    const { billingModel, coordinatorModel, send } = helpDesk({ billingDisallowsParent: true, billingDisallowsPeers: true });
    await send('Is my invoice paid?');
    expect(billingModel.requests[0]!.config.tools![0]!.functionDeclarations!.map((d) => d.name)).toEqual(['lookup_invoice']);
    expect(systemText(billingModel.requests[0]!)).not.toContain('transfer');
    // billing cannot hand back, so the root takes the next message.
    const next = await send('And another question');
    expect(next.map((e) => [e.author, e.content?.parts?.[0]?.text])).toEqual([['coordinator', 'Coordinator here.']]);
    expect(coordinatorModel.requests).toHaveLength(2);
  });

  it('BT-8, FL-5 step 6: a transfer without an agent name, or to an agent not offered, is an error for the model', async () => {
    const missing = new LlmAgent({
      name: 'root',
      model: new ScriptedModel([functionCallResponse([{ name: 'transfer_to_agent', args: {} }]), textResponse('sorry')]),
      subAgents: [new LlmAgent({ name: 'child', model: new ScriptedModel([]) })],
    });
    const runner = new InMemoryRunner({ agent: missing, autoCreateSession: true });
    const events: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('x') })) events.push(e);
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({ error: 'transfer_to_agent needs agent_name, one of: child.' });

    const unknown = new LlmAgent({
      name: 'root',
      model: new ScriptedModel([
        functionCallResponse([{ name: 'transfer_to_agent', args: { agent_name: 'nobody' } }]),
        textResponse('I will answer myself.'),
      ]),
      subAgents: [new LlmAgent({ name: 'child', model: new ScriptedModel([]) })],
    });
    const r2 = new InMemoryRunner({ agent: unknown, autoCreateSession: true });
    const e2: Event[] = [];
    for await (const e of r2.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('x') })) e2.push(e);
    expect(getFunctionResponses(e2[1]!)[0]!.response).toEqual({
      error: 'Cannot transfer to agent "nobody": it is not a transfer target here. Allowed targets: child.',
    });
    expect(e2.map((e) => e.author)).toEqual(['root', 'root', 'root']);
  });

  it('workflow agents add no transfer targets, and their children never keep the conversation', async () => {
    const a = new LlmAgent({ name: 'a', model: new ScriptedModel([textResponse('a1'), textResponse('a2')]) });
    const b = new LlmAgent({ name: 'b', model: new ScriptedModel([textResponse('b1'), textResponse('b2')]) });
    const runner = new InMemoryRunner({ agent: new SequentialAgent({ name: 'seq', subAgents: [a, b] }), autoCreateSession: true });
    const texts: string[] = [];
    for (const message of ['one', 'two'])
      for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent(message) }))
        texts.push(e.content!.parts![0]!.text!);
    expect(texts).toEqual(['a1', 'b1', 'a2', 'b2']);
  });

  it("a transferred agent's events stop at the parent's flow once the run is cancelled, and its stream is closed (#24)", async () => {
    // Driven without the runner (which drops events after a cancel too), so the flow's own check is what is tested.
    const run = new RunCanceller();
    let closed = false;
    class Talker extends BaseAgent {
      protected async *runImpl(context: InvocationContext) {
        try {
          yield createEvent({ invocationId: context.invocationId, author: this.name, content: { role: 'model', parts: [{ text: 'first' }] } });
          run.abort(new Error('stop'));
          yield createEvent({ invocationId: context.invocationId, author: this.name, content: { role: 'model', parts: [{ text: 'after the cancel' }] } });
        } finally {
          closed = true;
        }
      }
    }
    const root = new LlmAgent({
      name: 'root',
      model: new ScriptedModel([functionCallResponse([{ name: 'transfer_to_agent', args: { agent_name: 'talker' } }])]),
      subAgents: [new Talker({ name: 'talker' })],
    });
    const sessionService = new InMemorySessionService();
    const session = await sessionService.createSession({ appName: 'app', userId: 'u' });
    const context = new InvocationContext({ invocationId: 'e-1', agent: root, session, sessionService, signal: run });
    const texts: string[] = [];
    for await (const event of root.runAsync(context)) {
      const part = event.content?.parts?.[0];
      texts.push(part?.text ?? part?.functionCall?.name ?? part?.functionResponse?.name ?? '?');
    }
    expect(texts).toEqual(['transfer_to_agent', 'transfer_to_agent', 'first']);
    expect(closed).toBe(true);
  });
});
