// #30 point 1: a tool may put parts (images, PDFs, files: inline bytes or file references) beside
// its JSON result with `withResponseParts`; the flow stores them on the function response
// (`FunctionResponse.parts`), so the event shows them and the next request carries them to the
// adapter, which sends them the way its provider takes them. Parts that cannot be sent are an
// error the model sees; a call without parts does no extra work and stores no `parts` key.
import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  MAX_RESPONSE_PARTS,
  createUserContent,
  getFunctionResponses,
  responsePartsOf,
  withResponseParts,
  type Event,
  type FunctionResponsePart,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool } from './support.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const image: FunctionResponsePart = { inlineData: { mimeType: 'image/png', data: PNG } };

async function run(agent: LlmAgent): Promise<{ events: Event[]; runner: InMemoryRunner }> {
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('chart') })) events.push(event);
  return { events, runner };
}
const responses = (events: Event[]) => events.flatMap((event) => getFunctionResponses(event));

describe('#30: parts beside a tool result', () => {
  it('withResponseParts: the function response carries the parts, they are saved, and the next request has them', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'chart', args: {}, id: 'c1' }]), textResponse('A rising line.')]);
    const chart = rawTool('chart', () => withResponseParts({ title: 'Sales' }, [image, { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/s.pdf' } }]));
    const { events, runner } = await run(new LlmAgent({ name: 'root', model, tools: [chart] }));
    const expected = {
      id: 'c1',
      name: 'chart',
      response: { title: 'Sales' },
      parts: [image, { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/s.pdf' } }],
    };
    expect(responses(events)).toEqual([expected]);
    const stored = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(responses(stored!.events)).toEqual([expected]);
    const last = model.requests[1]!.contents.at(-1)!;
    expect(last.parts).toEqual([{ functionResponse: expected }]);
    // The parts are not part of the JSON result.
    expect(JSON.stringify(withResponseParts({ a: 1 }, [image]))).toBe('{"a":1}');
    expect(responsePartsOf(withResponseParts({ a: 1 }, [image]))).toEqual([image]);
  });

  it('a result without parts stores no parts key', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'plain', args: {}, id: 'c1' }]), textResponse('ok')]);
    const { events } = await run(new LlmAgent({ name: 'root', model, tools: [rawTool('plain', () => ({ ok: true }))] }));
    expect(responses(events)).toEqual([{ id: 'c1', name: 'plain', response: { ok: true } }]);
  });

  it('an after-tool callback may replace the result and its parts; the result it returns without parts keeps the tool\'s', async () => {
    const other: FunctionResponsePart = { inlineData: { mimeType: 'image/jpeg', data: 'AAAA' } };
    const model = new ScriptedModel([functionCallResponse([{ name: 'chart', args: {}, id: 'c1' }, { name: 'chart2', args: {}, id: 'c2' }]), textResponse('ok')]);
    const agent = new LlmAgent({
      name: 'root',
      model,
      tools: [rawTool('chart', () => withResponseParts({ v: 1 }, [image])), rawTool('chart2', () => withResponseParts({ v: 2 }, [image]))],
      afterToolCallback: ({ tool, response }) => (tool.name === 'chart' ? withResponseParts({ ...response, redacted: true }, [other]) : { ...response, seen: true }),
    });
    const { events } = await run(agent);
    expect(responses(events)).toEqual([
      { id: 'c1', name: 'chart', response: { v: 1, redacted: true }, parts: [other] },
      { id: 'c2', name: 'chart2', response: { v: 2, seen: true }, parts: [image] },
    ]);
  });

  it('parts that cannot be sent are an error the model sees, naming the tool and the fix; nothing of them is stored', async () => {
    const cases: [unknown, string][] = [
      ['not a list', 'they are not a list'],
      [[{ inlineData: { mimeType: 'image/png', data: 'not base64!' } }], 'part 0 has neither'],
      [[{ inlineData: { data: PNG } }], 'part 0 has neither'],
      [[image, { fileData: { mimeType: 'application/pdf' } }], 'part 1 has neither'],
      [[{ ['__proto__']: { polluted: true } }], 'part 0 has neither'],
      [Array.from({ length: MAX_RESPONSE_PARTS + 1 }, () => image), `${MAX_RESPONSE_PARTS + 1} parts, more than ${MAX_RESPONSE_PARTS}`],
    ];
    for (const [parts, what] of cases) {
      const model = new ScriptedModel([functionCallResponse([{ name: 'bad', args: {}, id: 'c1' }]), textResponse('ok')]);
      const bad = rawTool('bad', () => withResponseParts({ ok: true }, parts as FunctionResponsePart[]));
      const { events } = await run(new LlmAgent({ name: 'root', model, tools: [bad] }));
      expect(responses(events)).toEqual([
        {
          id: 'c1',
          name: 'bad',
          response: {
            error: `Tool "bad" returned response parts that cannot be sent: ${what}. Give each part inlineData {mimeType, data (base64)} or fileData {mimeType, fileUri}.`,
          },
        },
      ]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stored parts are copies of what the tool gave (only the known fields)', async () => {
    const given = { inlineData: { mimeType: 'image/png', data: PNG, extra: 'dropped' } } as FunctionResponsePart;
    const model = new ScriptedModel([functionCallResponse([{ name: 'chart', args: {}, id: 'c1' }]), textResponse('ok')]);
    const { events } = await run(new LlmAgent({ name: 'root', model, tools: [rawTool('chart', () => withResponseParts({}, [given]))] }));
    expect(responses(events)[0]!.parts).toEqual([image]);
    expect(responses(events)[0]!.parts![0]).not.toBe(given);
  });
});

