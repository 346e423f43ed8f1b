// A validated 5-field function-tool call with a zod 4 schema (issue #26), in alternating rounds:
// adkit's functionTool given the zod schema itself (Standard JSON Schema: `~standard.validate`),
// adkit's functionTool with the same fields in TypeBox (the compiled fast path), and @google/adk's
// FunctionTool with the zod schema. For information: no goal of issue #18 hangs on these rows.
import { createToolContext } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { z } from 'zod';
import { handler, parameters, validArguments as pool, zodParameters } from './fiveFields.mjs';
import { alternate } from './measure.mjs';
import { loadPeer, versus } from './peer.mjs';

export const title = 'function tool with a zod 4 schema: adkit (Standard Schema) vs adkit TypeBox vs @google/adk';

export async function run() {
  const peer = loadPeer();
  const [{ FunctionTool }, peerZod] = await Promise.all([peer.adk, peer.zod]);
  const zodTool = functionTool({ name: 'profile', description: 'Summarises a profile.', parameters: zodParameters(z), execute: handler });
  const typeboxTool = functionTool({ name: 'profile', description: 'Summarises a profile.', parameters, execute: handler });
  const peerTool = new FunctionTool({ name: 'profile', description: 'Summarises a profile.', parameters: zodParameters(peerZod.z), execute: handler });
  const ctx = createToolContext();

  // Sanity: the three compute the same thing, and adkit's zod tool refuses what zod refuses.
  const expected = JSON.stringify(await handler(pool[3], ctx));
  for (const answer of [await zodTool.run(ctx, pool[3]), await typeboxTool.run(ctx, pool[3]), await peerTool.runAsync({ args: pool[3] })])
    if (JSON.stringify(answer) !== expected) throw new Error(`a tool and the handler disagree: ${JSON.stringify(answer)} vs ${expected}`);
  await zodTool.run(ctx, { ...pool[0], age: -1 }).then(
    () => {
      throw new Error('adkit accepted an invalid call with a zod schema');
    },
    () => {},
  );

  let sink = 0;
  const [zod, typebox, adk] = await alternate([
    async (i) => {
      sink += (await zodTool.run(ctx, pool[i & 1023])).next;
    },
    async (i) => {
      sink += (await typeboxTool.run(ctx, pool[i & 1023])).next;
    },
    async (i) => {
      sink += (await peerTool.runAsync({ args: pool[i & 1023] })).next;
    },
  ]);
  if (sink === 0) throw new Error('unreachable');

  return [
    { id: 'zodTool.adkit', case: 'adkit functionTool, zod 4 schema: valid call (await tool.run(ctx, args))', ...zod, note: versus(zod.ns, adk.ns) + ' than @google/adk' },
    { id: 'zodTool.typebox', case: 'adkit functionTool, the same fields in TypeBox: valid call', ...typebox, ratio: typebox.ns / zod.ns, note: 'ratio: vs the zod schema' },
    { id: 'zodTool.peer', case: `@google/adk ${peer.version} FunctionTool, zod: valid call (runAsync)`, ...adk, ratio: adk.ns / zod.ns, note: 'ratio: vs adkit with zod' },
  ];
}

/** A workload for a CPU profile (profile.mjs): adkit's zod path for `ms`. */
export const profiles = {
  call: async (ms) => {
    const tool = functionTool({ name: 'profile', description: 'Summarises a profile.', parameters: zodParameters(z), execute: handler });
    const ctx = createToolContext();
    const args = { name: 'n', age: 3, score: 0.5, active: true, tags: ['a'] };
    const end = performance.now() + ms;
    while (performance.now() < end) for (let i = 0; i < 1_000; i++) await tool.run(ctx, args);
  },
};
