import { describe, expect, it } from 'vitest';
import Type from 'typebox';
import { z } from 'zod';
import {
  createUserContent,
  credentialKeyOf,
  getFunctionCalls,
  getFunctionResponses,
  InMemoryRunner,
  LlmAgent,
  REQUEST_CREDENTIAL_FUNCTION,
  type AuthConfig,
  type AuthCredential,
  type Content,
  type CredentialManager,
  type Event,
} from '../src/index.js';
import { functionCallResponse, ScriptedModel, textResponse, type RecordedRequest } from '../src/testing/index.js';
import { rawTool } from './support.js';

const TASK_NOTE = 'IMPORTANT: This tool delegates execution to a specialized agent. Do NOT call this tool in parallel with any other tools.';

async function send(runner: InMemoryRunner, message: string | Content, sessionId = 's'): Promise<Event[]> {
  if (!(await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId })))
    await runner.sessionService.createSession({ appName: runner.appName, userId: 'u', sessionId });
  const events: Event[] = [];
  const newMessage = typeof message === 'string' ? createUserContent(message) : message;
  for await (const event of runner.runAsync({ userId: 'u', sessionId, newMessage })) events.push(event);
  return events;
}

/** Every text the model was sent in one request, flattened (what it could have read). */
function textsOf(request: RecordedRequest): string[] {
  return request.contents.flatMap((content) =>
    (content.parts ?? []).map((part) =>
      part.text ?? (part.functionCall ? `call ${part.functionCall.name} ${JSON.stringify(part.functionCall.args)}` : `response ${part.functionResponse?.name} ${JSON.stringify(part.functionResponse?.response)}`),
    ),
  );
}

function declarationsOf(request: RecordedRequest) {
  return (request.config.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
}

const tripSchema = Type.Object({ destination: Type.String(), nights: Type.Integer({ minimum: 1 }) });

function tripAgents(
  collectorSteps: ConstructorParameters<typeof ScriptedModel>[0],
  rootSteps: ConstructorParameters<typeof ScriptedModel>[0],
  extra: Partial<ConstructorParameters<typeof LlmAgent>[0]> = {},
  confirmationSecret?: string,
) {
  const collectorModel = new ScriptedModel(collectorSteps);
  const rootModel = new ScriptedModel(rootSteps);
  const collector = new LlmAgent({
    name: 'trip_collector',
    description: 'Collects the details of a trip.',
    model: collectorModel,
    mode: 'task',
    outputSchema: tripSchema,
    ...extra,
  });
  const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [collector] });
  return { collectorModel, rootModel, collector, root, runner: new InMemoryRunner({ agent: root, appName: 'app', confirmationSecret }) };
}

describe('task mode: install', () => {
  it('TM-1, TM-2, TM-3: a task sub-agent is a tool of its parent named after it, {request} by default, with the delegation note; never a transfer target', () => {
    const task = new LlmAgent({ name: 'helper', description: 'Helps.', mode: 'task' });
    const chat = new LlmAgent({ name: 'chatter', description: 'Chats.' });
    const root = new LlmAgent({ name: 'root', subAgents: [task, chat] });
    const tool = root.tools.find((t) => t.name === 'helper')!;
    expect(tool.description).toBe(`Helps.\n${TASK_NOTE}`);
    expect((tool as unknown as { declaration(): unknown }).declaration()).toEqual({
      name: 'helper',
      description: `Helps.\n${TASK_NOTE}`,
      parametersJsonSchema: {
        type: 'object',
        properties: { request: { type: 'string', description: 'Detailed instructions or context for the task sub-agent.' } },
        required: ['request'],
      },
    });
    // The task agent itself gets finish_task, with the default {result: string}.
    const finish = task.tools.find((t) => t.name === 'finish_task') as unknown as { declaration(): { parametersJsonSchema: unknown } };
    expect(finish.declaration().parametersJsonSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'string', description: 'A brief summary of what the agent accomplished.' } },
      required: ['result'],
    });
  });

  it('TM-3, TM-7: the declaration is the inputSchema (zod too); finish_task is the outputSchema, a non-object one wrapped as {result}', () => {
    const task = new LlmAgent({ name: 'picker', mode: 'task', inputSchema: z.object({ topic: z.string() }), outputSchema: z.enum(['a', 'b']) });
    const root = new LlmAgent({ name: 'root', subAgents: [task] });
    const declaration = (root.tools.find((t) => t.name === 'picker') as unknown as { declaration(): { parametersJsonSchema: Record<string, unknown> } }).declaration();
    expect(declaration.parametersJsonSchema).toMatchObject({ type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] });
    const finish = (task.tools.find((t) => t.name === 'finish_task') as unknown as { declaration(): { parametersJsonSchema: Record<string, unknown> } }).declaration();
    expect(finish.parametersJsonSchema).toMatchObject({ type: 'object', properties: { result: { enum: ['a', 'b'] } }, required: ['result'] });
    // A task agent's outputSchema is finish_task's, not a set_model_response answer form.
    expect(task.compiledOutputSchema).toBeUndefined();
  });

  it('TM-2: a tool named finish_task on a task agent is refused at construction; an unknown mode names the three', () => {
    expect(() => new LlmAgent({ name: 't', mode: 'task', tools: [rawTool('finish_task', () => ({}))] })).toThrow(/two tools are named "finish_task"/);
    expect(() => new LlmAgent({ name: 't', mode: 'workflow' as never })).toThrow(/'chat', 'single_turn' or 'task'/);
  });
});

