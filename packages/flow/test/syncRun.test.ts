// Issue #23 point 18: a raw tool written without `async` works. `run()` (and `resume()`) may return
// a plain value or throw synchronously; `runStream()` may throw at once or return something that
// is not a stream. Each is an answer or an error the model sees, never "work.then is not a function".
import { describe, expect, it } from 'vitest';
import { LlmAgent, getFunctionResponses, type Tool } from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { runOnce } from './support.js';

const declared = (name: string) => ({ name, description: name, declaration: () => ({ name, description: name, parametersJsonSchema: { type: 'object' } }) });

async function answers(tools: Tool[]): Promise<unknown[]> {
  const model = new ScriptedModel([functionCallResponse(tools.map((tool, i) => ({ name: tool.name, args: {}, id: `c${i}` }))), textResponse('done')]);
  const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools }), 'go');
  expect(events.filter((event) => event.errorCode)).toEqual([]);
  expect(events.at(-1)!.content!.parts![0]!.text).toBe('done');
  return events.flatMap(getFunctionResponses).map((response) => response.response);
}

describe('tools that are not async (issue #23 point 18)', () => {
  it('FT-5: run() returning a plain object, a scalar or nothing, or throwing synchronously', async () => {
    const tools = [
      { ...declared('plain'), run: () => ({ ok: true }) },
      { ...declared('scalar'), run: () => 42 },
      { ...declared('nothing'), run: () => undefined },
      {
        ...declared('throws'),
        run: () => {
          throw new Error('disk full');
        },
      },
      { ...declared('thenable'), run: () => ({ then: (resolve: (value: unknown) => void) => resolve({ via: 'thenable' }) }) },
    ] as unknown as Tool[];
    expect(await answers(tools)).toEqual([{ ok: true }, { result: 42 }, {}, { error: 'disk full' }, { via: 'thenable' }]);
  });

  it('TC-4: runStream() that throws at once, returns no stream, or a hand-written stream cut mid-way whose return() throws', async () => {
    const tools = [
      {
        ...declared('throws_at_once'),
        runStream: () => {
          throw new Error('no connection');
        },
      },
      { ...declared('array'), runStream: () => ['a', 'b'] },
      { ...declared('nothing'), runStream: () => undefined },
      {
        ...declared('hand_written'),
        runStream: () => ({
          [Symbol.asyncIterator]: () => {
            let sent = false;
            return {
              next: () => {
                if (sent) throw new Error('cut mid-way');
                sent = true;
                return { done: false, value: 'chunk' };
              },
              return: () => {
                throw new Error('cannot close');
              },
            };
          },
        }),
      },
    ] as unknown as Tool[];
    expect(await answers(tools)).toEqual([
      { error: 'no connection' },
      { error: 'Tool "array" failed: its runStream returned an array, not an async iterable; write it as an async generator (async function*).' },
      { error: 'Tool "nothing" failed: its runStream returned undefined, not an async iterable; write it as an async generator (async function*).' },
      { error: 'cut mid-way' },
    ]);
  });
});
