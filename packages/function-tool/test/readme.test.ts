// The README's code is the code of examples/function-tools: the top example is weather.ts
// verbatim, every other tool is shown as written there, and the declarations the README prints
// are the ones the tools make. (The examples' own tests run them and pin what they print.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bookFlight, currentTime, forecast, searchHotels, setUnits } from '../../../examples/function-tools/src/schemaKinds.js';
import { codeBlocks, expectReadmeExample } from '@adkit/test-support';

const readme = new URL('../README.md', import.meta.url);
const example = (file: string) => new URL(`../../../examples/function-tools/src/${file}`, import.meta.url);
/** The `export const … });` blocks of an example file, with the comment lines above each. */
const definitions = (file: string) => readFileSync(example(file), 'utf8').match(/^(?:\/\/ .*\n)*export const [\s\S]*?^\}\);$/gm) ?? [];

describe('README', () => {
  it('shows examples/function-tools/src/weather.ts verbatim as its example', () => {
    expectReadmeExample(readme, example('weather.ts'));
  });

  it('#26: shows examples/schemas/src/zod.ts verbatim as its zod example', () => {
    const zod = readFileSync(new URL('../../../examples/schemas/src/zod.ts', import.meta.url), 'utf8');
    expect(codeBlocks(readFileSync(readme, 'utf8'), 'ts')).toContain(zod);
  });

  it('shows every tool of the examples verbatim', () => {
    const text = readFileSync(readme, 'utf8');
    const all = ['schemaKinds.ts', 'longRunning.ts', 'streaming.ts', 'stateAndActions.ts'].flatMap(definitions);
    expect(all).toHaveLength(8);
    for (const code of all) expect(text).toContain(code);
  });

  it('FT-3: prints the parametersJsonSchema each of the five schema kinds declares, in order', () => {
    const declared = [currentTime, setUnits, bookFlight, forecast, searchHotels].map((tool) => tool.declaration()!);
    expect(declared.map(({ name, description }) => ({ name, description }))).toEqual([
      { name: 'current_time', description: 'The current time as an ISO 8601 string.' },
      { name: 'set_units', description: 'Chooses the units for temperatures.' },
      { name: 'book_flight', description: 'Books a flight for one passenger.' },
      { name: 'forecast', description: 'The weather forecast for the next days.' },
      { name: 'search_hotels', description: 'Finds hotels in a city.' },
    ]);
    const printed = codeBlocks(readFileSync(readme, 'utf8'), 'json');
    expect(printed).toEqual(declared.map(({ parametersJsonSchema }) => `${JSON.stringify(parametersJsonSchema)}\n`));
  });
});