describe('task mode: a conversation with the user until finish_task', () => {
  it('TM-4, TM-5, TM-6, TM-8: three user replies go to the open task; finish_task answers the parent, whose model carries on in the same run; each model saw only its own', async () => {
    const { runner, rootModel, collectorModel } = tripAgents(
      [
        textResponse('Where do you want to go?'),
        textResponse('How many nights?'),
        textResponse('Shall I book it as 3 nights in Lisbon?'),
        functionCallResponse([{ name: 'finish_task', args: { destination: 'Lisbon', nights: 3 }, id: 'f1' }]),
      ],
      [
        functionCallResponse([{ name: 'trip_collector', args: { request: 'Collect the trip details.' }, id: 'c1' }]),
        textResponse('Your trip: 3 nights in Lisbon.'),
        textResponse('You are welcome.'),
      ],
    );
    const turn1 = await send(runner, 'Plan a trip for me');
    expect(turn1.at(-1)!.content!.parts![0]!.text).toBe('Where do you want to go?');
    expect(turn1.at(-1)!.author).toBe('trip_collector');
    expect(rootModel.requests).toHaveLength(1);

    const turn2 = await send(runner, 'Lisbon');
    expect(turn2.at(-1)!.content!.parts![0]!.text).toBe('How many nights?');
    const turn3 = await send(runner, '3 nights');
    expect(turn3.at(-1)!.content!.parts![0]!.text).toBe('Shall I book it as 3 nights in Lisbon?');
    const turn4 = await send(runner, 'Yes');
    // The parent's call is answered by a user-authored function response with the output ...
    const answer = turn4.find((e) => getFunctionResponses(e).some((r) => r.id === 'c1'))!;
    expect(answer.author).toBe('user');
    expect(answer.branch).toBeUndefined();
    expect(getFunctionResponses(answer)[0]!.response).toEqual({ destination: 'Lisbon', nights: 3 });
    // ... and the parent's model carries on in the same run.
    expect(turn4.at(-1)!.content!.parts![0]!.text).toBe('Your trip: 3 nights in Lisbon.');
    expect(rootModel.requests).toHaveLength(2);

    // Isolation: the task saw its first turn and its own conversation only ...
    const lastTaskRequest = collectorModel.requests.at(-1)!;
    expect(textsOf(lastTaskRequest)).toEqual([
      'Collect the trip details.',
      'Where do you want to go?',
      'Lisbon',
      'How many nights?',
      '3 nights',
      'Shall I book it as 3 nights in Lisbon?',
      'Yes',
    ]);
    expect(declarationsOf(lastTaskRequest).map((d) => d.name)).toEqual(['finish_task']);
    // ... and the parent none of the task's events: its call, then the answer.
    expect(textsOf(rootModel.requests[1]!)).toEqual([
      'Plan a trip for me',
      'call trip_collector {"request":"Collect the trip details."}',
      'response trip_collector {"destination":"Lisbon","nights":3}',
    ]);
    expect(declarationsOf(rootModel.requests[0]!).map((d) => d.name)).toEqual(['trip_collector']);
    // After the task, the user's messages go to the parent again, in its branch.
    const turn5 = await send(runner, 'Thanks');
    expect(turn5.at(-1)!.author).toBe('root');
    expect(collectorModel.requests).toHaveLength(4);
    const stored = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const userTexts = stored!.events.filter((e) => e.author === 'user' && e.content?.parts?.[0]?.text).map((e) => [e.content!.parts![0]!.text, e.branch ?? null]);
    expect(userTexts).toEqual([
      ['Plan a trip for me', null],
      ['Collect the trip details.', 'trip_collector~c1'],
      ['Lisbon', 'trip_collector~c1'],
      ['3 nights', 'trip_collector~c1'],
      ['Yes', 'trip_collector~c1'],
      ['Thanks', null],
    ]);
    expect(textsOf(rootModel.requests[2]!).at(-1)).toBe('Thanks');
  });

  it('TM-7: invalid finish_task arguments answer the model with ADK\'s validation error; it retries and the valid call ends the task', async () => {
    const { runner, rootModel, collectorModel } = tripAgents(
      [
        functionCallResponse([{ name: 'finish_task', args: { destination: 'Oslo', nights: 'two' }, id: 'f1' }]),
        functionCallResponse([{ name: 'finish_task', args: { destination: 'Oslo', nights: 2 }, id: 'f2' }]),
      ],
      [
        functionCallResponse([{ name: 'trip_collector', args: { request: 'Oslo, two nights' }, id: 'c1' }]),
        textResponse('Done.'),
      ],
    );
    const events = await send(runner, 'Two nights in Oslo');
    const retry = getFunctionResponses(events.find((e) => getFunctionResponses(e).some((r) => r.id === 'f1'))!)[0]!.response as { error: string };
    expect(retry.error).toMatch(/^Invoking `finish_task\(\)` failed due to validation errors:\n/);
    expect(retry.error).toContain('nights');
    expect(retry.error).toMatch(/IMPORTANT for you to provide all the mandatory parameters with correct types\.$/);
    expect(collectorModel.requests).toHaveLength(2);
    expect(getFunctionResponses(events.find((e) => getFunctionResponses(e).some((r) => r.id === 'c1'))!)[0]!.response).toEqual({ destination: 'Oslo', nights: 2 });
    expect(rootModel.requests).toHaveLength(2);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('Done.');
  });
});

