// The offline demo brain as a Model: deterministic tool calls from the user's words, answers from
// the tools' real results, the long-running and artifact protocols as a model sees them.
// Bad input tried: `__proto__` and `constructor` as messages, a 50 MB message, an amount too big
// to be a finite number, a tool the agent does not have, a late answer that is not JSON.
import { createLlmRequest, type Content, type LlmRequest, type LlmResponse } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import { DemoBrain, SummarizerBrain, demoBrainReply } from '../src/demoBrain.js';

const ALL_TOOLS = [
  'get_weather', 'convert_currency', 'book_trip', 'ask_for_approval', 'reimburse', 'request_vacation_days', 'plan_itinerary',
  'save_note', 'load_artifacts', 'load_memory', 'summarizer', 'get_forecast', 'list_directory', 'read_text_file', 'load_skill',
];

function request(contents: Content[], options: { tools?: string[]; instruction?: string } = {}): LlmRequest {
  const req = createLlmRequest({ contents, config: options.instruction ? { systemInstruction: { role: 'user', parts: [{ text: options.instruction }] } } : {} });
  for (const name of options.tools ?? ALL_TOOLS) req.tools[name] = { name, description: name };
  return req;
}
const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const callsOf = (reply: LlmResponse) => (reply.content?.parts ?? []).map((part) => part.functionCall ?? { text: part.text });

