import { AdkitError } from '../errors.js';
import type { Part } from '../content/content.js';
import type { ReadonlyState } from '../sessions/state.js';

/** Thrown when an instruction names a state key that is not set and not marked optional with `?`. */
export class MissingContextVariableError extends AdkitError {
  constructor(readonly variable: string) {
    super(
      'MISSING_CONTEXT_VARIABLE',
      `Context variable not found: \`${variable}\`. Set it in the session state, or write \`{${variable}?}\` to make it optional.`,
    );
    this.name = 'MissingContextVariableError';
  }
}

const PLACEHOLDER = /\{+[^{}]*\}+/g;
const STATE_NAME = /^(?:(?:app|user|temp):)?[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Fills `{key}` from state and `{artifact.name}` from artifacts; `{key?}` is empty when unset.
 * Anything else in braces (JSON examples, `{{…}}`) is left as written.
 */
export async function injectSessionState(
  template: string,
  state: ReadonlyState,
  loadArtifact: (name: string) => Promise<Part | undefined>,
): Promise<string> {
  const matches = [...template.matchAll(PLACEHOLDER)];
  if (matches.length === 0) return template;
  let result = '';
  let last = 0;
  for (const match of matches) {
    result += template.slice(last, match.index);
    last = match.index + match[0].length;
    result += await replacement(match[0], state, loadArtifact);
  }
  return result + template.slice(last);
}

async function replacement(
  placeholder: string,
  state: ReadonlyState,
  loadArtifact: (name: string) => Promise<Part | undefined>,
): Promise<string> {
  let name = placeholder.replace(/^\{+|\}+$/g, '').trim();
  const optional = name.endsWith('?');
  if (optional) name = name.slice(0, -1);
  if (name.startsWith('artifact.')) {
    const artifact = await loadArtifact(name.slice('artifact.'.length));
    if (artifact === undefined) {
      if (optional) return '';
      throw new MissingContextVariableError(name);
    }
    return artifact.text ?? '';
  }
  if (!STATE_NAME.test(name)) return placeholder;
  if (!state.has(name)) {
    if (optional) return '';
    throw new MissingContextVariableError(name);
  }
  const value = state.get(name);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
