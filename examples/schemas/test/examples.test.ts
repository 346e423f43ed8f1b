// #26: the same tool in zod 4, valibot, arktype and TypeBox runs the same way: the model's
// party size "4" is converted losslessly, a missing time is an error naming the field, and the
// default party size reaches `execute`. (README tests check that the function-tool README shows
// src/zod.ts verbatim.)
import { createToolContext } from '@adkit/flow/testing';
import { runExample } from '@adkit/test-support';
import { describe, expect, it } from 'vitest';
import { bookTableArktype } from '../src/arktype.js';
import { bookTableTypebox } from '../src/typebox.js';
import { bookTableValibot } from '../src/valibot.js';
import { bookTableZod } from '../src/zod.js';

const expected = (fields: string, problem: string) => [
  '  host: [call book_table({"restaurant":"Chez Nous","party":"4","time":"2026-12-24T19:30:00Z"})]',
  '  host: [response book_table: {"booked":"Chez Nous, 4 people, 2026-12-24T19:30:00Z"}]',
  '  host: [call book_table({"restaurant":"Chez Nous"})]',
  `  host: [response book_table: {"error":"Invalid arguments for tool \\"book_table\\": time: ${problem}. Expected fields: ${fields}. Correct the arguments and call the tool again."}]`,
  '  host: Booked for four on Christmas Eve.',
];
const fields = 'restaurant (string, required), party (integer, optional, default 2), time (string, required), notes (string, optional)';

describe('examples/schemas', () => {
  it('FT-4: main runs the same booking with each library', async () => {
    expect(await runExample(new URL('../src/main.ts', import.meta.url))).toEqual({
      stdout: [
        '## zod',
        ...expected(fields, 'Invalid input: expected string, received undefined'),
        '## valibot',
        ...expected(fields, 'Invalid key: Expected \\"time\\" but received undefined'),
        '## arktype',
        ...expected('restaurant (string, required), time (string, required), notes (string, optional), party (integer, optional)', 'must be a string (was missing)'),
        '## typebox',
        ...expected(fields, 'is required'),
      ],
      stderr: [],
      exitCode: 0,
    });
  });

  it('FT-3, FT-4: each declares the same fields and hands execute the default party size', async () => {
    for (const tool of [bookTableZod, bookTableValibot, bookTableArktype, bookTableTypebox]) {
      const declared = tool.declaration().parametersJsonSchema!;
      expect(declared.$schema).toBeUndefined();
      expect(Object.keys(declared.properties as object).sort()).toEqual(['notes', 'party', 'restaurant', 'time']);
      expect([...(declared.required as string[])].sort()).toEqual(['restaurant', 'time']);
      expect(await tool.run(createToolContext(), { restaurant: 'Nopa', time: '2026-12-24T19:30:00Z' })).toEqual({
        booked: 'Nopa, 2 people, 2026-12-24T19:30:00Z',
      });
    }
  });
});
