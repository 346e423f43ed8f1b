// A validated functionTool call against the bare handler, in the same run (issue #4: goal ≤ 3×).
import { createToolContext } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { measure } from './measure.mjs';

export const title = 'function-tool: validated call vs bare handler';

/** The goal: a valid call costs at most this many bare handler calls. */
const GOAL = 3;

const parameters = Type.Object({
  name: Type.String({ minLength: 1 }),
  age: Type.Integer({ minimum: 0, maximum: 150 }),
  score: Type.Number(),
  active: Type.Boolean(),
  tags: Type.Array(Type.String(), { maxItems: 10 }),
});

const handler = async (args) => ({ greeting: args.name, next: args.age + 1 });

export async function run() {
  const tool = functionTool({ name: 'profile', description: 'Summarises a profile.', parameters, execute: handler });
  const ctx = createToolContext();
  const pool = Array.from({ length: 1024 }, (_, i) => ({
    name: `n${i}`,
    age: i % 150,
    score: i / 7,
    active: i % 2 === 0,
    tags: ['a', `t${i}`],
  }));
  const invalid = pool.map((args) => ({ ...args, age: 'not a number' }));
  const pick = (list, i) => list[i & 1023];

  // Sanity: both paths compute the same thing, so the comparison is fair.
  const direct = await handler(pool[3], ctx);
  const viaTool = await tool.run(ctx, pool[3]);
  if (JSON.stringify(direct) !== JSON.stringify(viaTool)) throw new Error('the tool and the handler disagree');

  let sink = 0;
  const bare = await measure(async (i) => {
    sink += (await handler(pick(pool, i), ctx)).next;
  });
  const valid = await measure(async (i) => {
    sink += (await tool.run(ctx, pick(pool, i))).next;
  });
  const rejected = await measure(
    async (i) => {
      try {
        await tool.run(ctx, pick(invalid, i));
      } catch (error) {
        sink += error.message.length;
      }
    },
    { warmup: 2_000, batch: 100 },
  );
  if (sink === 0) throw new Error('unreachable');

  const ratio = valid / bare;
  return [
    { case: 'bare handler (await handler(args, ctx))', ns: bare },
    {
      case: 'functionTool valid call (await tool.run(ctx, args))',
      ns: valid,
      ratio,
      note: `${ratio <= GOAL ? 'meets' : 'MISSES'} the goal of ≤ ${GOAL}×`,
    },
    {
      case: 'functionTool invalid call (conversion + error message)',
      ns: rejected,
      ratio: rejected / bare,
      note: 'for information',
    },
  ];
}
