import { ConfigError } from '@adkit/flow';
import type { Tool } from '@adkit/flow';
import { wrapTool } from './wrapTool.js';

const PREFIX_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.-]{0,62}$/;

/** Throws a `ConfigError` naming the fix unless `prefix` can start a function name. */
export function assertPrefix(owner: string, prefix: unknown): asserts prefix is string {
  if (typeof prefix !== 'string' || !PREFIX_PATTERN.test(prefix))
    throw new ConfigError(
      `${owner}: prefix must match ${PREFIX_PATTERN} (a letter or underscore, then letters, digits, "_", "." or "-"), got ${typeof prefix === 'string' ? `"${prefix}"` : typeof prefix}; tools are renamed "<prefix>_<name>", e.g. "github_search".`,
    );
}

const wrappers = new WeakMap<Tool, Map<string, Tool>>();

/**
 * The tool renamed `<prefix>_<name>`, in its name and its declaration, so two toolsets can offer
 * tools of the same name. Calls go to the original tool, and the copy has exactly the original's
 * capabilities (`wrapTool`). When the original registers itself in `processRequest`, the renamed
 * tool is registered instead, and other tools it registers are prefixed too; text it adds to the
 * instructions is left as it is. The same tool and prefix always give the same wrapper.
 */
export function prefixTool(tool: Tool, prefix: string): Tool {
  assertPrefix('prefixTool', prefix);
  if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string')
    throw new ConfigError(`prefixTool: expected a tool ({name, description, ...}), got ${tool === null ? 'null' : typeof tool}.`);
  let byPrefix = wrappers.get(tool);
  if (!byPrefix) wrappers.set(tool, (byPrefix = new Map()));
  let wrapper = byPrefix.get(prefix);
  if (!wrapper)
    byPrefix.set(
      prefix,
      (wrapper = wrapTool(tool, { rename: prefixed(prefix), wrapRegistered: (registered) => prefixTool(registered, prefix) })),
    );
  return wrapper;
}

/** The renaming a prefix stands for. */
export function prefixed(prefix: string): (name: string) => string {
  return (name) => `${prefix}_${name}`;
}
