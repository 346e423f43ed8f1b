// #23 point 5: the runner's `confirmationSecret` covers sub-agents. An agent-tool's child (and a
// single-turn sub-agent) runs with the parent's secret, so every confirmation request inside, at
// every level of nesting, is keyed with it and checked on resume. The attack: a store writer
// edits the innermost paused request inside the parent's stored events (pay bob 10 → pay mallory
// 10000, the call and the request kept consistent, the digest recomputed as the code does but
// without the secret); the user approves what they were shown (pay bob 10) and nothing is paid.
import { createHash, createHmac } from 'node:crypto';
import { createConfirmationReply, pendingConfirmations } from '@adkit/confirmation';
import {
  InMemorySessionService,
  LlmAgent,
  REQUEST_CONFIRMATION_FUNCTION,
  Runner,
  getFunctionResponses,
  type BaseAgent,
  type Event,
  type FunctionCall,
  type Model,
  type SessionService,
} from '@adkit/flow';
import { canonicalJson } from '@adkit/flow/store';
import { functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { agentTool } from '../src/index.js';
import { complete } from './support.js';

const SECRET = 'runner-secret-never-stored';

/** level1 → level2 → level3 (each an agent used as a tool, or single-turn sub-agents), level3 pays. */
function tree(payments: string[], kind: 'agentTool' | 'single_turn') {
  const pay = functionTool({
    name: 'pay',
    description: 'Pays someone.',
    parameters: Type.Object({ to: Type.String(), amount: Type.Number() }),
    requireConfirmation: true,
    execute: ({ to, amount }) => (payments.push(`${amount} to ${to}`), { paid: amount, to }),
  });
  const level = (name: string, call: FunctionCall, child?: BaseAgent) =>
    new LlmAgent({
      name,
      description: `${name} agent`,
      model: statelessModel(name, call),
      ...(kind === 'single_turn' && name !== 'level1' ? { mode: 'single_turn' as const } : {}),
      tools: kind === 'agentTool' && child ? [agentTool(child)] : child ? [] : [pay],
      subAgents: kind === 'single_turn' && child ? [child] : [],
    });
  const level3 = level('level3', { name: 'pay', args: { to: 'bob', amount: 10 }, id: 'p3' });
  const level2 = level('level2', { name: 'level3', args: { request: 'pay bob 10' }, id: 'c2' }, level3);
  return level('level1', { name: 'level2', args: { request: 'pay bob 10' }, id: 'c1' }, level2);
}

/**
 * A model that is a pure function of the request (so a fresh process can resume any turn): with
 * no function response yet it makes its call, afterwards it reports the newest response it saw.
 */
function statelessModel(name: string, call: FunctionCall): Model {
  return {
    model: `${name}-model`,
    async *generateContent(request) {
      const parts = request.contents.flatMap((content) => content.parts ?? []);
      const response = parts.findLast((part) => part.functionResponse?.name === call.name)?.functionResponse?.response;
      yield response ? textResponse(`${name} got ${JSON.stringify(response)}`) : functionCallResponse([call]);
    },
  };
}

const runnerOn = (agent: BaseAgent, sessionService: SessionService) =>
  new Runner({ appName: 'app', agent, sessionService, autoCreateSession: true, confirmationSecret: SECRET });

async function send(runner: Runner, newMessage: Parameters<Runner['runAsync']>[0]['newMessage']): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage })) events.push(event);
  return events;
}
const say = (text: string) => ({ role: 'user' as const, parts: [{ text }] });

interface Scope {
  appName: string;
  userId: string;
  sessionId: string;
}
interface NestedRequest {
  call: FunctionCall;
  event: Event;
  scope: Scope;
}

/** Every confirmation request in the events, and in every sub-agent session saved inside them. */
function nestedRequests(events: Event[], scope: Scope, found: NestedRequest[] = []): NestedRequest[] {
  for (const event of events) {
    for (const part of event.content?.parts ?? [])
      if (part.functionCall?.name === REQUEST_CONFIRMATION_FUNCTION) found.push({ call: part.functionCall, event, scope });
    for (const saved of Object.values(event.actions.resumeStates ?? {})) {
      const pause = saved as { format?: string; agent: string; sessionId: string; events: Event[] };
      if (pause?.format === 'adkit.subAgent/1') nestedRequests(pause.events, { appName: pause.agent, userId: scope.userId, sessionId: pause.sessionId }, found);
    }
  }
  return found;
}

