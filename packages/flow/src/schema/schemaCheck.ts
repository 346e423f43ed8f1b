import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { TSchema } from 'typebox';
import type { JsonSchema } from '../content/content.js';
import { ConfigError, errorMessage } from '../errors.js';
import { raceAbort } from '../model/raceAbort.js';
import type { CompiledSchema } from './compileSchema.js';
import { convertLossless } from './convertLossless.js';
import { copyJson } from './copyJson.js';
import { LazySchema } from './lazySchema.js';
import { formatStandardIssues } from './standardIssues.js';
import { isStandardSchema, type AnySchema, type SchemaOutput } from './standardSchema.js';

/** What a check says: the value to hand on, or why it fails as lines `path: message`. */
export type SchemaResult<T = unknown> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: string[] };

/** Options of `SchemaCheck`. */
export interface SchemaCheckOptions {
  /** The schema's owner and role, for messages: `functionTool "get_weather": the parameters schema`. */
  readonly label: string;
  /**
   * Which side the model works with: `input` (the default: what the model sends, such as tool
   * parameters and agent output schemas) or `output` (what the model receives after validation,
   * such as a tool's response).
   */
  readonly declare?: 'input' | 'output';
}

/**
 * Libraries whose validators never write to the value they check (they build the output anew), so
 * the copy that guards the caller's value can be skipped: about a third of a zod call. Any other
 * library (arktype applies morphs and defaults in place; a hand-written validator may do anything)
 * gets a copy.
 */
const NON_MUTATING: ReadonlySet<string> = new Set(['zod', 'valibot']);

/** The JSON Schema drafts asked of a Standard JSON Schema, in order of preference. */
const TARGETS = ['draft-2020-12', 'draft-07'] as const;

/**
 * One schema of either kind, as adkit's tools and agents use it: the JSON Schema the model is
 * given (`jsonSchema`, a plain copy) and the check of a value (`validate`). This is the one place
 * that knows schema kinds.
 * - TypeBox (or plain JSON Schema): the declaration is the schema itself; the check is TypeBox's
 *   compiled one (`compiled`, built on first use and kept), synchronous once compiled.
 * - Standard JSON Schema (zod 4, valibot, arktype): the declaration is
 *   `~standard.jsonSchema.input` (or `.output`) for draft 2020-12 (draft 07 if the library refuses
 *   that), without `$schema`; the check is `~standard.validate`, so transforms, defaults and
 *   refinements apply and `value` is the schema's output. It gets a copy of the value (a validator
 *   that mutates its input cannot change the caller's; zod and valibot, which build their output
 *   anew, check the value itself); an async validator gives a promise; one
 *   that throws or answers nonsense rejects with a message naming the schema; issues become at most
 *   8 bounded lines (`formatStandardIssues`).
 *
 * The constructor throws a `ConfigError` naming the fix for a schema adkit cannot use: a TypeBox
 * schema that would not compile, a Standard Schema without JSON Schema output or without
 * `validate`, or one whose JSON Schema conversion fails.
 */
export class SchemaCheck<S extends AnySchema = AnySchema> {
  /** The schema as given. */
  readonly schema: S;
  readonly kind: 'typebox' | 'standard';
  /** What the model is given: a plain JSON copy, without `$schema`. */
  readonly jsonSchema: JsonSchema;
  readonly #label: string;
  readonly #lazy?: LazySchema;
  readonly #standard?: StandardSchemaV1.Props;
  /** Whether `validate` gets a copy: always, except for libraries known to build new values (`NON_MUTATING`). */
  readonly #copies: boolean = true;

