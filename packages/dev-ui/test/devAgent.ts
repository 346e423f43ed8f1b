// The agent the dev UI's tests drive: offline on a ScriptedModel whose steps pick a tool from the
// user's words, with every kind of call the page must show — a plain tool, two slow tools the
// model calls in parallel, a tool behind a confirmation gate, one asking with an editable payload,
// a long-running tool, a streaming tool, one that saves artifacts and state, and one whose result
// carries HTML (an XSS payload, which must show as text); and a task sub-agent that asks the user
// one question before it finishes (#27).
import { setTimeout as sleep } from 'node:timers/promises';
import { LlmAgent, createModelContent, type LlmRequest, type LlmResponse } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { functionTool, streamingFunctionTool } from '@adkit/function-tool';
import Type from 'typebox';

/** A 2×2 red PNG. */
export const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

export const XSS_HTML = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';

const getWeather = functionTool({
  name: 'get_weather',
  description: 'The weather in a city now.',
  parameters: Type.Object({ city: Type.String() }),
  execute: ({ city }) => ({ city, sky: 'sunny', celsius: 21 }),
});

const slowLookup = functionTool({
  name: 'slow_lookup',
  description: 'Looks a topic up (takes a while).',
  parameters: Type.Object({ topic: Type.String() }),
  execute: async ({ topic }, ctx) => {
    await sleep(300, undefined, { signal: ctx.signal });
    return { topic, found: `notes on ${topic}` };
  },
});

const bookTrip = functionTool({
  name: 'book_trip',
  description: 'Books a trip.',
  parameters: Type.Object({ city: Type.String() }),
  requireConfirmation: true,
  execute: ({ city }) => ({ booked: city, reference: `BK-${city.toUpperCase()}` }),
});

const requestVacation = functionTool({
  name: 'request_vacation_days',
  description: 'Asks the manager to approve vacation days.',
  parameters: Type.Object({ days: Type.Integer({ minimum: 1 }) }),
  execute: ({ days }, ctx) => {
    if (!ctx.toolConfirmation) {
      ctx.requestConfirmation({ hint: `Approve ${days} days?`, payload: { days_approved: days } });
      return { status: 'Waiting for the manager.' };
    }
    if (!ctx.toolConfirmation.confirmed) return { status: 'Rejected.' };
    const { days_approved } = ctx.toolConfirmation.payload as { days_approved: number };
    return { status: 'Approved.', days: Math.min(days_approved, days) };
  },
});

const askForApproval = functionTool({
  name: 'ask_for_approval',
  description: 'Asks finance to approve a reimbursement; finance answers later.',
  parameters: Type.Object({ amount: Type.Number() }),
  isLongRunning: true,
  execute: ({ amount }) => ({ status: 'pending', amount, ticket: 'T-42' }),
});

const planTrip = streamingFunctionTool({
  name: 'plan_trip',
  description: 'Plans a trip day by day.',
  parameters: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 5 }) }),
  async *execute({ days }, ctx) {
    for (let day = 1; day <= days; day++) {
      await sleep(60, undefined, { signal: ctx.signal });
      yield `Day ${day}: a museum.\n`;
    }
  },
});

const saveNote = functionTool({
  name: 'save_note',
  description: 'Saves a note and a picture, and remembers the topic.',
  parameters: Type.Object({ text: Type.String() }),
  execute: async ({ text }, ctx) => {
    await ctx.saveArtifact('note.txt', { text });
    await ctx.saveArtifact('pixel.png', { inlineData: { mimeType: 'image/png', data: RED_PIXEL_PNG } });
    await ctx.saveArtifact('page.html', { inlineData: { mimeType: 'text/html', data: Buffer.from(XSS_HTML).toString('base64') } });
    ctx.state.set('topic', text);
    ctx.state.set('user:language', 'en');
    ctx.state.set('app:notes_saved', 1);
    ctx.state.set('__proto__', { polluted: true });
    return { saved: ['note.txt', 'pixel.png', 'page.html'] };
  },
});

const echoHtml = functionTool({
  name: 'echo_html',
  description: 'Returns a snippet of HTML.',
  parameters: Type.Object({}),
  execute: () => ({ html: XSS_HTML }),
});

const fail = functionTool({
  name: 'flaky',
  description: 'Always fails.',
  parameters: Type.Object({}),
  execute: () => {
    throw new Error('the flaky service is down');
  },
});

/** A note written slowly: the call's arguments stream in (#30), then the call. */
function draftNote(): LlmResponse[] {
  const args = '{"text":"trains are greener than planes"}';
  const deltas = [12, 24, args.length].map((end) => ({ toolCallDelta: { index: 0, functionCallId: 'call_draft', name: 'save_note', argsTextSoFar: args.slice(0, end) } }));
  return [...deltas, functionCallResponse([{ name: 'save_note', args: JSON.parse(args) as Record<string, unknown>, id: 'call_draft' }])];
}