/** The confirmation request the flow made in these events (its call), to answer it. */
function confirmationRequest(events: readonly Event[]) {
  for (const event of events)
    for (const call of getFunctionCalls(event)) if (call.name === 'adk_request_confirmation') return { call, event };
  throw new Error('no confirmation request');
}

describe('task mode: pauses inside a task', () => {
  it.each([
    ['', undefined],
    [' (digests keyed with the runner\'s confirmationSecret)', 'runner-secret-1'],
  ])('TM-9, HC-8: a confirmation inside a task surfaces to the client in the task\'s branch; the approval resumes the call inside the task, which finishes%s', async (_label, secret) => {
    const booked: unknown[] = [];
    const book = rawTool('book_hotel', (args, ctx) => {
      if (!ctx.toolConfirmation) {
        ctx.requestConfirmation({ hint: 'Book the hotel?' });
        return { status: 'waiting' };
      }
      if (!ctx.toolConfirmation.confirmed) return { booked: false };
      booked.push(args);
      return { booked: true, ref: 'H-1' };
    });
    const { runner, rootModel, collectorModel } = tripAgents(
      [
        functionCallResponse([{ name: 'book_hotel', args: { city: 'Rome' }, id: 'b1' }]),
        functionCallResponse([{ name: 'finish_task', args: { destination: 'Rome', nights: 2 }, id: 'f1' }]),
      ],
      [functionCallResponse([{ name: 'trip_collector', args: { request: 'Rome, 2 nights, book it' }, id: 'c1' }]), textResponse('Booked Rome.')],
      { tools: [book] },
      secret,
    );
    const first = await send(runner, 'Book Rome');
    const { call, event } = confirmationRequest(first);
    expect(event.author).toBe('trip_collector');
    expect(event.branch).toMatch(/^trip_collector~c1$/);
    expect(event.longRunningToolIds).toEqual([call.id]);
    expect(rootModel.requests).toHaveLength(1);

    const reply: Content = { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { confirmed: true } } }] };
    const second = await send(runner, reply);
    expect(booked).toEqual([{ city: 'Rome' }]);
    expect(getFunctionResponses(second.find((e) => getFunctionResponses(e).some((r) => r.id === 'c1'))!)[0]!.response).toEqual({ destination: 'Rome', nights: 2 });
    expect(second.at(-1)!.content!.parts![0]!.text).toBe('Booked Rome.');
    // The task's model saw the approved call's outcome, never the confirmation traffic; the parent saw neither.
    expect(textsOf(collectorModel.requests[1]!)).toEqual([
      'Rome, 2 nights, book it',
      'call book_hotel {"city":"Rome"}',
      'response book_hotel {"booked":true,"ref":"H-1"}',
    ]);
    expect(textsOf(rootModel.requests[1]!).join('\n')).not.toMatch(/book_hotel|confirmation/);
  });

  it('TM-9, FT-6: a long-running tool inside a task pauses it; the client\'s answer goes to the task', async () => {
    const ticket = rawTool('ask_manager', () => undefined, { isLongRunning: true });
    const { runner, collectorModel } = tripAgents(
      [
        functionCallResponse([{ name: 'ask_manager', args: {}, id: 'm1' }]),
        functionCallResponse([{ name: 'finish_task', args: { destination: 'Bern', nights: 1 }, id: 'f1' }]),
      ],
      [functionCallResponse([{ name: 'trip_collector', args: { request: 'Bern' }, id: 'c1' }]), textResponse('Approved: Bern.')],
      { tools: [ticket] },
    );
    const first = await send(runner, 'Bern please');
    expect(first.at(-1)!.longRunningToolIds).toEqual(['m1']);
    const second = await send(runner, { role: 'user', parts: [{ functionResponse: { id: 'm1', name: 'ask_manager', response: { approved: true } } }] });
    expect(textsOf(collectorModel.requests[1]!)).toEqual(['Bern', 'call ask_manager {}', 'response ask_manager {"approved":true}']);
    expect(second.at(-1)!.content!.parts![0]!.text).toBe('Approved: Bern.');
  });
});

