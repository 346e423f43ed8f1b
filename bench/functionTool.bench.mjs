// A validated 5-field function-tool call with valid arguments, in alternating rounds: the bare
// handler, adkit's functionTool (TypeBox schema) and @google/adk's FunctionTool (the same schema in
// zod). Issue #18: adkit ≥ 4× faster than @google/adk and ≤ 2× the bare handler.
import { createToolContext } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { compileSchema } from '@adkit/tool';
// Internal: the strict variant of the schema, as the tool checks it (the same module, via dist).
import { strictSchema } from '../packages/function-tool/dist/strictSchema.js';
import { lazyResultConverter } from '../packages/function-tool/dist/resultConverter.js';
import { handler, parameters, validArguments as pool, zodParameters } from './fiveFields.mjs';
import { alternate, measure } from './measure.mjs';
import { loadPeer, versus } from './peer.mjs';

export const title = 'function tool: a validated call vs the bare handler and @google/adk';

export async function run() {
  const peer = loadPeer();
  const [{ FunctionTool }, { z }] = await Promise.all([peer.adk, peer.zod]);
  const tool = functionTool({ name: 'profile', description: 'Summarises a profile.', parameters, execute: handler });
  const peerTool = new FunctionTool({ name: 'profile', description: 'Summarises a profile.', parameters: zodParameters(z), execute: handler });
  const ctx = createToolContext();
  const invalid = pool.map((args) => ({ ...args, age: 'not a number' }));

  // Sanity: all three compute the same thing, and both tools refuse what they should.
  const expected = JSON.stringify(await handler(pool[3], ctx));
  for (const answer of [await tool.run(ctx, pool[3]), await peerTool.runAsync({ args: pool[3] })])
    if (JSON.stringify(answer) !== expected) throw new Error(`a tool and the handler disagree: ${JSON.stringify(answer)} vs ${expected}`);
  await tool.run(ctx, invalid[0]).then(
    () => {
      throw new Error('adkit accepted an invalid call');
    },
    () => {},
  );

  // The floor of any validated call that applies result rules after the handler (FT-4, FT-5):
  // the compiled TypeBox check the tool makes first, of the schema's strict variant (unknown keys
  // refused, so none reaches the handler), the handler, and one promise reaction that applies the
  // tool's own FT-5 rules to its result (toJSON honoured, a non-object wrapped as {result}).
  const { check } = await compileSchema(strictSchema(parameters));
  const resultRules = await lazyResultConverter('profile', undefined)();

  let sink = 0;
  // 15 rounds, not the default 7: three runs of the same code gave 3.52x, 4.11x and 5.07x the peer
  // with 7, @google/adk's call moving between 0.95 and 1.41 us from one run to the next.
  // The floor's two parts, for what each guarantee costs: the handler with FT-5's reaction alone
  // (its time over the bare call is FT-5's; the floor's over it, the strict check's).
  const [bare, floor, adkit, adk, reaction] = await alternate([
    async (i) => {
      sink += (await handler(pool[i & 1023], ctx)).next;
    },
    async (i) => {
      const args = pool[i & 1023];
      if (!check(args)) throw new Error('the floor refused a valid call');
      sink += (await handler(args, ctx).then(resultRules)).next;
    },
    async (i) => {
      sink += (await tool.run(ctx, pool[i & 1023])).next;
    },
    async (i) => {
      sink += (await peerTool.runAsync({ args: pool[i & 1023] })).next;
    },
    async (i) => {
      sink += (await handler(pool[i & 1023], ctx).then(resultRules)).next;
    },
  ], { rounds: 15 });
  const rejected = await measure(
    async (i) => {
      try {
        await tool.run(ctx, invalid[i & 1023]);
      } catch (error) {
        sink += error.message.length;
      }
    },
    { warmup: 2_000, batch: 100 },
  );
  if (sink === 0) throw new Error('unreachable');

  return [
    { id: 'toolCall.bare', case: 'bare handler (await handler(args, ctx))', ...bare },
    {
      id: 'toolCall.floor',
      case: "floor: the strict TypeBox check the tool makes (unknown keys refused), the handler and one promise reaction applying the tool's FT-5 rules to its result (FT-4 + FT-5 at their least)",
      ...floor,
      ratio: floor.ns / bare.ns,
      note: 'for information',
    },
    {
      id: 'toolCall.results',
      case: "the handler and the floor's promise reaction applying FT-5, without the check (the floor's two parts: FT-5 is this over the bare call, FT-4's check the floor over this)",
      ...reaction,
      ratio: reaction.ns / bare.ns,
      note: 'for information',
    },
    { id: 'toolCall.adkit', case: 'adkit functionTool: valid call (await tool.run(ctx, args))', ...adkit, ratio: adkit.ns / bare.ns },
    {
      id: 'toolCall.peer',
      case: `@google/adk ${peer.version} FunctionTool: valid call (runAsync, zod)`,
      ...adk,
      ratio: adk.ns / bare.ns,
      note: versus(adkit.ns, adk.ns),
    },
    {
      id: 'toolCall.invalid',
      case: 'adkit functionTool: invalid call (conversion + error message)',
      ns: rejected,
      ratio: rejected / bare.ns,
      note: 'for information',
    },
  ];
}

/** Workloads for a CPU profile (profile.mjs) when adkit misses a goal here: each runs for `ms`. */
export const profiles = {
  call: async (ms) => {
    const tool = functionTool({ name: 'profile', description: 'Summarises a profile.', parameters, execute: handler });
    const ctx = createToolContext();
    const args = { name: 'n', age: 3, score: 0.5, active: true, tags: ['a'] };
    const end = performance.now() + ms;
    while (performance.now() < end) for (let i = 0; i < 1_000; i++) await tool.run(ctx, args);
  },
};
