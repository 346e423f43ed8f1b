import { responsePartsOf, withResponseParts } from '@adkit/flow';

type Converted = Record<string, unknown> | undefined;

/**
 * The converted result with the parts the handler put on its raw result (`withResponseParts`,
 * #30): converting builds a new object, which would drop them. No work when there are none.
 */
export function keepResponseParts(raw: unknown, converted: Converted | Promise<Converted>): Converted | Promise<Converted> {
  const parts = responsePartsOf(raw);
  if (parts === undefined) return converted;
  const attach = (value: Converted) => (value === undefined ? value : withResponseParts(value, parts));
  return converted instanceof Promise ? converted.then(attach) : attach(converted);
}
