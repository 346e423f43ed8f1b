// #9 cold start: a function tool compiles its schemas on its first call, not at import or
// construction, keeps them on itself (no module-level cache), and never compiles twice — even when
// its first calls arrive together. Bad input tried: ten concurrent first calls, two tools sharing
// one schema object, a schema that would not compile (still refused at construction).
import { createToolContext } from '@adkit/flow/testing';
import Type from 'typebox';
import { describe, expect, it, vi } from 'vitest';
import { functionTool, streamingFunctionTool } from '../src/index.js';

const compiles = vi.hoisted(() => ({ count: 0 }));
vi.mock('@adkit/tool', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@adkit/tool')>();
  return {
    ...actual,
    compileSchema: (schema: Parameters<typeof actual.compileSchema>[0]) => {
      compiles.count++;
      return actual.compileSchema(schema);
    },
  };
});

const ctx = createToolContext();
const parameters = Type.Object({ city: Type.String(), days: Type.Integer() });

describe('schemas compile on first use (#9)', () => {
  it('construction compiles nothing; the first calls compile once; later calls reuse it', async () => {
    compiles.count = 0;
    const tool = functionTool({
      name: 'forecast',
      description: 'Forecast.',
      parameters,
      response: Type.Object({ city: Type.String() }),
      execute: ({ city }) => ({ city }),
    });
    expect(compiles.count).toBe(0);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => tool.run(ctx, { city: `c${i}`, days: '2' })));
    expect(results.map((r) => r!.city)).toEqual(Array.from({ length: 10 }, (_, i) => `c${i}`));
    // The parameters, their strict form for the fast path, and the response.
    expect(compiles.count).toBe(3);
    await tool.run(ctx, { city: 'x', days: 1 });
    expect(compiles.count).toBe(3);
  });

  it('each tool owns its compiled schemas, even when two share one schema object', async () => {
    compiles.count = 0;
    const a = functionTool({ name: 'a', description: 'a', parameters, execute: () => 'a' });
    const b = streamingFunctionTool({
      name: 'b',
      description: 'b',
      parameters,
      async *execute() {
        yield 'b';
      },
    });
    await a.run(ctx, { city: 'x', days: 1 });
    expect(compiles.count).toBe(2);
    for await (const chunk of b.runStream(ctx, { city: 'x', days: 1 })) expect(chunk).toBe('b');
    expect(compiles.count).toBe(4);
  });

  it('FT-1: a schema that would not compile is still refused at construction, before any compiling', () => {
    compiles.count = 0;
    expect(() =>
      functionTool({ name: 't', description: 'd', parameters: Type.Object({ code: Type.String({ pattern: '(' }) }), execute: () => 1 }),
    ).toThrow('functionTool "t": the parameters schema does not compile: Invalid regular expression: /(/u: Unterminated group');
    expect(compiles.count).toBe(0);
  });
});