const ROUTES: [RegExp, (text: string) => LlmResponse | LlmResponse[]][] = [
  [/draft/i, () => draftNote()],
  [/details/i, (text) => functionCallResponse([{ name: 'trip_details', args: { request: text } }])],
  [/seat/i, (text) => functionCallResponse([{ name: 'booking_helper', args: { request: text } }])],
  [/weather/i, () => functionCallResponse([{ name: 'get_weather', args: { city: 'Paris' } }])],
  [/compare/i, () => functionCallResponse([{ name: 'slow_lookup', args: { topic: 'trains' } }, { name: 'slow_lookup', args: { topic: 'planes' } }])],
  [/book/i, (text) => functionCallResponse([{ name: 'book_trip', args: { city: /rome/i.test(text) ? 'Rome' : 'Oslo' } }])],
  [/vacation/i, () => functionCallResponse([{ name: 'request_vacation_days', args: { days: 5 } }])],
  [/reimburse/i, () => functionCallResponse([{ name: 'ask_for_approval', args: { amount: 480 } }])],
  [/plan/i, () => functionCallResponse([{ name: 'plan_trip', args: { days: 3 } }])],
  [/note/i, () => functionCallResponse([{ name: 'save_note', args: { text: 'trains are greener' } }])],
  [/html/i, () => functionCallResponse([{ name: 'echo_html', args: {} }])],
  [/flaky/i, () => functionCallResponse([{ name: 'flaky', args: {} }])],
];

/** One model step: a tool for the user's words, a summary of tool results, or an echo streamed in two chunks. */
export function brain(request: LlmRequest): LlmResponse | LlmResponse[] {
  const parts = request.contents.at(-1)?.parts ?? [];
  const responses = parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
  if (responses.length > 0)
    return textResponse(`Done: ${responses.map((r) => `${r.name} → ${JSON.stringify(r.response)}`).join('; ')}`);
  const text = parts.map((part) => part.text ?? '').join(' ');
  // A long-running call's real answer reaches the model as a text update.
  if (text.startsWith('Update from function')) return textResponse(`Noted: ${text}`);
  const route = ROUTES.find(([pattern]) => pattern.test(text));
  if (route) return route[1](text);
  return [{ content: createModelContent('You said: ') }, { content: createModelContent(text) }];
}

/** The task agent's step: it asks which city, and finishes with the user's answer. */
function taskBrain(request: LlmRequest): LlmResponse {
  const said = request.contents.filter((c) => c.role === 'user').map((c) => (c.parts ?? []).map((p) => p.text ?? '').join(''));
  if (said.length < 2) return textResponse('Which city?');
  return functionCallResponse([{ name: 'finish_task', args: { result: `A trip to ${said.at(-1)}` } }]);
}

/** A task that delegates to a task of its own: it calls seat_picker, then finishes with its answer. */
function bookingBrain(request: LlmRequest): LlmResponse {
  const answer = (request.contents.at(-1)?.parts ?? []).find((p) => p.functionResponse?.name === 'seat_picker')?.functionResponse;
  if (!answer) return functionCallResponse([{ name: 'seat_picker', args: { request: 'Pick a seat' } }]);
  return functionCallResponse([{ name: 'finish_task', args: { result: `Booked, seat: ${JSON.stringify(answer.response)}` } }]);
}

/** The test agent, on a fresh scripted model. */
export function devAgent(name = 'assistant'): LlmAgent {
  return new LlmAgent({
    name,
    description: 'Answers from a script, with every kind of tool call.',
    instruction: 'You help with travel. Today is {today?}.',
    model: new ScriptedModel(Array.from({ length: 500 }, () => brain), { model: 'scripted-brain' }),
    tools: [getWeather, slowLookup, bookTrip, requestVacation, askForApproval, planTrip, saveNote, echoHtml, fail],
    subAgents: [
      new LlmAgent({
        name: 'trip_details',
        description: 'Collects where the user wants to go.',
        mode: 'task',
        model: new ScriptedModel(Array.from({ length: 100 }, () => taskBrain), { model: 'scripted-task' }),
      }),
      new LlmAgent({
        name: 'booking_helper',
        description: 'Books, with a seat the user picks.',
        mode: 'task',
        model: new ScriptedModel(Array.from({ length: 100 }, () => bookingBrain), { model: 'scripted-booking' }),
        subAgents: [
          new LlmAgent({
            name: 'seat_picker',
            description: 'Asks the user for a seat.',
            mode: 'task',
            model: new ScriptedModel(Array.from({ length: 100 }, () => taskBrain), { model: 'scripted-seat' }),
          }),
        ],
      }),
    ],
  });
}