describe('#30: toModelOutput: what the model is sent differs from what is stored and shown', () => {
  it('the event keeps the tool result; the next request (and a new runner on the saved events) sends the mapped one, with its parts', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'account', args: {}, id: 'c1' }]), textResponse('ok'), textResponse('again')]);
    const tool = {
      ...rawTool('account', () => ({ owner: 'Ada', iban: 'DE89 3704 0044 0532 0130 00' })),
      toModelOutput: (result: Record<string, unknown>) => withResponseParts({ owner: result.owner, iban: '[redacted]' }, [image]),
    };
    const agent = new LlmAgent({ name: 'root', model, tools: [tool] });
    const { events, runner } = await run(agent);
    const [response] = responses(events);
    expect(response).toEqual({ id: 'c1', name: 'account', response: { owner: 'Ada', iban: 'DE89 3704 0044 0532 0130 00' } });
    const sent = model.requests[1]!.contents.at(-1)!.parts;
    expect(sent).toEqual([{ functionResponse: { id: 'c1', name: 'account', response: { owner: 'Ada', iban: '[redacted]' }, parts: [image] } }]);
    expect(JSON.stringify(model.requests[1])).not.toContain('DE89');
    // A later turn, built from the saved events only, still sends the view.
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('more') })) void _;
    expect(JSON.stringify(model.requests[2]!.contents)).not.toContain('DE89');
    expect(JSON.stringify(model.requests[2]!.contents)).toContain('[redacted]');
  });

  it('a throwing toModelOutput is the call\'s error; the unmapped result reaches neither the model nor the event', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'secret', args: {}, id: 'c1' }]), textResponse('ok')]);
    const tool = {
      ...rawTool('secret', () => ({ token: 'sk-live-123' })),
      toModelOutput: () => {
        throw new Error('no summary today');
      },
    };
    const { events } = await run(new LlmAgent({ name: 'root', model, tools: [tool] }));
    expect(responses(events)).toEqual([{ id: 'c1', name: 'secret', response: { error: 'Tool "secret": toModelOutput failed: no summary today' } }]);
    expect(JSON.stringify(model.requests[1])).not.toContain('sk-live');
  });
});

describe('#30: large parts go through maxToolOutputBytes', () => {
  it('an inline part over the budget is saved as an artifact and left out; the response says where it is; small parts and file references stay', async () => {
    const big: FunctionResponsePart = { inlineData: { mimeType: 'image/png', data: 'A'.repeat(8000) } };
    const file: FunctionResponsePart = { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/r.pdf' } };
    const model = new ScriptedModel([functionCallResponse([{ name: 'shot', args: {}, id: 'c1' }]), textResponse('ok')]);
    const agent = new LlmAgent({ name: 'root', model, maxToolOutputBytes: 4096, tools: [rawTool('shot', () => withResponseParts({ page: 1 }, [image, big, file]))] });
    const { events, runner } = await run(agent);
    const [response] = responses(events);
    expect(response!.parts).toEqual([image, file]);
    expect(response!.response).toEqual({
      page: 1,
      partsSetAside: [{ mimeType: 'image/png', sizeBytes: 6000, artifact: 'tool-outputs/shot-c1-part1' }],
      partsNote: '1 part(s) of this result are over maxToolOutputBytes (4096) and were left out; those with an artifact can be loaded with load_artifacts.',
    });
    const saved = await runner.artifactService.loadArtifact({ appName: 'app', userId: 'u', sessionId: 's', filename: 'tool-outputs/shot-c1-part1' });
    expect(saved).toEqual({ inlineData: { mimeType: 'image/png', data: 'A'.repeat(8000) } });
  });
});
