// FT-1 (construction checks, messages naming the fix) and FT-3 (the declaration, built once).
// Bad input tried: a non-object parameters schema, an empty / spaced / digit-first / 65-character
// name, a missing description, a string requireConfirmation, zero / negative / NaN timeoutMs, a
// missing execute, a non-schema response, a non-boolean isLongRunning, options that are not an
// object, a schema that does not compile.
import { ConfigError, isAdkitError, isRunnableTool, isStreamingTool, createLlmRequest } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { LONG_RUNNING_NOTE } from '@adkit/tool';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { functionTool, streamingFunctionTool } from '../src/index.js';

const parameters = Type.Object({ city: Type.String() });
const execute = () => ({ ok: true });

function constructionError(make: () => unknown): ConfigError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect(isAdkitError(error) && (error as ConfigError).code).toBe('INVALID_CONFIG');
    return error as ConfigError;
  }
  throw new Error('expected construction to throw');
}

describe('FT-1: construction', () => {
  it('FT-1: parameters must be an object schema', () => {
    expect(constructionError(() => functionTool({ name: 'get_weather', description: 'd', parameters: Type.String(), execute })).message).toBe(
      'functionTool "get_weather": parameters must be a Type.Object schema; wrap the fields in Type.Object({...}) (Type.Object({}) for a tool without arguments).',
    );
    expect(
      constructionError(() =>
        streamingFunctionTool({ name: 'count', description: 'd', parameters: Type.Array(Type.String()), async *execute() {} }),
      ).message,
    ).toBe(
      'streamingFunctionTool "count": parameters must be a Type.Object schema; wrap the fields in Type.Object({...}) (Type.Object({}) for a tool without arguments).',
    );
  });

  it('FT-1: the name must be a function name both providers accept', () => {
    expect(constructionError(() => functionTool({ name: '', description: 'd', parameters, execute })).message).toBe(
      'functionTool: name must be a non-empty string, got an empty string; give the tool a name such as "get_weather".',
    );
    expect(constructionError(() => functionTool({ name: 'get weather', description: 'd', parameters, execute })).message).toBe(
      'functionTool "get weather": name must match /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/ (a letter or underscore, then letters, digits, "_", "." or "-"; at most 64 characters) so every model provider accepts it; rename it, e.g. "get_weather".',
    );
    expect(constructionError(() => functionTool({ name: '1st', description: 'd', parameters, execute })).message).toContain(
      'rename it, e.g. "_1st".',
    );
    const long = 'a'.repeat(65);
    expect(constructionError(() => functionTool({ name: long, description: 'd', parameters, execute })).message).toContain(
      `rename it, e.g. "${'a'.repeat(64)}".`,
    );
    expect(functionTool({ name: 'a'.repeat(64), description: 'd', parameters, execute }).name).toHaveLength(64);
    expect(functionTool({ name: 'ns.get-weather_2', description: 'd', parameters, execute }).name).toBe('ns.get-weather_2');
  });

  it('FT-1: requireConfirmation must be a boolean or a function', () => {
    expect(
      constructionError(() =>
        functionTool({ name: 'pay', description: 'd', parameters, execute, requireConfirmation: 'yes' as unknown as boolean }),
      ).message,
    ).toBe(
      'functionTool "pay": requireConfirmation must be true, false, a function (args, ctx) => boolean | Promise<boolean>, or {when?, hint?, payload?, payloadSchema?}, got string.',
    );
  });

  it('FT-1: timeoutMs must be a positive number of milliseconds', () => {
    for (const timeoutMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(constructionError(() => functionTool({ name: 'slow', description: 'd', parameters, execute, timeoutMs })).message).toBe(
        `functionTool "slow": timeoutMs must be a positive number of milliseconds (e.g. 30000), got ${timeoutMs}; leave it out for no per-tool limit.`,
      );
    expect(functionTool({ name: 'slow', description: 'd', parameters, execute, timeoutMs: 250 }).timeoutMs).toBe(250);
  });

  it('#23 point 7: idempotent is kept on functionTool and streamingFunctionTool (default false); a non-boolean is refused', () => {
    const stream = async function* () {
      yield 'x';
    };
    expect(functionTool({ name: 'get', description: 'd', parameters, execute, idempotent: true }).idempotent).toBe(true);
    expect(functionTool({ name: 'get', description: 'd', parameters, execute }).idempotent).toBe(false);
    expect(streamingFunctionTool({ name: 'get', description: 'd', parameters, execute: stream, idempotent: true }).idempotent).toBe(true);
    expect(streamingFunctionTool({ name: 'get', description: 'd', parameters, execute: stream }).idempotent).toBe(false);
    expect(
      constructionError(() => functionTool({ name: 'get', description: 'd', parameters, execute, idempotent: 'yes' as unknown as boolean })).message,
    ).toBe('functionTool "get": idempotent must be true or false, got string; leave it out unless running a call twice is harmless.');
    expect(
      constructionError(() =>
        streamingFunctionTool({ name: 'get', description: 'd', parameters, execute: stream, idempotent: null as unknown as boolean }),
      ).message,
    ).toBe('streamingFunctionTool "get": idempotent must be true or false, got null; leave it out unless running a call twice is harmless.');
  });

  it('FT-1: the other options are checked too', () => {
    const bad = (options: Record<string, unknown>) =>
      constructionError(() => functionTool({ name: 't', description: 'd', parameters, execute, ...options } as never)).message;
    expect(bad({ description: undefined })).toBe('functionTool "t": description must be a string telling the model what the tool does, got undefined.');
    expect(bad({ execute: undefined })).toBe('functionTool "t": execute must be a function (args, ctx) => result, got undefined.');
    expect(bad({ response: 'object' })).toBe('functionTool "t": response must be a TypeBox schema such as Type.Object({...}) or a Standard JSON Schema such as z.object({...}), got string.');
    expect(bad({ isLongRunning: 'yes' })).toBe('functionTool "t": isLongRunning must be true or false, got string.');
    expect(constructionError(() => functionTool(undefined as never)).message).toBe(
      'functionTool: expected an options object such as {name, description, ...}, got undefined.',
    );
  });

  it('FT-1: a schema that does not compile fails at construction, not at the first call', () => {
    const broken = Type.Object({ code: Type.String({ pattern: '(' }) });
    const error = constructionError(() => functionTool({ name: 't', description: 'd', parameters: broken, execute }));
    expect(error.message).toBe('functionTool "t": the parameters schema does not compile: Invalid regular expression: /(/u: Unterminated group');
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(
      constructionError(() => functionTool({ name: 't', description: 'd', parameters, response: broken, execute: execute as never })).message,
    ).toBe('functionTool "t": the response schema does not compile: Invalid regular expression: /(/u: Unterminated group');
  });
});

describe('FT-3: the declaration', () => {
  it('FT-3: parametersJsonSchema and responseJsonSchema as plain JSON Schema, built once', () => {
    const tool = functionTool({
      name: 'get_weather',
      description: 'The weather.',
      parameters,
      response: Type.Object({ celsius: Type.Number() }),
      execute: () => ({ celsius: 20 }),
    });
    const declaration = tool.declaration();
    expect(declaration).toEqual({
      name: 'get_weather',
      description: 'The weather.',
      parametersJsonSchema: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
      responseJsonSchema: { type: 'object', required: ['celsius'], properties: { celsius: { type: 'number' } } },
    });
    expect(tool.declaration()).toBe(declaration);
    expect(Object.isFrozen(declaration)).toBe(true);
    expect(declaration.parametersJsonSchema).not.toBe(parameters);
  });

  it('FT-3: a long-running tool declares the note after a blank line, or alone', () => {
    const withText = functionTool({ name: 'ticket', description: 'Opens a ticket.', parameters, execute, isLongRunning: true });
    expect(withText.declaration().description).toBe(`Opens a ticket.\n\n${LONG_RUNNING_NOTE}`);
    expect(withText.description).toBe('Opens a ticket.');
    expect(withText.isLongRunning).toBe(true);
    const bare = functionTool({ name: 'ticket', description: '', parameters, execute, isLongRunning: true });
    expect(bare.declaration().description).toBe(
      'NOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.',
    );
  });

  it('FT-7: a streaming tool declares no response schema, has runStream and no run', () => {
    const tool = streamingFunctionTool({ name: 'count', description: 'Counts.', parameters, isLongRunning: true, async *execute() {} });
    expect(tool.declaration()).toEqual({
      name: 'count',
      description: `Counts.\n\n${LONG_RUNNING_NOTE}`,
      parametersJsonSchema: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
    });
    expect(isStreamingTool(tool)).toBe(true);
    expect(isRunnableTool(tool)).toBe(false);
  });

  it('FT-3: processRequest registers the tool (PK-1), and a second registration is refused', async () => {
    const tool = functionTool({ name: 'get_weather', description: 'The weather.', parameters, execute });
    const request = createLlmRequest();
    await tool.processRequest(createToolContext(), request);
    expect(request.tools.get_weather).toBe(tool);
    expect(request.config.tools).toEqual([{ functionDeclarations: [tool.declaration()] }]);
    await expect(tool.processRequest(createToolContext(), request)).rejects.toThrow('duplicate tool: "get_weather"');
  });
});

describe('types', () => {
  it('execute receives Static<parameters>; with a response schema the result is typed (checked by tsc)', async () => {
    const typed = functionTool({
      name: 'inc',
      description: 'd',
      parameters: Type.Object({ n: Type.Integer(), label: Type.Optional(Type.String()) }),
      execute: ({ n, label }) => `${label ?? ''}${n + 1}`,
    });
    expect(await typed.run(createToolContext(), { n: 1 })).toEqual({ result: '2' });
    functionTool({
      name: 'bad_arg',
      description: 'd',
      parameters: Type.Object({ n: Type.Integer() }),
      // @ts-expect-error `city` is not one of the parameters
      execute: ({ city }) => city,
    });
    functionTool({
      name: 'bad_result',
      description: 'd',
      parameters: Type.Object({}),
      response: Type.Object({ celsius: Type.Number() }),
      // @ts-expect-error the response schema wants { celsius: number }
      execute: () => ({ celsius: 'warm' }),
    });
  });
});
