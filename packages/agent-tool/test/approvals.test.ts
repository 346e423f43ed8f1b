// Approvals that cross the agent-tool boundary (beyond ADK): a tool inside the child that asks for
// confirmation, or answers later, pauses the parent's run; the client answers through the parent,
// and the child resumes exactly where it stopped — in a new process too (SQLite). Bad input tried:
// a rejection, a replayed approval, a restart between pause and approval, three levels of nesting.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfirmationReply, pendingConfirmations } from '@adkit/confirmation';
import { LlmAgent, Runner, getFunctionResponses, type Event, type SessionService } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { SqliteSessionService } from '@adkit/session-sqlite';
import { InMemorySessionService } from '@adkit/flow';
import Type from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { agentTool } from '../src/index.js';
import { complete } from './support.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A payments agent whose `pay` tool needs approval, used as a tool by a root agent. */
function build(sessionService: SessionService, payments: string[], resuming = false) {
  const pay = functionTool({
    name: 'pay',
    description: 'Pays someone.',
    parameters: Type.Object({ to: Type.String(), amount: Type.Number() }),
    requireConfirmation: true,
    execute: ({ to, amount }) => (payments.push(`${amount} to ${to}`), { paid: amount, to }),
  });
  // A process that only resumes never sees the first steps (they ran before the restart).
  const firstSteps = <T>(steps: T[]) => (resuming ? steps.slice(1) : steps);
  const bankModel = new ScriptedModel(firstSteps([
    functionCallResponse([{ name: 'pay', args: { to: 'bob', amount: 40 }, id: 'inner-pay' }]),
    (request) => {
      const last = request.contents.at(-1)!.parts![0]!.functionResponse!.response!;
      return textResponse(last.error ? 'The payment was not made.' : 'Paid 40 to bob.');
    },
  ]));
  const bank = new LlmAgent({ name: 'bank', description: 'Makes payments.', model: bankModel, tools: [pay] });
  const rootModel = new ScriptedModel(firstSteps([
    functionCallResponse([{ name: 'bank', args: { request: 'pay bob 40' }, id: 'outer' }]),
    (request) => textResponse(`Bank said: ${JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)}`),
  ]));
  const root = new LlmAgent({ name: 'assistant', model: rootModel, tools: [agentTool(bank)] });
  return { runner: new Runner({ appName: 'app', agent: root, sessionService, autoCreateSession: true }), rootModel, bankModel };
}