describe('task mode: several tasks and agents', () => {
  it('TM-4: two tasks one after the other: each sees only its own conversation, the second starts fresh', async () => {
    const { runner, rootModel, collectorModel } = tripAgents(
      [
        textResponse('How many nights in Paris?'),
        functionCallResponse([{ name: 'finish_task', args: { destination: 'Paris', nights: 2 }, id: 'f1' }]),
        textResponse('How many nights in Vienna?'),
        functionCallResponse([{ name: 'finish_task', args: { destination: 'Vienna', nights: 4 }, id: 'f2' }]),
      ],
      [
        functionCallResponse([{ name: 'trip_collector', args: { request: 'Paris' }, id: 'c1' }]),
        functionCallResponse([{ name: 'trip_collector', args: { request: 'Vienna' }, id: 'c2' }]),
        textResponse('Paris for 2, Vienna for 4.'),
      ],
    );
    await send(runner, 'Paris then Vienna');
    const second = await send(runner, '2');
    // The first task answered, the parent's model called the second in the same run; it asks.
    expect(second.at(-1)!.content!.parts![0]!.text).toBe('How many nights in Vienna?');
    const third = await send(runner, '4');
    expect(third.at(-1)!.content!.parts![0]!.text).toBe('Paris for 2, Vienna for 4.');
    expect(textsOf(collectorModel.requests[2]!)).toEqual(['Vienna']);
    expect(textsOf(collectorModel.requests[3]!)).toEqual(['Vienna', 'How many nights in Vienna?', '4']);
    expect(textsOf(rootModel.requests[2]!)).toEqual([
      'Paris then Vienna',
      'call trip_collector {"request":"Paris"}',
      'response trip_collector {"destination":"Paris","nights":2}',
      'call trip_collector {"request":"Vienna"}',
      'response trip_collector {"destination":"Vienna","nights":4}',
    ]);
  });

  it('TM-2, TM-10: a parent with a task and a single-turn sub-agent: the single-turn one answers at once with the nudge, the task talks with the user', async () => {
    const translatorModel = new ScriptedModel([textResponse('Lisboa')]);
    const translator = new LlmAgent({ name: 'translator', description: 'Translates to Portuguese.', model: translatorModel, mode: 'single_turn' });
    const collectorModel = new ScriptedModel([
      textResponse('Which dates?'),
      functionCallResponse([{ name: 'finish_task', args: { result: 'Lisboa, 1-3 May' }, id: 'f1' }]),
    ]);
    const collector = new LlmAgent({ name: 'collector', description: 'Collects details.', model: collectorModel, mode: 'task' });
    const rootModel = new ScriptedModel([
      functionCallResponse([{ name: 'translator', args: { request: 'Lisbon' }, id: 't1' }]),
      functionCallResponse([{ name: 'collector', args: { request: 'Trip to Lisboa' }, id: 'c1' }]),
      textResponse('Lisboa, 1-3 May it is.'),
    ]);
    const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [translator, collector] });
    const runner = new InMemoryRunner({ agent: root, appName: 'app' });
    const first = await send(runner, 'Trip to Lisbon');
    expect(first.at(-1)!.content!.parts![0]!.text).toBe('Which dates?');
    expect(textsOf(translatorModel.requests[0]!)).toEqual([
      'Lisbon',
      'Important: You will not receive any user replies or clarifications. Complete the task using only the information provided above.',
    ]);
    const second = await send(runner, '1-3 May');
    expect(second.at(-1)!.content!.parts![0]!.text).toBe('Lisboa, 1-3 May it is.');
    expect(declarationsOf(rootModel.requests[0]!).map((d) => d.name)).toEqual(['translator', 'collector']);
    expect(textsOf(rootModel.requests[2]!)).toEqual([
      'Trip to Lisbon',
      'call translator {"request":"Lisbon"}',
      'response translator {"result":"Lisboa"}',
      'call collector {"request":"Trip to Lisboa"}',
      'response collector {"result":"Lisboa, 1-3 May"}',
    ]);
  });
});

