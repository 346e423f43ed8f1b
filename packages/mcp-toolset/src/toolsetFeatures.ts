import { ConfigError } from '@adkit/flow';
import type { McpElicitationOptions } from './elicitation.js';
import { ElicitingCalls } from './elicitingCalls.js';
import { TaskCalls, type McpTasksOptions } from './taskCalls.js';

/** Checks `elicitation` of `mcpToolset` (a `ConfigError` naming the fix); `undefined` when absent. */
export function elicitingCalls(owner: string, options: McpElicitationOptions | undefined): ElicitingCalls | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null)
    throw new ConfigError(`${owner}: elicitation must be an object such as {} (pause for the user) or {handler: (request, ctx) => answer}.`);
  const { handler, whenSessionLost, maxPerCall } = options;
  if (handler !== undefined && typeof handler !== 'function')
    throw new ConfigError(`${owner}: elicitation.handler must be a function (request, ctx) => answer | undefined.`);
  if (whenSessionLost !== undefined && whenSessionLost !== 'reissue' && whenSessionLost !== 'fail')
    throw new ConfigError(`${owner}: elicitation.whenSessionLost must be "reissue" or "fail", got ${JSON.stringify(String(whenSessionLost)).slice(0, 60)}.`);
  if (maxPerCall !== undefined && (!Number.isSafeInteger(maxPerCall) || maxPerCall < 1))
    throw new ConfigError(`${owner}: elicitation.maxPerCall must be a positive integer, got ${String(maxPerCall)}.`);
  return new ElicitingCalls(options);
}

/** Checks `tasks` of `mcpToolset`; task-required tools run as tasks with the defaults when it is absent. */
export function taskCalls(owner: string, options: McpTasksOptions | undefined, timeoutMs: number): TaskCalls {
  if (options === undefined) return new TaskCalls({});
  if (typeof options !== 'object' || options === null) throw new ConfigError(`${owner}: tasks must be an object such as {waitMs: 20000}.`);
  const { waitMs, optional } = options;
  if (waitMs !== undefined && (typeof waitMs !== 'number' || !Number.isFinite(waitMs) || waitMs < 0 || waitMs >= timeoutMs))
    throw new ConfigError(`${owner}: tasks.waitMs must be a number of ms from 0 to less than timeoutMs (${timeoutMs}), got ${String(waitMs)}.`);
  if (optional !== undefined && typeof optional !== 'boolean') throw new ConfigError(`${owner}: tasks.optional must be true or false.`);
  return new TaskCalls(options);
}
