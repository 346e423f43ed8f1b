import { describe, expect, it } from 'vitest';
import { PartialArgsBuilder, parseJsonPath } from '../src/partialArgs.js';
import { ResponseAggregator, findServerToolCalls } from '../src/responseAggregator.js';

describe('partial function-call arguments', () => {
  it('parses dotted, indexed and quoted JSON paths', () => {
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('$.foo.bar[0].data')).toEqual(['foo', 'bar', 0, 'data']);
    expect(parseJsonPath(`$['a b']["c"]`)).toEqual(['a b', 'c']);
  });

  it('bad input: a path it cannot read throws naming the path', () => {
    expect(() => parseJsonPath('foo')).toThrow('partial function-call argument path "foo" does not start with "$"');
    expect(() => parseJsonPath('$..x')).toThrow('partial function-call argument path "$..x" is not a simple JSON path');
  });

  it('appends continued strings, replaces other values, builds nested objects and arrays', () => {
    const builder = new PartialArgsBuilder({ fixed: 1 });
    builder.apply([{ jsonPath: '$.city', stringValue: 'New ', willContinue: true }]);
    builder.apply([{ jsonPath: '$.city', stringValue: 'York', willContinue: true }, { jsonPath: '$.city', stringValue: '' }]);
    builder.apply([{ jsonPath: '$.city', stringValue: 'Paris' }]);
    builder.apply([
      { jsonPath: '$.when.days[1]', numberValue: 3 },
      { jsonPath: '$.flags.metric', boolValue: true },
      { jsonPath: '$.note', nullValue: 'NULL_VALUE' },
      { jsonPath: '$.ignored' },
    ]);
    expect(builder.args).toEqual({ fixed: 1, city: 'Paris', when: { days: [undefined, 3] }, flags: { metric: true }, note: null });
  });

  it('issue 9: a stream that ends while a call still continues is INCOMPLETE_STREAM, never a call from partial args', () => {
    const aggregator = new ResponseAggregator('gemini-3-pro-preview', true);
    aggregator.add({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'f', id: 'c1', willContinue: true, partialArgs: [{ jsonPath: '$.a', stringValue: 'x', willContinue: true }] } }],
          },
        },
      ],
    } as never);
    expect(aggregator.result()).toEqual({
      errorCode: 'INCOMPLETE_STREAM',
      errorMessage:
        'The Gemini stream for model "gemini-3-pro-preview" ended while the arguments of the call to "f" were still streaming (willContinue); the answer is incomplete, so it was dropped.',
    });
  });
});

describe('server-executed calls', () => {
  it('pairs a call with a later response of the same name and id, once', () => {
    expect(
      findServerToolCalls([
        { functionCall: { name: 'a' } },
        { functionCall: { name: 'b', id: '1' } },
        { functionResponse: { name: 'b', id: '2' } },
        { functionResponse: { name: 'a' } },
        { functionCall: { name: 'a' } },
      ]),
    ).toEqual([[0, 3]]);
  });

  it('a turn that held only a server call keeps an empty content, so the event (and its metadata) is recorded', () => {
    const aggregator = new ResponseAggregator('gemini-2.5-flash', false);
    aggregator.add({
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }, { functionResponse: { name: 'f', response: { ok: 1 } } }] } }],
    } as never);
    expect(aggregator.result()).toEqual({
      content: { role: 'model', parts: [] },
      customMetadata: { serverToolCalls: [{ functionCall: { name: 'f', args: {} }, functionResponse: { name: 'f', response: { ok: 1 } } }] },
    });
  });
});