  constructor(schema: S, options: SchemaCheckOptions) {
    const label = options.label;
    this.schema = schema;
    this.#label = label;
    if (isStandardSchema(schema)) {
      this.kind = 'standard';
      this.#standard = standardProps(schema, label);
      this.#copies = !NON_MUTATING.has(this.#standard.vendor);
      this.jsonSchema = describeStandard(this.#standard, options.declare ?? 'input', label);
      return;
    }
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
      throw new ConfigError(
        `${label} must be a TypeBox schema (Type.Object({...})) or a Standard JSON Schema (zod 4, valibot, arktype), got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}.`,
      );
    this.kind = 'typebox';
    try {
      this.#lazy = new LazySchema(schema as TSchema);
    } catch (error) {
      throw new ConfigError(`${label} does not compile: ${errorMessage(error)}`, { cause: error });
    }
    this.jsonSchema = plainJson(schema, label);
  }

  /** TypeBox: the compiled schema once compiled (`compile()` or a first `validate`); otherwise `undefined`. */
  get compiled(): CompiledSchema | undefined {
    return this.#lazy?.compiled;
  }

  /** Gets the check ready: compiles a TypeBox schema (loading its compiler); nothing to do for Standard Schemas. */
  async compile(): Promise<void> {
    await this.#lazy?.compile();
  }

  /**
   * Checks a value strictly (no conversion). Synchronous for a compiled TypeBox schema and a
   * synchronous validator; a promise otherwise. With `signal`, a validator that never settles is
   * given up on when it aborts (rejecting with the signal's reason). A function in its place is
   * called only for a validator that answers with a promise (a tool call's signal is made on first read).
   */
  validate(value: unknown, signal?: AbortSignal | (() => AbortSignal)): SchemaResult<SchemaOutput<S>> | Promise<SchemaResult<SchemaOutput<S>>> {
    const lazy = this.#lazy;
    if (lazy) {
      const compiled = lazy.compiled;
      if (compiled) return typeboxResult(compiled, value);
      return lazy.compile().then((ready) => typeboxResult(ready, value));
    }
    const standard = this.#standard!;
    let outcome: unknown;
    try {
      outcome = standard.validate(this.#copies ? copyJson(value) : value);
    } catch (error) {
      throw this.#failure('threw', error);
    }
    if (!isThenable(outcome)) return this.#standardResult(outcome);
    const abort = typeof signal === 'function' ? signal() : signal;
    return (abort ? raceAbort(Promise.resolve(outcome), abort) : Promise.resolve(outcome)).then(
      (settled) => this.#standardResult(settled),
      (error: unknown) => {
        throw abort?.aborted && error === abort.reason ? error : this.#failure('failed', error);
      },
    );
  }

  /**
   * `validate`, and when that fails, once more on a copy converted losslessly (`convertLossless`,
   * guided by `jsonSchema`: `"42"` → 42, `"true"` → true; never `"7.5"` → 7): what function tools
   * do with the model's arguments. TypeBox also fills defaults and drops undeclared keys
   * (`CompiledSchema.coerce`); a Standard Schema's defaults and unknown keys are its library's
   * (zod's `z.object` strips unknown keys, `z.strictObject` refuses them). The problems reported
   * are those of the converted value.
   */
  validateLenient(value: unknown, signal?: AbortSignal | (() => AbortSignal)): SchemaResult<SchemaOutput<S>> | Promise<SchemaResult<SchemaOutput<S>>> {
    const lazy = this.#lazy;
    if (lazy) {
      const lenient = (compiled: CompiledSchema): SchemaResult<SchemaOutput<S>> =>
        compiled.check(value) ? { ok: true, value: value as SchemaOutput<S> } : typeboxResult(compiled, compiled.coerce(value));
      return lazy.compiled ? lenient(lazy.compiled) : lazy.compile().then(lenient);
    }
    const again = (first: SchemaResult<SchemaOutput<S>>) =>
      first.ok ? first : this.validate(convertLossless(this.jsonSchema, copyJson(value)), signal);
    const first = this.validate(value, signal);
    return first instanceof Promise ? first.then(again) : again(first);
  }

  #standardResult(outcome: unknown): SchemaResult<SchemaOutput<S>> {
    if (typeof outcome !== 'object' || outcome === null)
      throw new Error(`${this.#label}: the ${this.#vendor()} schema's validate() returned ${describe(outcome)}, not {value} or {issues}.`);
    let issues: unknown;
    let value: unknown;
    try {
      ({ issues, value } = outcome as { issues?: unknown; value?: unknown });
    } catch (error) {
      throw this.#failure('failed', error);
    }
    if (issues) return { ok: false, problems: formatStandardIssues(issues) };
    return { ok: true, value: value as SchemaOutput<S> };
  }

  #failure(how: 'threw' | 'failed', error: unknown): Error {
    return new Error(`${this.#label}: the ${this.#vendor()} schema's validate() ${how}: ${errorMessage(error).slice(0, 500)}`, { cause: error });
  }