describe('the demo brain picks tools from the user’s words', () => {
  it.each([
    ["What's the weather in Lisbon and Tokyo, and how much is 200 USD in EUR?", [
      { name: 'get_weather', args: { city: 'Lisbon' } },
      { name: 'get_weather', args: { city: 'Tokyo' } },
      { name: 'convert_currency', args: { amount: 200, from: 'USD', to: 'EUR' } },
    ]],
    ['Book me 3 nights in Oslo', [{ name: 'book_trip', args: { city: 'Oslo', nights: 3 } }]],
    ['Please reimburse $45 for a taxi.', [{ name: 'reimburse', args: { purpose: 'taxi', amount: 45 } }]],
    ['Reimburse $100.50 for the team lunch', [{ name: 'ask_for_approval', args: { purpose: 'team lunch', amount: 100.5 } }]],
    ['I would like 4 days off', [{ name: 'request_vacation_days', args: { days: 4 } }]],
    ['Summarise: One. Two.', [{ name: 'summarizer', args: { request: 'One. Two.' } }]],
    ['3-day forecast for Tokyo', [{ name: 'get_forecast', args: { city: 'Tokyo', days: 3 } }]],
    ['Plan 2 days in Paris', [{ name: 'plan_itinerary', args: { city: 'Paris', days: 2 } }]],
    ['read trip-ideas.txt', [{ name: 'read_text_file', args: { path: 'trip-ideas.txt' } }]],
    ['Save a note: pack the umbrella', [{ name: 'save_note', args: { text: 'pack the umbrella' } }]],
    ["What's my favourite city?", [{ name: 'load_memory', args: { query: 'favourite' } }]],
  ])('%s', (text, expected) => {
    expect(callsOf(demoBrainReply(request([user(text)])))).toEqual(expected);
  });

  it('skills and notes are used only when the instruction lists them', () => {
    expect(callsOf(demoBrainReply(request([user('help me pack')])))).toEqual([{ text: 'I have no packing skill loaded.' }]);
    expect(callsOf(demoBrainReply(request([user('help me pack')], { instruction: '<available_skills>\n<skill>\n<name>\npacking-list\n</name>' })))).toEqual([
      { name: 'load_skill', args: { name: 'packing-list' } },
    ]);
    expect(callsOf(demoBrainReply(request([user('what is in my notes?')], { instruction: 'You have a list of artifacts:\n  ["user:notes.md"]' })))).toEqual([
      { name: 'load_artifacts', args: { artifact_names: ['user:notes.md'] } },
    ]);
  });

  it('a tool the agent lacks is named instead of called; search without Gemini says what to set', () => {
    expect(callsOf(demoBrainReply(request([user('Book 2 nights in Oslo')], { tools: [] })))).toEqual([
      { text: 'That needs the book_trip tool, which I do not have here.' },
    ]);
    expect(callsOf(demoBrainReply(request([user('search the news')])))).toEqual([
      { text: 'Searching the web needs Google Search, a Gemini-native tool: set GEMINI_API_KEY and ask again.' },
    ]);
    expect(callsOf(demoBrainReply(request([user('search the news')], { tools: ['web_search'] })))).toEqual([
      { name: 'web_search', args: { request: 'search the news' } },
    ]);
  });

  it('hostile messages get the help text or a question, fast, never a crash or a non-finite number', () => {
    for (const text of ['__proto__', 'constructor', '', 'reimburse $' + '9'.repeat(400) + ' for x', 'vacation of ' + '9'.repeat(400) + ' days']) {
      const [part] = callsOf(demoBrainReply(request([user(text)])));
      expect(part).toHaveProperty('text');
    }
    const started = performance.now();
    const huge = `${'1 usd '.repeat(10_000_000)}in eur`; // 60 MB of almost-matches
    expect(callsOf(demoBrainReply(request([user(huge)])))).toEqual([{ text: expect.stringMatching(/^I am the offline demo brain/) }]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('the demo brain answers from results', () => {
  it('words each result; two reads of the same tool keep their own paths (the flow hides adk- ids)', () => {
    const reply = demoBrainReply(request([
      user('read a.txt and b.txt'),
      { role: 'model', parts: [{ functionCall: { name: 'read_text_file', args: { path: 'a.txt' } } }, { functionCall: { name: 'read_text_file', args: { path: 'b.txt' } } }] },
      { role: 'user', parts: [
        { functionResponse: { name: 'read_text_file', response: { output: { content: 'A\n' } } } },
        { functionResponse: { name: 'read_text_file', response: { output: { content: 'B\n' } } } },
      ] },
    ]));
    expect(callsOf(reply)).toEqual([{ text: 'a.txt says: "A"\nb.txt says: "B"' }]);
  });

  it('FL-15: an approved long-running claim leads to reimburse with its own arguments; a rejected one is reported', () => {
    const history: Content[] = [
      user('reimburse $480 for dinner'),
      { role: 'model', parts: [{ functionCall: { name: 'ask_for_approval', args: { purpose: 'dinner', amount: 480 } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'ask_for_approval', response: { status: 'pending', ticketId: 't-1' } } }] },
      { role: 'model', parts: [{ text: 'pending' }] },
    ];
    expect(callsOf(demoBrainReply(request([...history, user('Update from function ask_for_approval: {"status":"approved","ticketId":"t-1"}')])))).toEqual([
      { name: 'reimburse', args: { purpose: 'dinner', amount: 480 } },
    ]);
    expect(callsOf(demoBrainReply(request([...history, user('Update from function ask_for_approval: {"status":"rejected","ticketId":"t-1"}')])))).toEqual([
      { text: 'The manager rejected your $480 claim for dinner (t-1), so nothing was paid.' },
    ]);
    expect(callsOf(demoBrainReply(request([...history, user('Update from function ask_for_approval: not json')])))).toEqual([
      { text: 'The manager rejected your $480 claim for dinner (no ticket), so nothing was paid.' },
    ]);
  });

  it('issue #23 point 1: a late answer is acted on for the call it names (by id, else its arguments), not the newest call', () => {
    const claim = (id: string, purpose: string, amount: number): Content[] => [
      user(`reimburse $${amount} for ${purpose}`),
      { role: 'model', parts: [{ functionCall: { id, name: 'ask_for_approval', args: { purpose, amount } } }] },
      { role: 'user', parts: [{ functionResponse: { id, name: 'ask_for_approval', response: { status: 'pending' } } }] },
      { role: 'model', parts: [{ text: 'pending' }] },
    ];
    const history = [...claim('call_1', 'dinner', 480), ...claim('call_2', 'hotel', 300)];
    const late = (args: string, id = '') =>
      user(`Update from function ask_for_approval: {"status":"approved"}\nThis is the latest answer to your earlier call ask_for_approval(${args})${id}.`);
    // By id: even when the repeated arguments were cut ("…", no JSON).
    expect(callsOf(demoBrainReply(request([...history, late('{"purpose":"din…', ' (id call_1)')])))).toEqual([
      { name: 'reimburse', args: { purpose: 'dinner', amount: 480 } },
    ]);
    // No id (the flow leaves its own adk- ids out): the arguments it repeats name the claim.
    expect(callsOf(demoBrainReply(request([...history, late('{"purpose":"dinner","amount":480}')])))).toEqual([
      { name: 'reimburse', args: { purpose: 'dinner', amount: 480 } },
    ]);
    // A confirmation approved later is told as the result it is; two late answers in one turn, each.
    const booked = user(
      'Update from function book_trip: {"reference":"OSL-1001","city":"Oslo","nights":2,"status":"confirmed"}\nThis is the latest answer to your earlier call book_trip({"city":"Oslo","nights":2}).',
    );
    const rejected = user('Update from function ask_for_approval: {"status":"rejected","ticketId":"t-2"}\nThis is the latest answer to your earlier call ask_for_approval({"purpose":"hotel","amount":300}).');
    expect(callsOf(demoBrainReply(request([...history, { role: 'user', parts: [...booked.parts!, ...rejected.parts!] }])))).toEqual([
      { text: 'Booked 2 nights in Oslo; your reference is OSL-1001.\nThe manager rejected your $300 claim for hotel (t-2), so nothing was paid.' },
    ]);
  });

  it('BT-2: the artifacts load_artifacts put after its response are quoted', () => {
    const reply = demoBrainReply(request([
      user('what is in my notes?'),
      { role: 'model', parts: [{ functionCall: { name: 'load_artifacts', args: { artifact_names: ['user:notes.md'] } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'load_artifacts', response: { artifact_names: ['user:notes.md'] } } }] },
      { role: 'user', parts: [{ text: 'Artifact user:notes.md is:' }, { text: '# Notes\n- one\n' }] },
    ]));
    expect(callsOf(reply)).toEqual([{ text: 'user:notes.md (loaded with load_artifacts) says:\n# Notes\n- one' }]);
  });

  it('is a Model: yields one response, nothing once aborted; the summarizer keeps to one sentence', async () => {
    const collect = async (model: DemoBrain | SummarizerBrain, req: LlmRequest, signal?: AbortSignal) => {
      const out: LlmResponse[] = [];
      for await (const response of model.generateContent(req, { stream: false, ...(signal ? { signal } : {}) })) out.push(response);
      return out;
    };
    expect(await collect(new DemoBrain(), request([user('hello')]))).toHaveLength(1);
    expect(await collect(new DemoBrain(), request([user('hello')]), AbortSignal.abort())).toEqual([]);
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    expect(callsOf((await collect(new SummarizerBrain(), request([user(`${words}. Second. Third!`)])))[0]!)).toEqual([
      { text: `${words.split(' ').slice(0, 16).join(' ')}… (and 2 more sentences)` },
    ]);
    expect(callsOf((await collect(new SummarizerBrain(), request([user('   ')])))[0]!)).toEqual([{ text: 'There is nothing to summarise.' }]);
  });
});

describe('the demo brain and the calendar behind OAuth (#25)', () => {
  it('AU-9: before the sign-in it calls the consent tool (the only calendar tool listed), after it list_events, for the day asked', () => {
    expect(callsOf(demoBrainReply(request([user('Show my calendar')], { tools: ['authorize_calendar'] })))).toEqual([{ name: 'authorize_calendar', args: {} }]);
    expect(callsOf(demoBrainReply(request([user("What's on my schedule tomorrow?")], { tools: ['list_events'] })))).toEqual([{ name: 'list_events', args: { day: 'tomorrow' } }]);
    expect(callsOf(demoBrainReply(request([user('Show my calendar')], { tools: [] })))).toEqual([{ text: 'The calendar needs the calendar MCP server, which I do not have here.' }]);
  });

  it('AU-5: once authorized (the call resumed), it makes the call the consent was for; a refused consent is told, not retried', () => {
    const authorized = (response: Record<string, unknown>, tools: string[]) =>
      demoBrainReply(
        request(
          [
            user('Show my calendar for tomorrow'),
            { role: 'model', parts: [{ functionCall: { name: 'authorize_calendar', args: {} } }] },
            { role: 'user', parts: [{ functionResponse: { name: 'authorize_calendar', response } }] },
          ],
          { tools },
        ),
      );
    expect(callsOf(authorized({ status: 'Authorized: the tools are available now.' }, ['authorize_calendar', 'list_events']))).toEqual([{ name: 'list_events', args: { day: 'tomorrow' } }]);
    expect(callsOf(authorized({ error: 'Authorization failed: the state does not match.' }, ['authorize_calendar', 'list_events']))).toEqual([
      { text: 'authorize_calendar failed: Authorization failed: the state does not match.' },
    ]);
  });
});
