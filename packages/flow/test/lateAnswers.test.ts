// Issue #23 point 1 (DESIGN.md "Late answers come last") and point 4 ("Only the flow asks"), through
// ScriptedModel's recorded requests: what exactly the model is sent when an answer arrives after
// other turns, and that every request is a history each provider accepts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createUserContent,
  getFunctionCalls,
  InMemoryRunner,
  LlmAgent,
  REQUEST_CONFIRMATION_FUNCTION,
  type Content,
  type Event,
  type Part,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse, type ScriptStep } from '../src/testing/index.js';
import { rawTool } from './support.js';

async function collect(gen: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of gen) events.push(event);
  return events;
}

/**
 * The shape both adapters need (Gemini passes contents through; OpenAI needs one tool message per
 * call right after it): each model content with calls is followed directly by one user content
 * answering each of its calls exactly once, and no other content answers them again.
 */
function expectEveryCallAnsweredOnceInPlace(contents: readonly Content[]): void {
  contents.forEach((content, index) => {
    const calls = (content.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall] : []));
    if (calls.length === 0) return;
    expect(content.role).toBe('model');
    const next = contents[index + 1];
    expect(next?.role, `the content after call ${calls[0]!.name} answers it`).toBe('user');
    const answers = (next!.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
    expect(answers.map((answer) => answer.id ?? answer.name)).toEqual(calls.map((call) => call.id ?? call.name));
    for (const call of calls) {
      const elsewhere = contents.filter(
        (other, at) => at !== index + 1 && other.parts?.some((part) => part.functionResponse && (part.functionResponse.id ?? part.functionResponse.name) === (call.id ?? call.name)),
      );
      expect(elsewhere).toEqual([]);
    }
  });
}

const texts = (contents: readonly Content[]) => contents.flatMap((content) => (content.parts ?? []).flatMap((part) => (part.text ? [part.text] : [])));

/** A tool that asks for approval first, then books. */
const bookFlight = rawTool('book_flight', (args, ctx) => {
  if (!ctx.toolConfirmation) {
    ctx.requestConfirmation({ hint: `Book a flight to ${String(args.city)}?` });
    return { status: 'waiting for approval' };
  }
  if (!ctx.toolConfirmation.confirmed) throw new Error('The user rejected the booking.');
  return { booked: true, city: args.city, ref: 'LIS-1' };
});

async function pausedBooking(model: ScriptedModel) {
  const agent = new LlmAgent({ name: 'travel', model, tools: [bookFlight] });
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const send = (message: Content) => collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: message }));
  const first = await send(createUserContent('Book Lisbon'));
  const request = first.flatMap(getFunctionCalls).find((call) => call.name === REQUEST_CONFIRMATION_FUNCTION)!;
  expect(request).toBeDefined();
  const reply = (confirmed: boolean) =>
    createUserContent([{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION_FUNCTION, response: { confirmed } } }]);
  return { send, reply };
}

const call = functionCallResponse([{ name: 'book_flight', args: { city: 'Lisbon' }, id: 'call_book' }]);
const LATE_BOOKING =
  'Update from function book_flight: {"booked":true,"city":"Lisbon","ref":"LIS-1"}\n' +
  'This is the latest answer to your earlier call book_flight({"city":"Lisbon"}) (id call_book).';

