// The pack's own tests, as its author runs them: `npm test` builds, then runs this file with
// node:test against the built package (imported by its own name), on a ScriptedModel from
// @adkit/flow/testing (offline, no key). Bad input tried: unknown units, "__proto__" as a unit,
// a non-finite value, a missing value.
import { createUserContent, InMemoryRunner, LlmAgent } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { unitsToolset } from '@acme/adkit-units';
import assert from 'node:assert/strict';
import { test } from 'node:test';

async function runTurn(toolset, calls) {
  const model = new ScriptedModel([functionCallResponse(calls), textResponse('Done.')]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'assistant', model, toolsets: [toolset] }), autoCreateSession: true });
  const responses = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('Convert, please.') }))
    for (const part of event.content?.parts ?? []) if (part.functionResponse) responses.push(part.functionResponse.response);
  return { responses, declared: model.requests[0].config.tools[0].functionDeclarations.map((d) => d.name) };
}

test('an agent converts through the pack: both tools declared, results rounded', async () => {
  const { responses, declared } = await runTurn(unitsToolset(), [
    { name: 'convert_temperature', args: { value: 100, from: 'C', to: 'F' } },
    { name: 'convert_length', args: { value: 1, from: 'mi', to: 'km' } },
  ]);
  assert.deepEqual(declared, ['convert_temperature', 'convert_length']);
  assert.deepEqual(responses, [
    { value: 212, unit: 'F' },
    { value: 1.61, unit: 'km' },
  ]);
});

test('bad arguments reach the model as errors it can correct, never as a crash', async () => {
  const { responses } = await runTurn(unitsToolset(), [
    { name: 'convert_temperature', args: { value: 1, from: 'X', to: 'C' } },
    { name: 'convert_length', args: { value: 1, from: '__proto__', to: 'm' } },
    { name: 'convert_length', args: { value: '1e999', from: 'm', to: 'km' } },
    { name: 'convert_temperature', args: { from: 'C', to: 'F' } },
  ]);
  assert.deepEqual(responses, [
    { error: 'Unknown temperature unit "X" for "from"; use one of C, F, K.' },
    { error: 'Unknown length unit "__proto__" for "from"; use one of mm, m, km, in, ft, mi.' },
    { error: '"value" must be a finite number, got "1e999".' },
    { error: '"value" must be a finite number, got undefined.' },
  ]);
});

test('toolFilter and prefix: the model sees only units_convert_length', async () => {
  const { responses, declared } = await runTurn(unitsToolset({ prefix: 'units', toolFilter: ['convert_length'], decimals: 0 }), [
    { name: 'units_convert_length', args: { value: 5280, from: 'ft', to: 'm' } },
  ]);
  assert.deepEqual(declared, ['units_convert_length']);
  assert.deepEqual(responses, [{ value: 1609, unit: 'm' }]);
});