/** The digest text of a format-3 request, as the code builds it. */
function digestText({ call, event, scope }: NestedRequest): string {
  const original = call.args!.originalFunctionCall as FunctionCall;
  return [
    'adkit-confirmation/3',
    JSON.stringify(scope.appName),
    JSON.stringify(scope.userId),
    JSON.stringify(scope.sessionId),
    event.invocationId,
    call.id,
    original.id,
    original.name,
    canonicalJson(original.args ?? {}),
    canonicalJson(call.args!.toolConfirmation),
  ].join('\n');
}

/** pay bob 10 → pay mallory 10000 wherever it is saved, with every digest recomputed without the secret. */
function redirectPayment(events: Event[]): Event[] {
  const copy = JSON.parse(JSON.stringify(events)) as Event[];
  const edit = (list: Event[]) => {
    for (const event of list) {
      for (const part of event.content?.parts ?? []) {
        const call = part.functionCall;
        if (call?.name === 'pay') call.args = { to: 'mallory', amount: 10000 };
        if (call?.name === REQUEST_CONFIRMATION_FUNCTION && (call.args!.originalFunctionCall as FunctionCall).name === 'pay')
          (call.args!.originalFunctionCall as FunctionCall).args = { to: 'mallory', amount: 10000 };
      }
      for (const saved of Object.values(event.actions.resumeStates ?? {})) {
        const pause = saved as { format?: string; events: Event[] };
        if (pause?.format === 'adkit.subAgent/1') edit(pause.events);
      }
    }
  };
  edit(copy);
  for (const request of nestedRequests(copy, { appName: 'app', userId: 'u', sessionId: 's' }))
    if ((request.call.args!.originalFunctionCall as FunctionCall).name === 'pay')
      request.call.args!.callDigest = createHash('sha256').update(digestText(request)).digest('hex');
  return copy;
}

async function storeWith(events: Event[]): Promise<SessionService> {
  const store = new InMemorySessionService();
  const session = await store.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  for (const event of events) await store.appendEvent(session, event);
  return store;
}

describe('#23 point 5: confirmationSecret covers sub-agents, three levels deep', () => {
  for (const kind of ['agentTool', 'single_turn'] as const) {
    it(`${kind}: every request at every level is keyed with the runner's secret; untouched, the approval pays bob 10 once`, async () => {
      const payments: string[] = [];
      const service = new InMemorySessionService();
      const runner = runnerOn(tree(payments, kind), service);
      await send(runner, say('pay bob 10'));
      const session = (await service.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
      const requests = nestedRequests(session.events, { appName: 'app', userId: 'u', sessionId: 's' });
      // One request per level: level1's for its call of level2, level2's for level3, level3's for pay.
      expect(requests.map((r) => (r.call.args!.originalFunctionCall as FunctionCall).name).sort()).toEqual(['level2', 'level3', 'pay']);
      for (const request of requests) expect(request.call.args!.callDigest).toBe(createHmac('sha256', SECRET).update(digestText(request)).digest('hex'));
      expect(JSON.stringify(session.events)).not.toContain(SECRET);

      const [pending] = await pendingConfirmations(session, { confirmationSecret: SECRET });
      expect(pending!.hint).toBe('Approve "pay" with {"to":"bob","amount":10}?');
      await send(runner, createConfirmationReply(pending!, { confirmed: true }));
      expect(payments).toEqual(['10 to bob']);
    });

    it(`${kind}: the innermost request edited inside the parent's stored events (bob 10 → mallory 10000) is refused; nothing is paid`, async () => {
      const payments: string[] = [];
      const service = new InMemorySessionService();
      await send(runnerOn(tree(payments, kind), service), say('pay bob 10'));
      const original = (await service.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
      const store = await storeWith(redirectPayment(original.events));
      const edited = (await store.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
      expect(JSON.stringify(edited.events)).toContain('mallory');

      // The user is shown "pay bob 10" (the top request is untouched) and approves it.
      const [pending] = await pendingConfirmations(edited, { confirmationSecret: SECRET });
      expect(pending!.hint).toBe('Approve "pay" with {"to":"bob","amount":10}?');
      const resumed = complete(await send(runnerOn(tree(payments, kind), store), createConfirmationReply(pending!, { confirmed: true })));
      expect(payments).toEqual([]);
      // The innermost child refused the approval; each level reports the failure upwards.
      const answer = resumed.flatMap(getFunctionResponses).find((r) => r.id === 'c1')!.response!;
      const inner = JSON.parse(String(answer.result).replace(/^level2 got /, '')) as { error: string };
      expect(inner.error).toMatch(
        /^error from sub-agent "level3" \(code: "CONFIRMATION_REFUSED", message: "Confirmation "adk-[0-9a-f-]{36}" refused: its digest does not match what the flow wrote for this call in this session of this app and user\. Nothing was run\."\)$/,
      );
    });
  }
});