describe('task mode: bad input and failures', () => {
  it('TM-3: arguments that fail the inputSchema answer the parent\'s call with an error; no task opens', async () => {
    const collectorModel = new ScriptedModel([]);
    const collector = new LlmAgent({ name: 'collector', model: collectorModel, mode: 'task', inputSchema: z.object({ city: z.string() }) });
    const rootModel = new ScriptedModel([
      functionCallResponse([{ name: 'collector', args: { town: 'x' }, id: 'c1' }]),
      textResponse('Sorry.'),
      textResponse('Hello again.'),
    ]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model: rootModel, subAgents: [collector] }), appName: 'app' });
    const events = await send(runner, 'go');
    const response = getFunctionResponses(events.find((e) => getFunctionResponses(e).some((r) => r.id === 'c1'))!)[0]!.response as { error: string };
    expect(response.error).toMatch(/^argument validation failed for task agent collector: city/);
    expect(collectorModel.requests).toHaveLength(0);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('Sorry.');
    // Nothing is open: the next message goes to the parent.
    expect((await send(runner, 'hi')).at(-1)!.content!.parts![0]!.text).toBe('Hello again.');
  });

  it('TM-5: with an inputSchema the task\'s first turn is the checked arguments as JSON (a zod default applied)', async () => {
    const collectorModel = new ScriptedModel([functionCallResponse([{ name: 'finish_task', args: { result: 'ok' }, id: 'f1' }])]);
    const collector = new LlmAgent({ name: 'collector', model: collectorModel, mode: 'task', inputSchema: z.object({ city: z.string(), nights: z.number().default(1) }) });
    const rootModel = new ScriptedModel([functionCallResponse([{ name: 'collector', args: { city: 'Riga' }, id: 'c1' }]), textResponse('ok')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model: rootModel, subAgents: [collector] }), appName: 'app' });
    await send(runner, 'go');
    expect(textsOf(collectorModel.requests[0]!)).toEqual(['{"city":"Riga","nights":1}']);
  });

  it('TM-8: a task agent that fails answers the parent\'s call with the error, so nobody is left talking to a broken task', async () => {
    const collector = new LlmAgent({
      name: 'collector',
      mode: 'task',
      model: new ScriptedModel([() => ({ errorCode: 'RESOURCE_EXHAUSTED', errorMessage: 'quota' })]),
    });
    const rootModel = new ScriptedModel([functionCallResponse([{ name: 'collector', args: { request: 'x' }, id: 'c1' }]), textResponse('The helper failed.')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model: rootModel, subAgents: [collector] }), appName: 'app' });
    const events = await send(runner, 'go');
    const response = getFunctionResponses(events.find((e) => getFunctionResponses(e).some((r) => r.id === 'c1'))!)[0]!.response as { error: string };
    expect(response.error).toBe('The task agent "collector" failed (code: "RESOURCE_EXHAUSTED", message: "quota").');
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('The helper failed.');
  });

  it('TM-7, TM-8: a non-object outputSchema: finish_task takes {result}, the parent gets {output}; outputKey saves the value', async () => {
    const collector = new LlmAgent({
      name: 'picker',
      mode: 'task',
      outputSchema: z.enum(['window', 'aisle']),
      outputKey: 'seat',
      model: new ScriptedModel([functionCallResponse([{ name: 'finish_task', args: { result: 'aisle' }, id: 'f1' }])]),
    });
    const rootModel = new ScriptedModel([functionCallResponse([{ name: 'picker', args: { request: 'seat?' }, id: 'c1' }]), textResponse('Aisle.')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model: rootModel, subAgents: [collector] }), appName: 'app' });
    const events = await send(runner, 'go');
    expect(getFunctionResponses(events.find((e) => getFunctionResponses(e).some((r) => r.id === 'c1'))!)[0]!.response).toEqual({ output: 'aisle' });
    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(session!.state.seat).toBe('aisle');
  });
});

