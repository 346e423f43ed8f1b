// Elicitation as a durable pause: without a handler, a call the server asks about pauses as a
// long-running call; the run ends; the client finds the request with pendingElicitations (built on
// the flow's pendingLongRunningCalls), answers with createElicitationReply, and the call resumes —
// the very same request when it is still alive in this process, or, after a restart on SQLite,
// the call is re-issued and the server's repeated question gets the answer already given
// (whenSessionLost "reissue"), or the model is told to retry ("fail"). Bad input tried: an answer
// off the schema (refused by the helper, and by the tool when forged), a forged resume state, the
// same answer delivered twice, a server asking twice, a decline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InMemorySessionService,
  LlmAgent,
  Runner,
  createUserContent,
  getFunctionResponses,
  type Content,
  type Event,
  type SessionService,
} from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { SqliteSessionService } from '@adkit/session-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createElicitationReply, mcpToolset, pendingElicitations, type McpToolsetOptions } from '../src/index.js';
import { BOOKING_SCHEMA, elicitServer, type ElicitObserved } from './support/elicitServer.js';
import { EVERYTHING, nodeServer } from './support/realServers.js';
import { inMemoryServer } from './support/sdkServers.js';
import { waitFor } from './support/waitFor.js';

const KEY = { appName: 'app', userId: 'u1', sessionId: 's1' };

function world(options: McpToolsetOptions = { elicitation: {} }) {
  const observed: ElicitObserved = { calls: [], answers: [], meta: [] };
  const server = inMemoryServer(() => elicitServer(observed));
  return { observed, server, options };
}

function runnerFor(sessionService: SessionService, model: ScriptedModel, server: ReturnType<typeof world>['server'], options: McpToolsetOptions) {
  const toolset = mcpToolset(server, options);
  const agent = new LlmAgent({ name: 'assistant', model, toolsets: [toolset] });
  return new Runner({ appName: KEY.appName, agent, sessionService, autoCreateSession: true });
}

async function turn(runner: Runner, message: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: KEY.userId, sessionId: KEY.sessionId, newMessage: message })) events.push(event);
  return events;
}

async function stored(service: SessionService): Promise<Event[]> {
  return (await service.getSession(KEY))!.events;
}

/** What the model's newest request ends with: the latest function response, or a late answer's update (#23 point 1). */
function lastResponse(model: ScriptedModel): unknown {
  const last = model.requests.at(-1)!.contents.at(-1)!;
  for (const part of last.parts ?? []) {
    if (part.functionResponse) return part.functionResponse.response;
    const update = /^Update from function [\w-]+: (.*)\nThis is the latest answer/s.exec(part.text ?? '');
    if (update) return JSON.parse(update[1]!);
  }
  return undefined;
}

