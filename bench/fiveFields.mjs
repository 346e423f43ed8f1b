// The 5-field argument schema of the function-tool benchmarks, in TypeBox for adkit and in zod for
// @google/adk, with a handler and valid arguments for it.
import Type from 'typebox';

/** `{name, age, score, active, tags}` with the usual bounds, in TypeBox. */
export const parameters = Type.Object({
  name: Type.String({ minLength: 1 }),
  age: Type.Integer({ minimum: 0, maximum: 150 }),
  score: Type.Number(),
  active: Type.Boolean(),
  tags: Type.Array(Type.String(), { maxItems: 10 }),
});

/** The same five fields in zod (`z` from the peer's zod). */
export function zodParameters(z) {
  return z.object({
    name: z.string().min(1),
    age: z.number().int().min(0).max(150),
    score: z.number(),
    active: z.boolean(),
    tags: z.array(z.string()).max(10),
  });
}

/** A handler that reads two of the fields. */
export const handler = async (args) => ({ greeting: args.name, next: args.age + 1 });

/** 1,024 distinct valid argument objects, so that no call sees the same object twice in a row. */
export const validArguments = Array.from({ length: 1024 }, (_, i) => ({ name: `n${i}`, age: i % 150, score: i / 7, active: i % 2 === 0, tags: ['a', `t${i}`] }));