describe('task mode: branches and odd calls', () => {
  it('TM-5: call ids that differ only in characters a branch cannot hold get different branches; a task nests under its parent\'s branch', async () => {
    const { taskBranch, taskScopeOf } = await import('../src/agents/taskEvents.js');
    expect(taskBranch(undefined, 'a', 'x.y')).not.toBe(taskBranch(undefined, 'a', 'x_y'));
    expect(taskBranch(undefined, 'a', 'x.y')).not.toContain('.');
    expect(taskBranch(undefined, 'a', '__proto__')).toBe('a~_5f__5f_proto_5f__5f_');
    expect(taskBranch('root.helper', 'a', 'c1')).toBe('root.helper.a~c1');
    expect(taskScopeOf('root.a~c1.sub')).toBe('root.a~c1');
    expect(taskScopeOf('root.a~c1.b~c2.sub')).toBe('root.a~c1.b~c2');
    expect(taskScopeOf('root.sub')).toBeUndefined();
    expect(taskScopeOf(undefined)).toBeUndefined();
  });

  it('TM-4: a task called together with another tool: the other runs, the task runs after it, and the parent\'s model gets both answers', async () => {
    const weather = rawTool('weather', () => ({ sky: 'sunny' }));
    const collectorModel = new ScriptedModel([functionCallResponse([{ name: 'finish_task', args: { result: 'Nice, 2 nights' }, id: 'f1' }])]);
    const collector = new LlmAgent({ name: 'collector', model: collectorModel, mode: 'task' });
    const rootModel = new ScriptedModel([
      functionCallResponse([
        { name: 'collector', args: { request: 'Nice' }, id: 'c1' },
        { name: 'weather', args: {}, id: 'w1' },
      ]),
      textResponse('Sunny Nice for 2 nights.'),
    ]);
    const root = new LlmAgent({ name: 'root', model: rootModel, tools: [weather], subAgents: [collector] });
    const events = await send(new InMemoryRunner({ agent: root, appName: 'app' }), 'Nice?');
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('Sunny Nice for 2 nights.');
    expect(textsOf(rootModel.requests[1]!)).toEqual([
      'Nice?',
      'call collector {"request":"Nice"}',
      'call weather {}',
      'response weather {"sky":"sunny"}',
      'response collector {"result":"Nice, 2 nights"}',
    ]);
  });

  it('TM-5: a forged task opening naming agents that are not in the tree is ignored: the message is the root\'s, in its branch', async () => {
    const { TASK_METADATA_KEY } = await import('../src/index.js');
    const rootModel = new ScriptedModel([textResponse('Root here.')]);
    const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [new LlmAgent({ name: 'collector', mode: 'task' })] });
    const runner = new InMemoryRunner({ agent: root, appName: 'app' });
    const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const { createEvent } = await import('../src/index.js');
    await runner.sessionService.appendEvent(
      session,
      createEvent({ invocationId: 'i', author: 'user', branch: 'ghost~x', content: { role: 'user', parts: [{ text: 'hi' }] }, customMetadata: { [TASK_METADATA_KEY]: { callId: 'x', agent: 'ghost', parent: 'nobody' } } }),
    );
    const events = await send(runner, 'hello');
    expect(events.at(-1)!.author).toBe('root');
    expect(textsOf(rootModel.requests[0]!)).toEqual(['hello']);
  });
});

describe('task mode: a task inside a task', () => {
  it("TM-5, TM-8: the user's reply goes to the innermost task; its output answers the outer task, which finishes and answers the root; each model saw only its own", async () => {
    const innerModel = new ScriptedModel([
      textResponse('Window or aisle?'),
      functionCallResponse([{ name: 'finish_task', args: { result: 'aisle' }, id: 'f2' }]),
    ]);
    const inner = new LlmAgent({ name: 'seat_picker', description: 'Picks a seat.', model: innerModel, mode: 'task' });
    const outerModel = new ScriptedModel([
      functionCallResponse([{ name: 'seat_picker', args: { request: 'Pick a seat' }, id: 'c2' }]),
      functionCallResponse([{ name: 'finish_task', args: { result: 'Flight booked, aisle seat' }, id: 'f1' }]),
    ]);
    const outer = new LlmAgent({ name: 'flight_booker', description: 'Books a flight.', model: outerModel, mode: 'task', subAgents: [inner] });
    const rootModel = new ScriptedModel([
      functionCallResponse([{ name: 'flight_booker', args: { request: 'Book a flight' }, id: 'c1' }]),
      textResponse('Booked, with an aisle seat.'),
    ]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model: rootModel, subAgents: [outer] }), appName: 'app' });
    const first = await send(runner, 'Book me a flight');
    expect(first.at(-1)!.content!.parts![0]!.text).toBe('Window or aisle?');
    expect(first.at(-1)!.branch).toBe('flight_booker~c1.seat_picker~c2');
    const second = await send(runner, 'Aisle');
    expect(second.at(-1)!.content!.parts![0]!.text).toBe('Booked, with an aisle seat.');
    expect(textsOf(innerModel.requests[1]!)).toEqual(['Pick a seat', 'Window or aisle?', 'Aisle']);
    expect(textsOf(outerModel.requests[1]!)).toEqual([
      'Book a flight',
      'call seat_picker {"request":"Pick a seat"}',
      'response seat_picker {"result":"aisle"}',
    ]);
    expect(textsOf(rootModel.requests[1]!)).toEqual([
      'Book me a flight',
      'call flight_booker {"request":"Book a flight"}',
      'response flight_booker {"result":"Flight booked, aisle seat"}',
    ]);
  });
});

