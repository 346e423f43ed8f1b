import { removeStrictNulls } from './strictSchema.js';
import type { StrictPlan } from './toolSpecs.js';
import { isObject } from './toJsonSchema.js';

/**
 * The arguments of a call the model made, parsed from its JSON text; for a tool sent strict, the
 * nulls of originally optional keys are removed. `undefined` when the text is not a JSON object.
 */
export function parseCallArguments(text: string, plan: StrictPlan | undefined): Record<string, unknown> | undefined {
  let args: unknown;
  try {
    args = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(args)) return undefined;
  return plan ? (removeStrictNulls(args, plan.plan, plan.defs) as Record<string, unknown>) : args;
}

/** The error fields for a call whose arguments are not a JSON object. */
export function malformedCall(name: string, text: string): { errorCode: string; errorMessage: string; finishReason: string } {
  return {
    finishReason: 'MALFORMED_FUNCTION_CALL',
    errorCode: 'MALFORMED_FUNCTION_CALL',
    errorMessage: `The model called "${name}" with arguments that are not a JSON object: ${text.slice(0, 500)}`,
  };
}
