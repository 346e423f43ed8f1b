/** One streamed piece of a function call's arguments (Vertex `streamFunctionCallArguments`). */
export interface PartialArgInput {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: string;
  willContinue?: boolean;
}

/**
 * Assembles Vertex AI partial function-call arguments into one args object. Each piece names a
 * JSON path (`$.a.b[0]`, `$['key']`); string values whose previous piece for the same path said
 * `willContinue` are appended, other values replace.
 */
export class PartialArgsBuilder {
  readonly args: Record<string, unknown> = {};
  readonly #continuing = new Set<string>();

  constructor(initial?: Record<string, unknown>) {
    if (initial) Object.assign(this.args, structuredClone(initial));
  }

  /** Applies the pieces in order; throws on a path it cannot parse. */
  apply(pieces: readonly PartialArgInput[]): void {
    for (const piece of pieces) {
      const path = piece.jsonPath ?? '$';
      const keys = parseJsonPath(path);
      const continued = this.#continuing.has(path);
      let value: unknown;
      if (piece.stringValue !== undefined) {
        const previous = continued ? getPath(this.args, keys) : undefined;
        value = typeof previous === 'string' ? previous + piece.stringValue : piece.stringValue;
      } else if (piece.numberValue !== undefined) value = piece.numberValue;
      else if (piece.boolValue !== undefined) value = piece.boolValue;
      else if (piece.nullValue !== undefined) value = null;
      else continue;
      setPath(this.args, keys, value);
      if (piece.willContinue) this.#continuing.add(path);
      else this.#continuing.delete(path);
    }
  }
}

/** `$.a.b[0]['c d']` → `['a', 'b', 0, 'c d']`. */
export function parseJsonPath(path: string): Array<string | number> {
  if (!path.startsWith('$')) throw new Error(`partial function-call argument path "${path}" does not start with "$"`);
  const keys: Array<string | number> = [];
  const pattern = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  let index = 1;
  while (index < path.length) {
    pattern.lastIndex = index;
    const match = pattern.exec(path);
    if (!match) throw new Error(`partial function-call argument path "${path}" is not a simple JSON path`);
    if (match[1] !== undefined) keys.push(match[1]);
    else if (match[2] !== undefined) keys.push(Number(match[2]));
    else keys.push((match[3] ?? match[4] ?? '').replace(/\\(.)/g, '$1'));
    index = pattern.lastIndex;
  }
  return keys;
}

function getPath(root: Record<string, unknown>, keys: ReadonlyArray<string | number>): unknown {
  let node: unknown = root;
  for (const key of keys) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

function setPath(root: Record<string, unknown>, keys: ReadonlyArray<string | number>, value: unknown): void {
  if (keys.length === 0) {
    if (value !== null && typeof value === 'object') Object.assign(root, value);
    return;
  }
  let node: Record<string | number, unknown> = root;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    if (next === null || typeof next !== 'object') node[key] = typeof keys[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
}