describe('a durable pause in one process', () => {
  it('the run ends with the call pending; the answer resumes the same request; the model sees the result', async () => {
    const { observed, server, options } = world();
    const service = new InMemorySessionService();
    const model = new ScriptedModel([functionCallResponse([{ name: 'book', args: { city: 'Lisbon' } }]), textResponse('Booked.')]);
    const runner = runnerFor(service, model, server, options);
    const first = await turn(runner, createUserContent('book Lisbon'));
    expect(model.requests).toHaveLength(1); // the run ended at the pause
    expect(first.at(-1)!.longRunningToolIds).toHaveLength(1);

    const [pending, ...more] = pendingElicitations(await stored(service));
    expect(more).toEqual([]);
    expect(pending!.call.name).toBe('book');
    expect(pending!.author).toBe('assistant');
    expect(pending!.request).toEqual({ mode: 'form', message: 'Who stays in Lisbon, and how many nights?', requestedSchema: BOOKING_SCHEMA });

    await expect(createElicitationReply(pending!, { action: 'accept', content: { guest: 'Ana', nights: 99 } })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      message: 'createElicitationReply for tool "book": the content does not match the requested schema: nights: must be <= 14',
    });
    await turn(runner, await createElicitationReply(pending!, { action: 'accept', content: { guest: 'Ana', nights: 2 } }));
    expect(observed.calls).toEqual(['book Lisbon']); // answered in place, not sent again
    expect(observed.answers).toEqual([{ action: 'accept', content: { guest: 'Ana', nights: 2 } }]);
    expect(lastResponse(model)).toEqual({ output: 'booking Lisbon: {"guest":"Ana","nights":2}' });
    expect(pendingElicitations(await stored(service))).toEqual([]);
    await runner.close();
  });

  it('a server asking twice pauses twice; a decline reaches it', async () => {
    const { observed, server, options } = world();
    const service = new InMemorySessionService();
    const model = new ScriptedModel([functionCallResponse([{ name: 'twice', args: {} }]), textResponse('ok'), textResponse('spare')]);
    const runner = runnerFor(service, model, server, options);
    await turn(runner, createUserContent('go'));
    const [first] = pendingElicitations(await stored(service));
    expect(first!.request.message).toBe('Your name?');
    await turn(runner, await createElicitationReply(first!, { action: 'accept', content: { name: 'Ana' } }));
    const [second] = pendingElicitations(await stored(service));
    expect(second!.call.id).toBe(first!.call.id);
    // Paused again like a first call: the turn ends there, the model is not called.
    expect(model.requests).toHaveLength(1);
    expect(second!.request.message).toBe('Sure, Ana?');
    await turn(runner, await createElicitationReply(second!, { action: 'decline' }));
    expect(lastResponse(model)).toEqual({ output: 'first {"name":"Ana"}, second decline' });
    expect(JSON.stringify(await stored(service))).not.toContain('interrupted');
    expect(model.requests).toHaveLength(2);
    expect(observed.calls).toEqual(['twice']);
    await runner.close();
  });

  it('the same answer delivered twice: the second is not given to the server again', async () => {
    const { observed, server, options } = world();
    const service = new InMemorySessionService();
    const model = new ScriptedModel([functionCallResponse([{ name: 'book', args: { city: 'Faro' } }]), textResponse('Booked.'), textResponse('Again?')]);
    const runner = runnerFor(service, model, server, options);
    await turn(runner, createUserContent('book Faro'));
    const [pending] = pendingElicitations(await stored(service));
    const reply = await createElicitationReply(pending!, { action: 'accept', content: { guest: 'Rui', nights: 1 } });
    await turn(runner, reply);
    await turn(runner, reply);
    expect(observed.calls).toEqual(['book Faro']);
    expect(observed.answers).toHaveLength(1);
    await runner.close();
  });

  it('a forged answer (off the schema, sent without the helper) is refused; the model is told and the server gets cancel', async () => {
    const { observed, server, options } = world();
    const service = new InMemorySessionService();
    const model = new ScriptedModel([functionCallResponse([{ name: 'book', args: { city: 'Faro' } }]), textResponse('Sorry.')]);
    const runner = runnerFor(service, model, server, options);
    await turn(runner, createUserContent('book Faro'));
    const [pending] = pendingElicitations(await stored(service));
    const forged: Content = { role: 'user', parts: [{ functionResponse: { id: pending!.call.id!, name: 'book', response: { action: 'accept', content: { guest: 7 } } } }] };
    await turn(runner, forged);
    expect(lastResponse(model)).toEqual({
      error:
        'The answer to tool "book"\'s request for input was refused: the content does not match the requested schema: nights: is required; guest: must be string. The call was cancelled; call the tool again to retry.',
    });
    expect(observed.answers).toEqual([{ action: 'cancel' }]);
    await runner.close();
  });
});

describe('a paused request that times out in this process', () => {
  it('the server is told cancel at timeoutMs; the later answer re-issues the call and answers the repeated question', async () => {
    const { observed, server } = world();
    const service = new InMemorySessionService();
    const model = new ScriptedModel([functionCallResponse([{ name: 'book', args: { city: 'Evora' } }]), textResponse('Booked.')]);
    const runner = runnerFor(service, model, server, { elicitation: {}, timeoutMs: 1_000 });
    await turn(runner, createUserContent('book Evora'));
    await waitFor(() => observed.answers.length === 1, 10_000);
    expect(observed.answers).toEqual([{ action: 'cancel' }]); // the open request ended with the timeout
    const [pending] = pendingElicitations(await stored(service));
    await turn(runner, await createElicitationReply(pending!, { action: 'accept', content: { guest: 'Rui', nights: 1 } }));
    expect(observed.calls).toEqual(['book Evora', 'book Evora']);
    expect(lastResponse(model)).toEqual({ output: 'booking Evora: {"guest":"Rui","nights":1}' });
    await runner.close();
  });
});

