import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { Static, TSchema } from 'typebox';

/**
 * A schema of a validation library that both validates (`~standard.validate`) and describes
 * itself as JSON Schema (`~standard.jsonSchema`): Standard JSON Schema 1.1, implemented by zod ≥
 * 4.2, arktype ≥ 2.1.28 and valibot ≥ 1.2 (through `toStandardJsonSchema()` from
 * `@valibot/to-json-schema`).
 */
export type StandardJsonSchema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output> &
  StandardJSONSchemaV1<Input, Output>;

/** What adkit takes wherever a schema goes: TypeBox (or plain JSON Schema) or a Standard JSON Schema. */
export type AnySchema = TSchema | StandardJsonSchema;

/** The value a schema hands on once it accepted one: a zod schema's output (transforms, defaults applied), `Static<T>` for TypeBox. */
export type SchemaOutput<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : S extends TSchema ? Static<S> : unknown;

/** The value a schema accepts: a zod schema's input, `Static<T>` for TypeBox. */
export type SchemaInput<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferInput<S> : S extends TSchema ? Static<S> : unknown;

/**
 * Whether a value is a Standard Schema (has a `~standard` object of version 1), as opposed to a
 * TypeBox or plain JSON Schema object. It may still lack `jsonSchema`: `SchemaCheck` says so.
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  let props: unknown;
  try {
    props = (value as { '~standard'?: unknown })['~standard'];
  } catch {
    return true; // a throwing getter still marks a Standard Schema; SchemaCheck reports the throw
  }
  return typeof props === 'object' && props !== null;
}
