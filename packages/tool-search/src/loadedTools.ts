import { STATE_PREFIX, type ReadonlyState, type State } from '@adkit/flow';

/** How long found tools stay declared: until the run ends, or for the session's later runs too. */
export type ToolSearchScope = 'run' | 'session';

/**
 * The state key where a tool search keeps the names it loaded. `run` uses a `temp:` key (never
 * saved, gone when the invocation ends); `session` a plain session key, saved with the event of
 * the `search_tools` call, so a restarted process, or another runner on the same store, declares
 * the same tools.
 */
export function loadedToolsKey(name: string, scope: ToolSearchScope): string {
  return `${scope === 'run' ? STATE_PREFIX.temp : ''}adkit.toolSearch.${name}.loaded`;
}

/** The loaded names, oldest first; anything that is not a list of strings (a forged state value) counts as none. */
export function readLoaded(state: ReadonlyState, key: string): readonly string[] {
  const value = state.get(key);
  if (!Array.isArray(value)) return [];
  return value.filter((name): name is string => typeof name === 'string');
}

/**
 * Adds the found names as the newest and keeps the last `maxLoaded`: a long conversation that
 * keeps searching swaps old tools out instead of growing the request without bound.
 */
export function writeLoaded(state: State, key: string, found: readonly string[], maxLoaded: number, exists: (name: string) => boolean): readonly string[] {
  const names = readLoaded(state, key).filter((name) => exists(name) && !found.includes(name));
  names.push(...found);
  const kept = names.slice(Math.max(0, names.length - maxLoaded));
  state.set(key, kept);
  return kept;
}