describe('task mode: a consent inside a task', () => {
  it('TM-9, AU-5: a credential request inside a task surfaces to the client; the reply is completed by the runner\'s manager and the call runs again inside the task', async () => {
    const config: AuthConfig = {
      authScheme: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://idp.test/auth', tokenUrl: 'https://idp.test/token', scopes: {} } } },
      rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'app', clientSecret: 'shh', redirectUri: 'https://app.test/cb' } },
    };
    const tokens = new Map<string, AuthCredential>();
    const manager: CredentialManager = {
      getCredential: async (c, scope) => tokens.get(`${scope.userId}/${await credentialKeyOf(c)}`),
      createRequest: async (c) => ({ ...c, exchangedAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'app', state: 'st', redirectUri: 'https://app.test/cb', authUri: 'https://idp.test/auth?state=st' } } }),
      completeRequest: async (request, reply, scope) => {
        if (new URL(reply.authResponseUri).searchParams.get('state') !== 'st') throw new Error('bad state');
        tokens.set(`${scope.userId}/${request.credentialKey}`, { authType: 'oauth2', oauth2: { accessToken: 'token-1' } });
      },
    };
    const seen: (string | undefined)[] = [];
    const calendar = rawTool('list_events', async (_args, ctx) => {
      const credential = await ctx.getCredential(config);
      seen.push(credential?.oauth2?.accessToken);
      if (!credential) {
        ctx.requestCredential(config);
        return { status: 'Pending User Authorization.' };
      }
      return { events: ['standup'] };
    });
    const collectorModel = new ScriptedModel([
      functionCallResponse([{ name: 'list_events', args: {}, id: 'e1' }]),
      functionCallResponse([{ name: 'finish_task', args: { result: 'free after the standup' }, id: 'f1' }]),
    ]);
    const collector = new LlmAgent({ name: 'scheduler', model: collectorModel, mode: 'task', tools: [calendar] });
    const rootModel = new ScriptedModel([functionCallResponse([{ name: 'scheduler', args: { request: 'When am I free?' }, id: 'c1' }]), textResponse('After the standup.')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model: rootModel, subAgents: [collector] }), appName: 'app', credentials: manager });
    const first = await send(runner, 'When am I free?');
    const request = first.flatMap(getFunctionCalls).find((call) => call.name === REQUEST_CREDENTIAL_FUNCTION)!;
    expect(first.find((e) => getFunctionCalls(e).includes(request))!.branch).toBe('scheduler~c1');
    const authConfig = request.args!.authConfig as AuthConfig;
    const reply: Content = {
      role: 'user',
      parts: [{ functionResponse: { id: request.id, name: REQUEST_CREDENTIAL_FUNCTION, response: { ...authConfig, exchangedAuthCredential: { authType: 'oauth2', oauth2: { authResponseUri: 'https://app.test/cb?code=c&state=st', redirectUri: 'https://app.test/cb' } } } } }],
    };
    const second = await send(runner, reply);
    expect(seen).toEqual([undefined, 'token-1']);
    expect(second.at(-1)!.content!.parts![0]!.text).toBe('After the standup.');
    expect(textsOf(collectorModel.requests[1]!)).toEqual(['When am I free?', 'call list_events {}', 'response list_events {"events":["standup"]}']);
    expect(JSON.stringify(rootModel.requests.map((r) => r.contents))).not.toMatch(/list_events|credential|token-1/);
  });
});

