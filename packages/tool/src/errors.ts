import { AdkitError } from '@adkit/flow';
import type { TSchema } from 'typebox';
import { describeFields } from './objectSchema.js';

const TOOL_ERROR = Symbol.for('adkit.toolError');

/** Stable codes of the failures a tool reports to the model. */
export type ToolErrorCode =
  | 'TOOL_ERROR'
  | 'INVALID_ARGUMENTS'
  | 'INVALID_RESULT'
  | 'CONFIRMATION_REQUIRED'
  | 'CALL_REJECTED'
  | 'INVALID_CONFIRMATION_PAYLOAD'
  | (string & {});

/** Options of a `ToolError`. */
export interface ToolErrorOptions {
  /** A stable code for callbacks and logs; `TOOL_ERROR` by default. */
  code?: ToolErrorCode;
  /** The tool that failed. */
  toolName?: string;
  /** The individual problems, e.g. `path: message` lines for invalid arguments. */
  problems?: readonly string[];
  cause?: unknown;
}

/**
 * A failure the model should see: thrown from a tool's `run`, the flow turns it into the function
 * response `{error: message}`, so write the message for the model (what went wrong, what to do).
 * `onToolErrorCallback`s receive the error itself and can branch on `code`. Check with
 * `isToolError()`, which works across copies of the package.
 */
export class ToolError extends AdkitError {
  declare readonly code: ToolErrorCode;
  readonly toolName?: string;
  readonly problems: readonly string[];

  constructor(message: string, options: ToolErrorOptions = {}) {
    super(options.code ?? 'TOOL_ERROR', message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
    if (options.toolName !== undefined) this.toolName = options.toolName;
    this.problems = [...(options.problems ?? [])];
    Object.defineProperty(this, TOOL_ERROR, { value: true });
  }
}

/** Whether the value is a `ToolError` (from any copy of the package). */
export function isToolError(value: unknown): value is ToolError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_ERROR] === true;
}

/**
 * The error a model gets for arguments that do not fit the tool's schema: each problem as
 * `path: message`, then the fields the tool expects, so the model can correct its call.
 */
export function invalidArgumentsError(toolName: string, problems: readonly string[], parameters: TSchema): ToolError {
  const fields = describeFields(parameters);
  const expected = fields
    ? `Expected fields: ${fields}. Correct the arguments and call the tool again.`
    : 'The tool takes no arguments; call it with {}.';
  return new ToolError(`Invalid arguments for tool "${toolName}": ${problems.join('; ')}. ${expected}`, {
    code: 'INVALID_ARGUMENTS',
    toolName,
    problems,
  });
}