describe('late answers come last (issue #23 point 1)', () => {
  it('a confirmation approved after another turn: the next request ends with the call, its arguments and its result; the turn in between stays', async () => {
    const model = new ScriptedModel([call, textResponse('Hi! The booking waits for your approval.'), textResponse('Booked: LIS-1.')]);
    const { send, reply } = await pausedBooking(model);
    await send(createUserContent('Meanwhile, hi!'));
    const events = await send(reply(true));

    expect(events.at(-1)!.content!.parts![0]!.text).toBe('Booked: LIS-1.');
    const [, meanwhile, approved] = model.requests;
    expect(approved!.contents.at(-1)).toEqual({ role: 'user', parts: [{ text: LATE_BOOKING }] });
    // Nothing said in between is dropped, and the history the model saw is unchanged: the request
    // extends the previous one by the model's reply and the late answer.
    expect(texts(approved!.contents)).toEqual(['Book Lisbon', 'Meanwhile, hi!', 'Hi! The booking waits for your approval.', LATE_BOOKING]);
    expect(approved!.contents.slice(0, meanwhile!.contents.length)).toEqual(meanwhile!.contents);
    // In place, the call keeps the answer it had: the one that asked for approval.
    expect(approved!.contents[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: 'call_book', name: 'book_flight', response: { status: 'waiting for approval' } } }],
    });
    for (const request of model.requests) expectEveryCallAnsweredOnceInPlace(request.contents);
  });

  it('a rejection given after another turn reaches the model last too, as the error it is', async () => {
    const model = new ScriptedModel([call, textResponse('Hi!'), textResponse('Not booked.')]);
    const { send, reply } = await pausedBooking(model);
    await send(createUserContent('Meanwhile, hi!'));
    await send(reply(false));
    expect(model.requests[2]!.contents.at(-1)).toEqual({
      role: 'user',
      parts: [
        {
          text:
            'Update from function book_flight: {"error":"The user rejected the booking."}\n' +
            'This is the latest answer to your earlier call book_flight({"city":"Lisbon"}) (id call_book).',
        },
      ],
    });
    expectEveryCallAnsweredOnceInPlace(model.requests[2]!.contents);
  });

  it('approved with nothing in between: the result takes the place of the asking response, and the request ends with it', async () => {
    const model = new ScriptedModel([call, textResponse('Booked: LIS-1.')]);
    const { send, reply } = await pausedBooking(model);
    await send(reply(true));
    const contents = model.requests[1]!.contents;
    expect(contents.at(-1)).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: 'call_book', name: 'book_flight', response: { booked: true, city: 'Lisbon', ref: 'LIS-1' } } }],
    });
    expect(texts(contents)).toEqual(['Book Lisbon']);
    expectEveryCallAnsweredOnceInPlace(contents);
  });

  it('FL-15, one rule for long-running calls: pending in place while other turns follow, the answer last when it comes', async () => {
    const ticket = rawTool('open_ticket', () => undefined, { isLongRunning: true });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'open_ticket', args: { summary: 'VPN down' }, id: 'call_t' }]),
      textResponse('Still waiting for the ticket.'),
      textResponse('Ticket T-9 is open.'),
    ]);
    const agent = new LlmAgent({ name: 'desk', model, tools: [ticket] });
    const runner = new InMemoryRunner({ agent, appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const send = (message: Content) => collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: message }));
    await send(createUserContent('Open a ticket'));
    await send(createUserContent('Any news?'));
    await send(createUserContent([{ functionResponse: { id: 'call_t', name: 'open_ticket', response: { ticket: 'T-9' } } }]));

    const [, waiting, answered] = model.requests;
    expect(waiting!.contents[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: 'call_t', name: 'open_ticket', response: { status: 'pending' } } }],
    });
    expect(answered!.contents.at(-1)).toEqual({
      role: 'user',
      parts: [
        {
          text:
            'Update from function open_ticket: {"ticket":"T-9"}\n' +
            'This is the latest answer to your earlier call open_ticket({"summary":"VPN down"}) (id call_t).',
        },
      ],
    });
    expect(answered!.contents.slice(0, waiting!.contents.length)).toEqual(waiting!.contents);
    for (const request of model.requests) expectEveryCallAnsweredOnceInPlace(request.contents);
  });

  it('parallel calls, one of them long-running: each answered once in place, in call order, the late one pending', async () => {
    const ticket = rawTool('open_ticket', () => undefined, { isLongRunning: true });
    const lookup = rawTool('lookup', () => ({ user: 'ana' }));
    const model = new ScriptedModel([
      functionCallResponse([
        { name: 'open_ticket', args: {}, id: 'call_t' },
        { name: 'lookup', args: {}, id: 'call_l' },
      ]),
      textResponse('Looked up ana; the ticket is pending.'),
      textResponse('Hello.'),
    ]);
    const agent = new LlmAgent({ name: 'desk', model, tools: [ticket, lookup] });
    const runner = new InMemoryRunner({ agent, appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('go') }));
    await collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('hello') }));
    const contents = model.requests.at(-1)!.contents;
    expectEveryCallAnsweredOnceInPlace(contents);
    expect(contents[2]!.parts!.map((part: Part) => part.functionResponse?.response)).toEqual([{ status: 'pending' }, { user: 'ana' }]);
  });
});

describe('only the flow asks (issue #23 point 4)', () => {
  it("a model calling adk_request_confirmation itself sees the refusal, paired with its call, and stops (no LLM_CALLS_LIMIT_EXCEEDED)", async () => {
    const loop: ScriptStep = (request) => {
      const refused = request.contents.some((content) =>
        content.parts?.some((part) => part.functionResponse?.name === REQUEST_CONFIRMATION_FUNCTION && 'error' in (part.functionResponse.response ?? {})),
      );
      return refused
        ? textResponse('I may not ask for approval myself; booking needs the tool.')
        : functionCallResponse([{ name: REQUEST_CONFIRMATION_FUNCTION, args: { hint: 'ok?' } }]);
    };
    const model = new ScriptedModel(Array.from({ length: 30 }, () => loop));
    const agent = new LlmAgent({ name: 'sneaky', model, tools: [bookFlight] });
    const runner = new InMemoryRunner({ agent, appName: 'app' });
    await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    const events = await collect(
      runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('Book Lisbon'), runConfig: { maxLlmCalls: 20 } }),
    );

    expect(events.filter((event) => event.errorCode)).toEqual([]);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('I may not ask for approval myself; booking needs the tool.');
    expect(model.requests).toHaveLength(2);
    const contents = model.requests[1]!.contents;
    expectEveryCallAnsweredOnceInPlace(contents);
    expect(contents[1]!.parts![0]!.functionCall).toMatchObject({ name: REQUEST_CONFIRMATION_FUNCTION, args: { hint: 'ok?' } });
    expect(contents[2]!.parts![0]!.functionResponse!.response).toEqual({
      error:
        '"adk_request_confirmation" is reserved for adkit\'s confirmation protocol: only the framework asks the user for approval. Call the tool you need directly; if it needs approval, it asks.',
    });
    // Told once: the refusal is in the history once, and no flow-made request exists.
    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(session!.events.filter((event) => event.longRunningToolIds?.length)).toEqual([]);
  });

  it("the flow's own requests and the client's replies stay out of the model's view", async () => {
    const model = new ScriptedModel([call, textResponse('Booked.')]);
    const { send, reply } = await pausedBooking(model);
    await send(reply(true));
    const names = model.requests.flatMap((request) =>
      request.contents.flatMap((content) => (content.parts ?? []).map((part) => part.functionCall?.name ?? part.functionResponse?.name)),
    );
    expect(names).not.toContain(REQUEST_CONFIRMATION_FUNCTION);
  });
});

describe('the README tells the late-answer rule as it is', () => {
  it("the flow README's late answer is the one the model gets", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Late answers come last'));
    expect(/```text\n([\s\S]*?)\n```/.exec(section)?.[1]).toBe(LATE_BOOKING);
  });
});
