import { responsePartsOf, withResponseParts } from '@adkit/flow';

type Converted = Record<string, unknown> | undefined;

/**
 * The converted result with the parts the handler put on its raw result (`withResponseParts`,
 * #30): converting can build a new object (`{result}`, a `toJSON()` value, a Standard Schema's
 * output), which would drop them. No work when there are none, or when the result is the raw
 * object itself (a plain object result, the common case: its parts are on it already).
 */
export function keepResponseParts(raw: unknown, converted: Converted | Promise<Converted>): Converted | Promise<Converted> {
  if (converted === raw) return converted;
  const parts = responsePartsOf(raw);
  if (parts === undefined) return converted;
  const attach = (value: Converted) => (value === undefined ? value : withResponseParts(value, parts));
  return converted instanceof Promise ? converted.then(attach) : attach(converted);
}