describe('a durable pause with server-everything over stdio', { timeout: 20_000 }, () => {
  it('its elicitation tool pauses the run; the form answer resumes it', async () => {
    const service = new InMemorySessionService();
    const model = new ScriptedModel([functionCallResponse([{ name: 'trigger-elicitation-request', args: {} }]), textResponse('Thanks.')]);
    const runner = runnerFor(service, model, nodeServer(EVERYTHING, ['stdio']) as never, { elicitation: {} });
    await turn(runner, createUserContent('sign me up'));
    const [pending] = pendingElicitations(await stored(service));
    expect(pending!.request).toMatchObject({ mode: 'form', message: 'Please provide inputs for the following fields:' });
    const schema = (pending!.request as unknown as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema;
    expect(Object.keys(schema.properties)).toContain('email');
    await turn(runner, await createElicitationReply(pending!, { action: 'accept', content: { name: 'Ana Lima', check: true, integer: 7 } }));
    const outcome = lastResponse(model) as { output: string };
    expect(outcome.output).toContain('✅ User provided the requested information!');
    expect(outcome.output).toContain('Ana Lima');
    await runner.close();
  });
});

describe('a durable pause across a restart (SQLite)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function pauseThenRestart(options: McpToolsetOptions) {
    dir = mkdtempSync(join(tmpdir(), 'adkit-mcp-elicit-'));
    const path = join(dir, 'sessions.db');
    const { observed, server } = world();
    const before = new SqliteSessionService({ path });
    const model1 = new ScriptedModel([functionCallResponse([{ name: 'book', args: { city: 'Lisbon' } }])]);
    const runner1 = runnerFor(before, model1, server, options);
    await turn(runner1, createUserContent('book Lisbon'));
    await runner1.close(); // the process ends: its MCP session and the server's waiting request go
    await before.close();

    const after = new SqliteSessionService({ path });
    const [pending] = pendingElicitations(await stored(after));
    const model2 = new ScriptedModel([textResponse('Done.')]);
    const runner2 = runnerFor(after, model2, server, options);
    const events = await turn(runner2, await createElicitationReply(pending!, { action: 'accept', content: { guest: 'Ana', nights: 4 } }));
    await runner2.close();
    await after.close();
    return { observed, server, model2, events };
  }

  it('"reissue" (default): the call is sent again, the repeated question gets the stored answer, the model sees the result', async () => {
    const { observed, server, model2 } = await pauseThenRestart({ elicitation: {} });
    expect(server.connects).toBe(2);
    expect(observed.calls).toEqual(['book Lisbon', 'book Lisbon']);
    expect(observed.answers).toEqual([{ action: 'accept', content: { guest: 'Ana', nights: 4 } }]);
    expect(lastResponse(model2)).toEqual({ output: 'booking Lisbon: {"guest":"Ana","nights":4}' });
  });

  it('"fail": the model is told the call did not complete and must be called again', async () => {
    const { observed, model2, events } = await pauseThenRestart({ elicitation: { whenSessionLost: 'fail' } });
    expect(observed.calls).toEqual(['book Lisbon']);
    const error = getFunctionResponses(events.find((event) => getFunctionResponses(event).length > 0)!)[0]!.response;
    expect(error).toEqual({
      error:
        'The MCP server\'s request for input during the call to tool "book" ended before the answer came (its session or request is gone); the call did not complete. Call the tool again to retry; the server will ask again.',
    });
    expect(lastResponse(model2)).toEqual(error);
  });
});

describe('the README example of a durable pause', () => {
  it('runs as shown: the run pauses, the answer resumes the call', async () => {
    const { observed, server } = world();
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel([functionCallResponse([{ name: 'book', args: { city: 'Lisbon' } }]), textResponse('Booked.')]);
    const logged: string[] = [];
    const log = console.log;
    console.log = (line: string) => void logged.push(line);
    try {
    const toolset = mcpToolset(server, { elicitation: {} }); // no handler: calls pause for the user
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }), sessionService, autoCreateSession: true });
    for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent('Book Lisbon') })) void event;

    // Later, in any process: render what the server asks, then send the user's answer.
    const { events } = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
    const [pending] = pendingElicitations(events);
    console.log(pending!.request.message); // and request.requestedSchema (a form) or request.url
    const reply = await createElicitationReply(pending!, { action: 'accept', content: { guest: 'Ana', nights: 2 } });
    for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: reply })) void event;

      await runner.close();
    } finally {
      console.log = log;
    }
    expect(logged).toEqual(['Who stays in Lisbon, and how many nights?']);
    expect(observed.answers).toEqual([{ action: 'accept', content: { guest: 'Ana', nights: 2 } }]);
    expect(lastResponse(model)).toEqual({ output: 'booking Lisbon: {"guest":"Ana","nights":2}' });
  });
});