async function send(runner: Runner, message: Parameters<Runner['runAsync']>[0]['newMessage']): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: message })) events.push(event);
  return events;
}
const say = (text: string) => ({ role: 'user', parts: [{ text }] });
const eventsOf = async (service: SessionService) => (await service.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!.events;

describe('approvals across the agent-tool boundary', () => {
  it('a confirmation inside the child pauses the parent; approving it resumes the child and the inner tool runs once', async () => {
    const payments: string[] = [];
    const service = new InMemorySessionService();
    const { runner, rootModel } = build(service, payments);
    const paused = complete(await send(runner, say('pay bob 40')));
    expect(getFunctionResponses(paused[1]!)[0]!.response).toEqual({ status: 'Agent "bank" is waiting for the user to approve "pay".' });
    const [pending] = pendingConfirmations(await eventsOf(service));
    expect(pending!.originalCall).toMatchObject({ id: 'outer', name: 'bank' });
    expect(pending!.hint).toMatch(/pay/);
    expect(payments).toEqual([]);

    const resumed = complete(await send(runner, createConfirmationReply(pending!, { confirmed: true })));
    expect(payments).toEqual(['40 to bob']);
    expect(getFunctionResponses(resumed.find((e) => getFunctionResponses(e).length > 0)!)[0]!.response).toEqual({ result: 'Paid 40 to bob.' });
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('Bank said: {"result":"Paid 40 to bob."}');
    expect(rootModel.requests).toHaveLength(2);
    // Replaying the approval runs nothing more.
    const replay = await send(runner, createConfirmationReply(pending!, { confirmed: true }));
    expect(replay.map((e) => e.errorCode)).toEqual(['CONFIRMATION_ALREADY_USED']);
    expect(payments).toEqual(['40 to bob']);
  });

  it('a rejection reaches the inner tool, which does not run; the child and parent go on', async () => {
    const payments: string[] = [];
    const service = new InMemorySessionService();
    const { runner } = build(service, payments);
    await send(runner, say('pay bob 40'));
    const [pending] = pendingConfirmations(await eventsOf(service));
    const resumed = complete(await send(runner, createConfirmationReply(pending!, { confirmed: false })));
    expect(payments).toEqual([]);
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('Bank said: {"result":"The payment was not made."}');
  });

  it('approved after closing and reopening the SQLite store: the child resumes from the parent call\'s resume slot; the inner tool runs exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adkit-agent-tool-'));
    dirs.push(dir);
    const path = join(dir, 'sessions.db');
    const payments: string[] = [];
    const before = new SqliteSessionService({ path });
    await send(build(before, payments).runner, say('pay bob 40'));
    const [pending] = pendingConfirmations(await eventsOf(before));
    await before.close();

    // A new process: new store, new agents (new models, a fresh bank agent), same file.
    const after = new SqliteSessionService({ path });
    const { runner } = build(after, payments, true);
    const resumed = complete(await send(runner, createConfirmationReply(pending!, { confirmed: true })));
    expect(payments).toEqual(['40 to bob']);
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('Bank said: {"result":"Paid 40 to bob."}');
    await after.close();
  });

  it('a long-running tool inside the child pauses the parent call; the answer to it resumes the child', async () => {
    const ticket = functionTool({
      name: 'open_ticket',
      description: 'Opens a ticket; the helpdesk answers later.',
      parameters: Type.Object({ title: Type.String() }),
      isLongRunning: true,
      execute: () => undefined,
    });
    const helpdesk = new LlmAgent({
      name: 'helpdesk',
      description: 'Opens tickets.',
      model: new ScriptedModel([
        functionCallResponse([{ name: 'open_ticket', args: { title: 'VPN down' }, id: 'inner-ticket' }]),
        (request) => textResponse(`Ticket ${JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)} is open.`),
      ]),
      tools: [ticket],
    });
    const root = new LlmAgent({
      name: 'assistant',
      model: new ScriptedModel([
        functionCallResponse([{ name: 'helpdesk', args: { request: 'open a ticket: VPN down' }, id: 'outer' }]),
        (request) => textResponse(`Helpdesk: ${JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)}`),
      ]),
      tools: [agentTool(helpdesk)],
    });
    const runner = new Runner({ appName: 'app', agent: root, sessionService: new InMemorySessionService(), autoCreateSession: true });
    const paused = complete(await send(runner, say('VPN is down')));
    expect(paused.at(-1)!.longRunningToolIds).toEqual(['outer']);
    const resumed = complete(
      await send(runner, { role: 'user', parts: [{ functionResponse: { id: 'outer', name: 'helpdesk', response: { ticket: 991 } } }] }),
    );
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('Helpdesk: {"result":"Ticket {\\"ticket\\":991} is open."}');
  });

  it('three levels deep (tool inside tool inside tool): each level isolated, the approval reaches the innermost tool', async () => {
    const launches: string[] = [];
    const launch = functionTool({
      name: 'launch',
      description: 'Launches.',
      parameters: Type.Object({ target: Type.String() }),
      requireConfirmation: true,
      execute: ({ target }) => (launches.push(target), { launched: target }),
    });
    const level3 = new LlmAgent({
      name: 'level3',
      model: new ScriptedModel([functionCallResponse([{ name: 'launch', args: { target: 'moon' }, id: 'l3' }]), textResponse('launched the moon rocket')]),
      tools: [launch],
    });
    const level2 = new LlmAgent({
      name: 'level2',
      model: new ScriptedModel([
        functionCallResponse([{ name: 'level3', args: { request: 'launch' }, id: 'l2' }]),
        (request) => textResponse(`level3: ${String((request.contents.at(-1)!.parts![0]!.functionResponse!.response as { result: string }).result)}`),
      ]),
      tools: [agentTool(level3)],
    });
    const level1Model = new ScriptedModel([
      functionCallResponse([{ name: 'level2', args: { request: 'go' }, id: 'l1' }]),
      (request) => textResponse(`top: ${String((request.contents.at(-1)!.parts![0]!.functionResponse!.response as { result: string }).result)}`),
    ]);
    const level1 = new LlmAgent({ name: 'level1', model: level1Model, tools: [agentTool(level2)] });
    const service = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: level1, sessionService: service, autoCreateSession: true });
    await send(runner, say('launch it'));
    const pending = pendingConfirmations(await eventsOf(service));
    expect(pending.map((p) => p.originalCall.name)).toEqual(['level2']);
    expect(pending[0]!.hint).toMatch(/launch/);
    expect(launches).toEqual([]);
    const resumed = complete(await send(runner, createConfirmationReply(pending[0]!, { confirmed: true })));
    expect(launches).toEqual(['moon']);
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe('top: level3: launched the moon rocket');
    // No level's history reached another level's model.
    expect(JSON.stringify(level1Model.requests.map((r) => r.contents))).not.toContain('"launch"');
  });
});