describe('task mode: beside a call that ends the turn', () => {
  it('TM-4, FL-15: a task called together with a long-running tool still opens in the same turn; its answer waits with the model until the tool answers too', async () => {
    const ticket = rawTool('open_ticket', () => undefined, { isLongRunning: true });
    const collectorModel = new ScriptedModel([
      textResponse('Which city?'),
      functionCallResponse([{ name: 'finish_task', args: { result: 'Paris' }, id: 'f1' }]),
    ]);
    const collector = new LlmAgent({ name: 'collector', model: collectorModel, mode: 'task' });
    const rootModel = new ScriptedModel([
      functionCallResponse([
        { name: 'open_ticket', args: {}, id: 't1' },
        { name: 'collector', args: { request: 'Where to?' }, id: 'c1' },
      ]),
      textResponse('Paris it is, and ticket 7 is open.'),
    ]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model: rootModel, tools: [ticket], subAgents: [collector] }), appName: 'app' });
    const first = await send(runner, 'Trip and a ticket');
    expect(first.at(-1)!.content!.parts![0]!.text).toBe('Which city?');
    const second = await send(runner, 'Paris');
    expect(textsOf(collectorModel.requests[1]!)).toEqual(['Where to?', 'Which city?', 'Paris']);
    // The task answered; the model would see open_ticket unanswered, so it waits for that answer.
    expect(getFunctionResponses(second.at(-1)!)[0]).toMatchObject({ id: 'c1', response: { result: 'Paris' } });
    expect(rootModel.requests).toHaveLength(1);
    const third = await send(runner, { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'open_ticket', response: { ticket: 7 } } }] });
    expect(third.at(-1)!.content!.parts![0]!.text).toBe('Paris it is, and ticket 7 is open.');
    expect(textsOf(rootModel.requests[1]!)).toEqual([
      'Trip and a ticket',
      'call open_ticket {}',
      'call collector {"request":"Where to?"}',
      'response collector {"result":"Paris"}',
      'response open_ticket {"ticket":7}',
    ]);
  });
});

describe('task mode: streaming', () => {
  it('TM-6: with SSE streaming, the task\'s question streams as partial events (never saved) and the finished task answers the parent', async () => {
    const collectorModel = new ScriptedModel([
      [{ content: { role: 'model', parts: [{ text: 'Which ' }] } }, { content: { role: 'model', parts: [{ text: 'city?' }] } }],
      functionCallResponse([{ name: 'finish_task', args: { result: 'Rome' }, id: 'f1' }]),
    ]);
    const collector = new LlmAgent({ name: 'collector', model: collectorModel, mode: 'task' });
    const rootModel = new ScriptedModel([functionCallResponse([{ name: 'collector', args: { request: 'Where?' }, id: 'c1' }]), textResponse('Rome.')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model: rootModel, subAgents: [collector] }), appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const run = async (text: string) => {
      const events: Event[] = [];
      for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent(text), runConfig: { streamingMode: 'sse' } }))
        events.push(event);
      return events;
    };
    const first = await run('Trip');
    expect(first.filter((e) => e.partial).map((e) => [e.author, e.branch, e.content?.parts?.[0]?.text])).toEqual([
      ['collector', 'collector~c1', 'Which '],
      ['collector', 'collector~c1', 'city?'],
    ]);
    expect(first.at(-1)!.content!.parts![0]!.text).toBe('Which city?');
    const second = await run('Rome');
    expect(second.at(-1)!.content!.parts![0]!.text).toBe('Rome.');
    const stored = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(stored!.events.some((e) => e.partial)).toBe(false);
    expect(textsOf(collectorModel.requests[1]!)).toEqual(['Where?', 'Which city?', 'Rome']);
  });
});

describe('task mode: hostile finish_task arguments', () => {
  it('TM-7: an own __proto__ key pollutes nothing; a value nested 10,000 deep is refused with an error the model can retry on', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = { deep };
    const forged = JSON.parse('{"result":"ok","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const collectorModel = new ScriptedModel([
      functionCallResponse([{ name: 'finish_task', args: { result: deep }, id: 'f1' }]),
      functionCallResponse([{ name: 'finish_task', args: forged, id: 'f2' }]),
    ]);
    const collector = new LlmAgent({ name: 'collector', model: collectorModel, mode: 'task' });
    const rootModel = new ScriptedModel([functionCallResponse([{ name: 'collector', args: { request: 'x' }, id: 'c1' }]), textResponse('ok')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'root', model: rootModel, subAgents: [collector] }), appName: 'app' });
    const events = await send(runner, 'go');
    const retry = getFunctionResponses(events.find((e) => getFunctionResponses(e).some((r) => r.id === 'f1'))!)[0]!.response as { error?: string };
    expect(retry.error).toBeDefined();
    const answer = getFunctionResponses(events.find((e) => getFunctionResponses(e).some((r) => r.id === 'c1'))!)[0]!.response!;
    expect(answer.result).toBe('ok');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('ok');
  });
});