  #vendor(): string {
    const vendor = this.#standard?.vendor;
    return typeof vendor === 'string' ? vendor.slice(0, 40) : 'Standard';
  }
}

function typeboxResult<T>(compiled: CompiledSchema, value: unknown): SchemaResult<T> {
  return compiled.check(value) ? { ok: true, value: value as T } : { ok: false, problems: compiled.problems(value) };
}

function standardProps(schema: StandardSchemaV1, label: string): StandardSchemaV1.Props {
  let props: StandardSchemaV1.Props;
  try {
    props = schema['~standard'];
  } catch (error) {
    throw new ConfigError(`${label}: reading its ~standard properties threw: ${errorMessage(error)}`, { cause: error });
  }
  const vendor = typeof props.vendor === 'string' ? props.vendor : 'Standard';
  if (typeof props.validate !== 'function')
    throw new ConfigError(`${label}: the ${vendor} schema has no ~standard.validate; pass the schema itself (z.object({...}), not its JSON Schema) or a TypeBox schema.`);
  return props;
}

/** The JSON Schema of a Standard JSON Schema, or a `ConfigError` naming the fix. */
function describeStandard(props: StandardSchemaV1.Props, side: 'input' | 'output', label: string): JsonSchema {
  const vendor = typeof props.vendor === 'string' ? props.vendor : 'Standard';
  const converter = (props as { jsonSchema?: { input?: unknown; output?: unknown } }).jsonSchema;
  if (typeof converter !== 'object' || converter === null || typeof converter[side] !== 'function')
    throw new ConfigError(`${label}: the ${vendor} schema has no JSON Schema output (~standard.jsonSchema), and the model must be given one. ${noJsonSchemaFix(vendor)}`);
  const convert = converter[side] as (options: { target: string }) => unknown;
  let raw: unknown;
  let refusal: unknown;
  for (const target of TARGETS) {
    try {
      raw = convert.call(converter, { target });
      break;
    } catch (error) {
      refusal ??= error;
    }
  }
  if (raw === undefined)
    throw new ConfigError(
      `${label}: the ${vendor} schema cannot be described as JSON Schema (${errorMessage(refusal)}). The model is given a JSON Schema of ${side === 'input' ? 'what it sends' : 'the result after validation'}: ${side === 'output' ? 'leave transforms out of a response schema, or ' : ''}use only what JSON Schema can express, or a TypeBox schema.`,
      { cause: refusal },
    );
  const json = plainJson(raw, label);
  delete json.$schema;
  return json;
}

function noJsonSchemaFix(vendor: string): string {
  switch (vendor) {
    case 'valibot':
      return 'Wrap it: toStandardJsonSchema(schema) from @valibot/to-json-schema (valibot ≥ 1.2).';
    case 'zod':
      return 'Use zod ≥ 4.2 (import { z } from "zod"); zod 3 schemas have no JSON Schema output.';
    case 'arktype':
      return 'Use arktype ≥ 2.1.28.';
    default:
      return 'Use a library version that implements Standard JSON Schema (zod ≥ 4.2, arktype ≥ 2.1.28, valibot ≥ 1.2 through toStandardJsonSchema()), or a TypeBox schema.';
  }
}

/** The schema as plain JSON, detached from the caller's object (markers such as TypeBox's `~kind` dropped). */
function plainJson(schema: unknown, label: string): JsonSchema {
  let json: unknown;
  try {
    json = JSON.parse(JSON.stringify(schema)) as unknown;
  } catch (error) {
    throw new ConfigError(`${label} is not JSON (${errorMessage(error)}); a schema must be plain data the model can be sent.`, { cause: error });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new ConfigError(`${label}: its JSON Schema is ${describe(json)}, not an object.`);
  return json as JsonSchema;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}


function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
