import type { TSchema } from 'typebox';
import { checkSchemaSyntax } from './checkSchemaSyntax.js';
import { compileSchema, type CompiledSchema } from './compileSchema.js';

/**
 * A schema owned by a tool or an agent, compiled on first use and kept there (never in a module
 * cache). The constructor checks what compiling would refuse (`checkSchemaSyntax`), so a broken
 * schema fails at construction; TypeBox's compiler loads only when `compile()` is first called.
 *
 * ```ts
 * class Lookup extends BaseTool {
 *   private readonly input = new LazySchema(Type.Object({ id: Type.String() }));
 *   async run(ctx, args) {
 *     const input = this.input.compiled ?? (await this.input.compile());
 *     if (!input.check(args)) throw invalidArgumentsError(this.name, input.problems(args), input.schema);
 *     …
 *   }
 * }
 * ```
 */
export class LazySchema<T extends TSchema = TSchema> {
  readonly schema: T;
  #compiled?: CompiledSchema<T>;
  #compiling?: Promise<CompiledSchema<T>>;

  /** Throws the `SyntaxError`/`TypeError` compiling would throw; wrap it in your `ConfigError`. */
  constructor(schema: T) {
    checkSchemaSyntax(schema);
    this.schema = schema;
  }

  /** The compiled schema once `compile()` has resolved; `undefined` before (the hot path reads this). */
  get compiled(): CompiledSchema<T> | undefined {
    return this.#compiled;
  }

  /** Compiles the schema on the first call (loading TypeBox's compiler) and keeps the result. */
  compile(): Promise<CompiledSchema<T>> {
    this.#compiling ??= compileSchema(this.schema).then((compiled) => (this.#compiled = compiled));
    return this.#compiling;
  }
}
