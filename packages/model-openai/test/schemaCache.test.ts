// Issue 9 ("no module-level caches"): the converted and strict schemas live on the model that
// openai() returns. Each declaration's schema is worked out once per model instance, not once per
// request, and never shared between two models. The schemas are proxies that count how often
// their keys are walked: a conversion or a strict compilation walks them once.
import { createLlmRequest, createUserContent, type JsonSchema, type LlmRequest } from '@adkit/flow';
import { startReplayServer, type ReplayServer } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, openaiAt, sentBodies } from './helpers.js';

let server: ReplayServer;
afterEach(async () => {
  await server.close();
});

/** A schema whose top-level key walks are counted (what a conversion or strict compilation does). */
function counted(schema: JsonSchema): { schema: JsonSchema; walks: () => number } {
  let walks = 0;
  const proxy = new Proxy(schema, {
    ownKeys(target) {
      walks++;
      return Reflect.ownKeys(target);
    },
  });
  return { schema: proxy, walks: () => walks };
}

const answer = { endpoint: '/chat/completions', json: { choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] } };

async function send(model: ReturnType<typeof openaiAt>, request: () => LlmRequest, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    server.enqueue(answer);
    const [response] = await collect(model, request(), false);
    expect(response!.errorCode).toBeUndefined();
  }
}

describe('schemas are converted once per model instance and declaration (issue 9)', () => {
  it('a genai `parameters` schema: converted on the first request only, again by another model', async () => {
    server = await startReplayServer();
    const parameters = counted({ type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] });
    const request = () =>
      createLlmRequest({
        contents: [createUserContent('go')],
        config: { tools: [{ functionDeclarations: [{ name: 'forecast', parameters: parameters.schema }] }] },
      });
    await send(openaiAt(server, 'gpt-4o'), request, 3);
    expect(parameters.walks()).toBe(1);
    expect(sentBodies(server).map((b) => (b.tools as Array<{ function: { parameters: unknown } }>)[0]!.function.parameters)).toEqual(
      Array(3).fill({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    );
    // No module-level cache: a second model works the schema out for itself.
    await send(openaiAt(server, 'gpt-4o'), request, 2);
    expect(parameters.walks()).toBe(2);
  });

  it('strict: a JSON Schema is compiled on the first request only, as is a structured-output schema', async () => {
    server = await startReplayServer();
    const parameters = counted({ type: 'object', properties: { city: { type: 'string' } } });
    const output = counted({ type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] });
    const request = () =>
      createLlmRequest({
        contents: [createUserContent('go')],
        config: {
          tools: [{ functionDeclarations: [{ name: 'forecast', parametersJsonSchema: parameters.schema }] }],
          responseJsonSchema: output.schema,
        },
      });
    const model = openaiAt(server, 'gpt-4o', { strict: true });
    await send(model, request, 3);
    expect([parameters.walks(), output.walks()]).toEqual([1, 1]);
    const [first, , last] = sentBodies(server);
    expect(last).toEqual(first);
    expect((first!.tools as Array<{ function: unknown }>)[0]!.function).toEqual({
      name: 'forecast',
      parameters: { type: 'object', properties: { city: { type: ['string', 'null'] } }, required: ['city'], additionalProperties: false },
      strict: true,
    });
    await send(openaiAt(server, 'gpt-4o', { strict: true }), request, 1);
    expect([parameters.walks(), output.walks()]).toEqual([2, 2]);
  });

  it('a genai responseSchema is converted once per model too', async () => {
    server = await startReplayServer();
    const output = counted({ type: 'OBJECT', properties: { n: { type: 'INTEGER' } } });
    const request = () => createLlmRequest({ contents: [createUserContent('go')], config: { responseSchema: output.schema } });
    await send(openaiAt(server, 'gpt-4o'), request, 3);
    expect(output.walks()).toBe(1);
  });
});
